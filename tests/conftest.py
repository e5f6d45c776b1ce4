"""flaskr-style fixtures for the web tests: an app on a temporary database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.db import init_db


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test"})
    with app.app_context():
        init_db()
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
