# What scorer uses of waitress 3 (see stubs/README.md).
from _typeshed.wsgi import WSGIApplication

def serve(
    app: WSGIApplication,
    *,
    host: str = ...,
    port: int = ...,
    threads: int = ...,
    ident: str = ...,
    server_name: str = ...,
    channel_timeout: int = ...,
    connection_limit: int = ...,
) -> None: ...
