"""Helpers shared by the tests (imported as ``support``; conftest only holds fixtures)."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


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


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)
