# What scorer uses of WeasyPrint (see stubs/README.md).
from collections.abc import Callable
from typing import Any

class HTML:
    def __init__(
        self,
        *,
        string: str | None = None,
        base_url: str | None = None,
        url_fetcher: Callable[..., Any] | None = None,
    ) -> None: ...
    def write_pdf(self) -> bytes: ...  # with no target, as scorer calls it: the PDF's bytes

# WeasyPrint's own fetcher as older versions have it (a dict with the resource). WeasyPrint 70,
# which the test environment installs, has no such function: its fetchers are URLFetcher
# objects (see the tally's _fetch_nothing in scorer/tally.py).
def default_url_fetcher(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]: ...
