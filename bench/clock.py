"""The app's own server-side time, for the benchmarks (bench/run.py, bench/record_inprocess.py): no import
of scorer here, so that a benchmark can time another checkout's package (SCORER_ROOT)."""

from __future__ import annotations

import threading
import time
from typing import Any

COMMITS = threading.local()
"""The seconds spent in COMMIT statements by the request this thread serves (bench/run.py's connections
add to ``COMMITS.seconds``; the clock sets it to zero as a request arrives)."""


class ServerClock:
    """WSGI middleware: the time from the request's arrival in the app to the last byte of its body, and
    the COMMIT time within it, for the latest request (the benchmarks send one at a time)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last: tuple[float, float] = (0.0, 0.0)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        COMMITS.seconds = 0.0
        started = time.perf_counter()
        iterable = self.app(environ, start_response)
        try:
            body = b"".join(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        self.last = (time.perf_counter() - started, COMMITS.seconds)
        return [body]
