"""Serve the app for a table on the local network with waitress (a production WSGI server).

    python -m scorer.serve --host 0.0.0.0 --port 8080 [--base-url http://192.168.1.20:8080] [--instance PATH]
    scorer serve ...                   (the same, from an installed scorer)

No debugger, no reloader; the database and secret key live in instance/.

The links and QR codes the app shows to players come from ``--base-url`` (or ``SCORER_BASE_URL``,
or ``BASE_URL`` in instance/config.py) or else from the server's own address, never from a
request's Host header. Bound to every interface (0.0.0.0), the server's own address is this
machine's address on its network, which is passed to waitress as its ``server_name`` (the WSGI
``SERVER_NAME``); the command says which address that is and how to choose another.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading

from waitress import serve

from . import create_app
from .web.links import check_base_url, players_links


def announce(host: str, port: int, base_url: str) -> tuple[str, list[str]]:
    """The ``server_name`` to give waitress (the WSGI ``SERVER_NAME`` the links fall back on) and
    what to tell whoever starts the server about the players' links (:func:`scorer.web.links.players_links`)."""
    server_name, lines = players_links(host, port, base_url)
    return server_name, [f"Serving the Quadrille scorer on http://{host}:{port}/ (Ctrl-C to stop)", *lines]


CONNECTIONS = 200
"""Connections waitress keeps open at once (its default is 100); more wait to be accepted."""


def run(host: str = "0.0.0.0", port: int = 8080, threads: int = 8, base_url: str | None = None,
        instance: str | None = None) -> None:
    """Serve the app with waitress until interrupted: what ``python -m scorer.serve`` and ``scorer serve``
    do. ``base_url`` and ``instance`` are given to the app as ``SCORER_BASE_URL`` and
    ``SCORER_INSTANCE_PATH`` (a malformed base URL raises ValueError before anything starts); the
    database's schema is created or brought up to date as the app is made."""
    if base_url:
        os.environ["SCORER_BASE_URL"] = check_base_url(base_url)
    if instance:
        os.environ["SCORER_INSTANCE_PATH"] = os.path.abspath(instance)
    app = create_app()
    app.config["DEBUG"] = False
    server_name, lines = announce(host, port, app.config["BASE_URL"])
    print("\n".join(lines), flush=True)
    # A connection that sends nothing for 30 s is closed (waitress waits 120 s by default), so idle or
    # half-sent requests hold the server's connections for less long; see docs/HOSTING.md.
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (systemd, `podman stop`; ignored by default by a container's first process) stops the server
        # as Ctrl-C does: requests under way finish, the threads end and their database connections close.
        signal.signal(signal.SIGTERM, _stop)
    serve(app, host=host, port=port, threads=threads, ident="scorer", server_name=server_name,
          channel_timeout=30, connection_limit=CONNECTIONS)


def _stop(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorer.serve", description="Serve the Quadrille scorer with waitress.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0: every interface of this machine)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--threads", type=int, default=8, help="requests served at once")
    parser.add_argument("--base-url", default=None,
                        help="where phones open the app, such as http://192.168.1.20:8080 or https://scorer.example.org: "
                             "the table links and QR codes are built from it (default: this server's own address)")
    parser.add_argument("--instance", default=None,
                        help="the instance folder: database, secret key, config.py (default: SCORER_INSTANCE_PATH, else "
                             "instance/ in a clone, <venv>/var/scorer-instance when installed)")
    args = parser.parse_args(argv)
    if args.base_url:
        try:
            check_base_url(args.base_url)
        except ValueError as error:
            parser.error(str(error))
    run(args.host, args.port, args.threads, args.base_url, args.instance)


if __name__ == "__main__":
    main()
