"""The links the app hands to other phones: a table's link, its watch-only link, and their QR codes.

A link shown to players must never be built from the request's ``Host`` header: any client
chooses that header, and ``Host: evil.example`` would put another site's address in the QR code
the whole table scans. A link is built instead from

1. the configured base URL (config ``BASE_URL``, environment ``SCORER_BASE_URL``, or
   ``python -m scorer.serve --base-url``): the address where players reach the app's root;
2. otherwise the server's own address, from the WSGI environ's ``SERVER_NAME``, ``SERVER_PORT``
   and ``wsgi.url_scheme``, which the server sets and the client does not
   (``python -m scorer.serve`` gives waitress the address it serves as its ``server_name``);
3. where the server names no address a phone can open (bound to ``0.0.0.0``, or waitress's
   default ``waitress.invalid``): the address the phone itself used, but only when it is one of
   this machine's own IP addresses on the port the server listens on (see :func:`own_address`:
   a name such as ``evil.example``, another machine's address or another port is never taken);
   failing that, this machine's address on its network (see :func:`reachable_host`).

Links to a loopback host (``127.0.0.1``, ``localhost``, ``::1``: ``bash scripts/serve``'s
``http://127.0.0.1:5000``) open only on the machine that serves them. The Share page and the serve
commands then say so, and how to serve the table to the other phones (:func:`local_only_notice`).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import click
from flask import current_app, request, url_for
from flask.cli import with_appcontext

from ..core.errors import Words
from ..core.i18n import N_

UNREACHABLE_NAMES = frozenset({"", "0.0.0.0", "::", "[::]", "waitress.invalid"})
"""Server names that no phone can open: a wildcard bind, or waitress's default ``server_name``."""

DEFAULT_PORTS = {"http": "80", "https": "443"}


def check_base_url(value: str) -> str:
    """The base URL as configured, checked (http or https, a host, no query, fragment or password)
    and without its trailing slash; ``ValueError`` saying what is wrong otherwise."""
    text = value.strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
    except ValueError as error:
        raise ValueError(f"BASE_URL {value!r} is not a URL: {error}") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.query or parts.fragment or parts.username:
        raise ValueError(f"BASE_URL must be the address where phones open the app, such as "
                         f"http://192.168.1.20:8080 or https://scorer.example.org, not {value!r}")
    return text.rstrip("/")


def reachable_host() -> str:
    """This machine's address as the other devices on its network see it: the address of the
    interface its default route leaves by. "Connecting" a UDP socket only consults the routing
    table; no packet is sent (192.0.2.1 is a documentation address, never contacted).
    127.0.0.1 when the machine has no network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _is_mine(address: str) -> bool:
    """Whether ``address`` (an IP literal) belongs to this machine: only then can a socket bind to it."""
    ip = ipaddress.ip_address(address)
    if ip.is_unspecified or ip.is_multicast:
        return False
    try:
        with socket.socket(socket.AF_INET6 if ip.version == 6 else socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind((address, 0))
        return True
    except OSError:
        return False


def own_address(host_header: str, scheme: str, server_port: str) -> str | None:
    """The address in a request's ``Host`` header if it is this server's own: an IP literal of
    this machine, on the port the server listens on. ``None`` for anything else (a name, another
    machine's address, another port), whatever the client wrote."""
    try:
        parts = urlsplit(f"//{host_header}")
        host, port = parts.hostname, parts.port
        if host is None or parts.username is not None or parts.path:
            return None
        ipaddress.ip_address(host)
    except ValueError:
        return None
    if str(port or DEFAULT_PORTS[scheme]) != server_port or not _is_mine(host):
        return None
    return host


def server_base_url(environ: Mapping[str, Any]) -> str:
    """The server's own address, from what the WSGI server (not the client) puts in the environ."""
    scheme = environ.get("wsgi.url_scheme", "http")
    if scheme not in DEFAULT_PORTS:
        scheme = "http"
    host = str(environ.get("SERVER_NAME", ""))
    port = str(environ.get("SERVER_PORT", ""))
    if host in UNREACHABLE_NAMES:
        host = own_address(str(environ.get("HTTP_HOST", "")), scheme, port) or reachable_host()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address in a URL
    return f"{scheme}://{host}" + ("" if port in ("", DEFAULT_PORTS[scheme]) else f":{port}")


def base_url() -> str:
    """Where phones reach the app's root, without a trailing slash."""
    configured = current_app.config.get("BASE_URL")
    if configured:
        return str(configured).rstrip("/")
    return server_base_url(request.environ) + request.script_root


def external_url(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)`` as a full link to open on another phone, never from the
    request's ``Host`` header."""
    return base_url() + url_for(endpoint, **values).removeprefix(request.script_root)


def opens_only_here(url: str) -> bool:
    """Whether a link to ``url`` opens only on the machine that serves it: its host is ``localhost`` (or a
    name under it) or a loopback address (127.0.0.0/8, ``::1``)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


LOCAL_ONLY = N_("These links open only on this computer: no other phone can reach {host}.")
SERVE_ON_THE_NETWORK = N_("To let the other phones join, stop this server and serve the table on the local network: "
                          "{serve_lan} in the app's folder, or {serve} from an installed scorer. The links then carry "
                          "this computer's address on the network ({base_url} gives another); the tables are kept.")
COMMANDS = {"serve_lan": "bash scripts/serve-lan", "serve": "scorer serve",
            "base_url": Words(N_("--base-url http://ADDRESS:8080"))}
"""The commands the notice names: scripts/serve-lan is ``scorer serve --host 0.0.0.0 --port 8080`` of the
clone's .venv (waitress on every interface), whose links use this machine's address on its network."""


def local_only_notice(url: str) -> list[Words]:
    """What to tell whoever shares ``url`` when only this machine can open it (none otherwise): the Share page
    and the terminal at start say the same."""
    if not opens_only_here(url):
        return []
    return [Words(LOCAL_ONLY, host=urlsplit(url).hostname), Words(SERVE_ON_THE_NETWORK, **COMMANDS)]


def players_links(host: str, port: int, base_url: str) -> tuple[str, list[str]]:
    """For a server listening on ``host``:``port``, the name it should give itself (the WSGI ``SERVER_NAME``
    the links fall back on) and what to tell whoever starts it about the players' links: where they point,
    how to choose another address, and whether other phones can open them."""
    server_name = reachable_host() if host in UNREACHABLE_NAMES else host
    if base_url:
        lines = [f"Links and QR codes for the players: {base_url}/..."]
        links = base_url
    else:
        shown = f"[{server_name}]" if ":" in server_name else server_name
        links = f"http://{shown}:{port}"
        lines = [f"Links and QR codes for the players: {links}/... (this server's own address"
                 f"{' on the network' if host in UNREACHABLE_NAMES else ''})."]
        if not opens_only_here(links):
            lines[0] += (f" If the phones cannot open it, restart with --base-url http://ADDRESS:{port} (or set "
                         f"SCORER_BASE_URL), ADDRESS being what the phones reach this machine by.")
    return server_name, lines + [str(sentence) for sentence in local_only_notice(links)]


@click.command("links")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address the server listens on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@with_appcontext
def links_command(host: str, port: int) -> None:
    """Say where the players' links and QR codes will point when the app is served on HOST:PORT, and whether
    other phones can open them (what scripts/serve prints as it starts)."""
    click.echo("\n".join(players_links(host, port, str(current_app.config["BASE_URL"]))[1]))
