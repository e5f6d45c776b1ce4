from flask import Flask
from werkzeug.exceptions import BadRequest

class CSRFError(BadRequest):
    description: str

class CSRFProtect:
    def __init__(self, app: Flask | None = None) -> None: ...
    def init_app(self, app: Flask) -> None: ...

def generate_csrf(secret_key: str | None = None, token_key: str | None = None) -> str: ...
