"""A phone for the benchmarks (bench/run.py, bench/circle.py): one keep-alive HTTP connection to the server on
loopback, with the cookies the app sets, as a phone's browser keeps them. No import of scorer here."""

from __future__ import annotations

import http.client
from urllib.parse import urlencode


class Phone:
    """One keep-alive HTTP connection with a cookie, like a phone's browser."""

    def __init__(self, port: int, timeout: float = 60) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
        """The answer's status, body and headers; a form's ``fields`` are posted url-encoded."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        for cookie in response.msg.get_all("Set-Cookie") or ():  # every cookie the app sets, kept by name
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        return response.status, data, dict(response.getheaders())
