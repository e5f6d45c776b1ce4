"""The app served by waitress (the serve command's 8 threads) in a process of its own on loopback, and the clients
that hit it: a hostile import, a poll of ``/healthz``, a phone recording a deal. Shared by tests/test_stall.py and
bench/imports.py. The server is a child process, so that what it holds (``VmRSS``, ``VmHWM``) and how long it
takes are its own, not the clients'.

    python tests/helpers/served.py DATABASE INSTANCE      (prints the port, serves until killed)
"""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))  # run as a script too (the served app's own process)
from scorer import serve as serve_command  # noqa: E402
THREADS = serve_command.THREADS
"""The serve command's threads."""
HIDDEN = re.compile(r'name="(number|once|csrf_token|previewed)" type="hidden" value="([^"]*)"')


class Client:
    """One keep-alive HTTP connection with the cookies the app sets, as a phone's browser keeps them."""

    def __init__(self, port: int, timeout: float = 120) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | str | None = None,
                content_type: str = "application/x-www-form-urlencoded") -> tuple[int, bytes, dict[str, str]]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        if body is not None:
            headers["Content-Type"] = content_type
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        for cookie in response.msg.get_all("Set-Cookie") or ():
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        return response.status, data, dict(response.getheaders())

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        return self.request("POST", path, urlencode(fields))

    def close(self) -> None:
        self.conn.close()


def csrf(client: Client, path: str) -> str:
    status, page, _ = client.request("GET", path)
    assert status == 200, (path, status)
    match = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match, f"no CSRF token on {path}"
    return match.group(1).decode()


def upload(client: Client, path: str, field: str, raw: bytes, token: str) -> tuple[int, bytes, dict[str, str]]:
    """``raw`` posted as the file ``field`` of the import form at ``path`` (multipart, as a browser sends it)."""
    boundary = "----scorer-stall-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{token}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"file.json\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + raw + f"\r\n--{boundary}--\r\n".encode()
    return client.request("POST", path, body, f"multipart/form-data; boundary={boundary}")


IMPORT_PAGES = {"evening": ("/import", "evening"), "circle": ("/c/import", "circle")}


def import_file(port: int, kind: str, raw: bytes) -> tuple[int, bytes, dict[str, str], float]:
    """One client importing ``raw`` as an evening or a circle file: the answer and how long the POST took."""
    client = Client(port)
    try:
        path, field = IMPORT_PAGES[kind]
        token = csrf(client, path)
        started = time.perf_counter()
        status, body, headers = upload(client, path, field, raw, token)
        return status, body, headers, time.perf_counter() - started
    finally:
        client.close()


class Poll(threading.Thread):
    """``GET /healthz`` again and again on a connection of its own, a pause between, until :meth:`stop` (or
    ``seconds`` at most): how long each took."""

    def __init__(self, port: int, pause: float = 0.05, seconds: float = 120) -> None:
        super().__init__(daemon=True)
        self.port, self.pause, self.seconds = port, pause, seconds
        self.times: list[float] = []
        self.failed: list[int] = []
        self._halt = threading.Event()
        self.start()

    def run(self) -> None:
        client = Client(self.port)
        ends = time.monotonic() + self.seconds
        while not self._halt.is_set() and time.monotonic() < ends:
            started = time.perf_counter()
            status, _, _ = client.request("GET", "/healthz")
            self.times.append(time.perf_counter() - started)
            if status != 200:
                self.failed.append(status)
            self._halt.wait(self.pause)
        client.close()

    def stop(self) -> list[float]:
        self._halt.set()
        self.join(60)
        return self.times


def ready_to_record(client: Client, token: str, number: int, hombre: str) -> tuple[str, dict[str, str]]:
    """Deal ``number``'s form opened, a solo tapped in and previewed: the fields whose POST records it."""
    url = f"/t/{token}/deal/solo"
    status, page, _ = client.request("GET", url)
    assert status == 200, (url, status)
    fields = dict(HIDDEN.findall(page.decode()))
    fields.update({"contract": "solo", "hombre": hombre, "trumps": "hearts", "hombre_tricks": "6", "matadors": "0",
                   "action": "preview"})
    status, preview, _ = client.form(url, fields)
    assert status == 200, (url, status, preview[-800:])
    fields.update(HIDDEN.findall(preview.decode()))
    fields["action"] = "record"
    return url, fields


def timed(act: Callable[[], tuple[int, bytes, dict[str, str]]]) -> tuple[int, float]:
    started = time.perf_counter()
    status, _, _ = act()
    return status, time.perf_counter() - started


class Served:
    """The app served in a child process on ``database`` (and ``instance``), until :meth:`close`."""

    def __init__(self, database: Path, instance: Path) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, str(database), str(instance)],
                                        stdout=subprocess.PIPE, text=True, cwd=str(ROOT))
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.strip().isdigit(), f"the server did not start: {line!r}"
        self.port = int(line)

    def memory_mb(self) -> tuple[float, float]:
        """The server's resident memory now (``VmRSS``) and the most it has held (``VmHWM``), in MB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = dict(re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", status, re.M))
        return int(found["VmRSS"]) / 1024, int(found["VmHWM"]) / 1024

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def serve(database: str, instance: str) -> None:
    sys.path.insert(0, str(ROOT))
    import logging

    from waitress.server import create_server

    from scorer import create_app

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth": the point of a burst
    app = create_app({"DATABASE": database, "INSTANCE_PATH": instance})
    server = create_server(app, host="127.0.0.1", port=0, threads=THREADS, ident="scorer")
    print(server.effective_port, flush=True)  # type: ignore[union-attr]
    server.run()


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])
