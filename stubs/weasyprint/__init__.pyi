# What scorer uses of WeasyPrint (see stubs/README.md).
from collections.abc import Callable
from typing import Any


class HTML:
    def __init__(
        self,
        *,
        string: str | None = None,
        base_url: str | None = None,
        url_fetcher: URLFetcher | Callable[..., Any] | None = None,
    ) -> None: ...
    # with no target, as scorer calls it: the PDF's bytes
    def write_pdf(self) -> bytes: ...

class URLFetcher:
    """WeasyPrint 70's fetcher of external resources; ``allowed_protocols`` limits what it fetches."""

    def __init__(self, *, allowed_protocols: tuple[str, ...] | None = None) -> None: ...
