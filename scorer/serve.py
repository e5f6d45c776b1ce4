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

import os
import signal
import threading

import click

from . import create_app


def announce(host: str, port: int, base_url: str) -> tuple[str, list[str]]:
    """The ``server_name`` to give waitress (the WSGI ``SERVER_NAME`` the links fall back on) and
    what to tell whoever starts the server about the players' links (:func:`scorer.web.links.players_links`)."""
    from .web.links import players_links

    server_name, lines = players_links(host, port, base_url)
    return server_name, [f"Serving the Quadrille scorer on http://{host}:{port}/ (Ctrl-C to stop)", *lines]


CONNECTIONS = 200
"""Connections waitress keeps open at once (its default is 100); more wait to be accepted."""
THREADS = 12
"""Requests served at once. Eight phones opening the largest circle on a freshly started server hold eight of
them, seven waiting for the one that folds its season (tests/test_stall.py): the others still answer a phone's
page, and ``/healthz``, at once."""


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option("--threads", default=THREADS, show_default=True, type=click.IntRange(1, 256), help="Requests served at once.")
@click.option("--instance", "instance", default=None, type=click.Path(file_okay=False),
              help="The instance folder: database, secret key, config.py (default: SCORER_INSTANCE_PATH, else "
                   "instance/ in a clone, <venv>/var/scorer-instance when installed).")
@click.option("--base-url", default=None,
              help="Where phones open the app (http://192.168.1.20:8080, https://scorer.example.org): the table links "
                   "and QR codes are built from it (default: SCORER_BASE_URL, else this server's own address).")
def main(host: str, port: int, threads: int, instance: str | None, base_url: str | None) -> None:
    """Serve the app with waitress, a production server (no debugger, no reloader); the database's
    schema is created or brought up to date first."""
    from waitress import serve

    from .web.links import check_base_url

    if base_url:
        try:
            os.environ["SCORER_BASE_URL"] = check_base_url(base_url)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--base-url") from error
    if instance:
        os.environ["SCORER_INSTANCE_PATH"] = os.path.abspath(instance)
    app = create_app()
    app.config["DEBUG"] = False
    server_name, lines = announce(host, port, app.config["BASE_URL"])
    print("\n".join(lines), flush=True)
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (systemd, `podman stop`; ignored by default by a container's first process) stops the server
        # as Ctrl-C does: requests under way finish, the threads end and their database connections close.
        signal.signal(signal.SIGTERM, _stop)
    # A connection that sends nothing for 30 s is closed (waitress waits 120 s by default), so idle or
    # half-sent requests hold the server's connections for less long; see docs/HOSTING.md.
    serve(app, host=host, port=port, threads=threads, ident="scorer", server_name=server_name,
          channel_timeout=30, connection_limit=CONNECTIONS)


def _stop(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    main(prog_name="python -m scorer.serve")
