"""The app's own server-side time, for the benchmarks (bench/run.py, bench/record_inprocess.py, bench/circle.py): no import
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
    the COMMIT time within it, for the latest request (:attr:`last`: bench/run.py sends one at a time);
    and for every request, its path, that wall time and the CPU time of the thread that served it
    (:attr:`seen`, in order of completion: bench/circle.py sends several at once)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last: tuple[float, float] = (0.0, 0.0)
        self.seen: list[tuple[str, float, float]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        COMMITS.seconds = 0.0
        started, cpu = time.perf_counter(), time.thread_time()
        iterable = self.app(environ, start_response)
        try:
            body = b"".join(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        wall = time.perf_counter() - started
        self.last = (wall, COMMITS.seconds)
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

    def since(self, mark: int, path: str) -> list[tuple[float, float]]:
        """The wall and CPU time of each request for ``path`` completed after the first ``mark`` seen."""
        with self.lock:
            return [(wall, cpu) for seen, wall, cpu in self.seen[mark:] if seen == path]
