"""The app's own server-side time, for the in-process benchmarks (bench/record_inprocess.py, bench/drawn.py): no
import of scorer here, so that a benchmark can time another checkout's package (SCORER_ROOT)."""

from __future__ import annotations

import threading
import time
from typing import Any


class ServerClock:
    """WSGI middleware: the time from the request's arrival in the app to the last byte of its body, for the
    latest request (:attr:`last`), and for every request its path, that wall
    time and the CPU time of the thread that served it (:attr:`seen`, in order of completion)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last = 0.0
        self.seen: list[tuple[str, float, float]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        started, cpu = time.perf_counter(), time.thread_time()
        iterable = self.app(environ, start_response)
        try:
            body = b"".join(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        wall = time.perf_counter() - started
        self.last = wall
        with self.lock:
            self.seen.append((environ.get("PATH_INFO", ""), wall, time.thread_time() - cpu))
        return [body]

    def latest(self, path: str) -> tuple[float, float]:
        """The wall and CPU time of the latest request for ``path`` that completed."""
        with self.lock:
            for seen, wall, cpu in reversed(self.seen):
                if seen == path:
                    return wall, cpu
        raise LookupError(path)
