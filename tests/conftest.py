"""Fixtures in the manner of flaskr: an app on a real temporary SQLite file, a client, a runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support import Api

from scorekeeper import create_app
from scorekeeper.catalog import load_catalog
from scorekeeper.rules.rulesets import Ruleset


@pytest.fixture(scope="session")
def rulesets() -> dict[str, Ruleset]:
    return load_catalog(None).rulesets


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorekeeper.sqlite"),
            "SECRET_KEY": "test-only",
            "RULESETS_DIR": str(tmp_path / "rulesets"),
        }
    )
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> Any:
    return app.test_cli_runner()


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)
