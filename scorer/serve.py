"""Serve the app for a table on the local network with waitress (a production WSGI server).

    python -m scorer.serve --host 0.0.0.0 --port 8080

No debugger, no reloader; the database and secret key live in instance/.
"""

from __future__ import annotations

import argparse

from waitress import serve

from . import create_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the Quadrille scorer with waitress.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0: every interface of this machine)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--threads", type=int, default=8, help="requests served at once")
    args = parser.parse_args(argv)
    app = create_app()
    app.config["DEBUG"] = False
    print(f"Serving the Quadrille scorer on http://{args.host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="scorer")


if __name__ == "__main__":
    main()
