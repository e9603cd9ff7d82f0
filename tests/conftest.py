"""Fixtures in the manner of flaskr: an app on a real temporary SQLite file, a client, a runner."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.catalog import load_catalog
from scorekeeper.rules.rulesets import Ruleset

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


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


class Api:
    """A thin helper over the JSON API that asserts the status it expects."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def call(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.open(path, method=method, json=body)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def new_game(self, players: list[str] = PLAYERS, ruleset: str = "ten-pennies", **extra: Any) -> Any:
        body = {"ruleset": ruleset, "players": players, "first_dealer": players[0], **extra}
        return self.call("POST", "/api/games", body, 201)

    def buy(self, game_id: int, player: str, status: int = 201) -> Any:
        return self.call("POST", f"/api/games/{game_id}/buys", {"player": player}, status)

    def round(self, game_id: int, went_out: str, caught: dict[str, str], status: int = 201) -> Any:
        return self.call("POST", f"/api/games/{game_id}/rounds", {"went_out": went_out, "caught": caught}, status)


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)
