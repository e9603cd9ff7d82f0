"""The export written a game at a time (issue 45): a house's nineteen years are written without
holding them all, and the file is the one the whole-at-once export writes, byte for byte."""

from __future__ import annotations

from typing import Any

from flask import Flask
from support import Api, tie_game

from scorekeeper.reads.exports import to_json_text
from scorekeeper.store import Store, exchange


def streamed_and_whole(app: Flask) -> tuple[str, str]:
    store = Store(app.config["DATABASE"])
    try:
        return "".join(exchange.export_text(store)), to_json_text(exchange.dump(store))
    finally:
        store.close()


def test_an_empty_database_exports_as_before(app: Flask):
    streamed, whole = streamed_and_whole(app)
    assert streamed == whole


def test_an_evening_exports_byte_for_byte_as_before(app: Flask, api: Api):
    night = api.call("POST", "/api/nights", {"name": "Gran's “Friday” ♠"}, 201)["id"]
    tie_game(api, night)
    game: Any = api.new_game(["Zoë", "O'Neil", "Ann", "Bob"], ruleset="ten-card-rummy")
    api.round(game["id"], "Zoë", {"O'Neil": "K 7", "Ann": "", "Bob": "JKR"})
    streamed, whole = streamed_and_whole(app)
    assert '"name": "Zoë"' in streamed and '"rulesets": [\n  {' in streamed
    assert streamed == whole


def test_the_export_is_written_a_game_at_a_time(app: Flask, api: Api):
    for _ in range(3):
        api.new_game()
    store = Store(app.config["DATABASE"])
    try:
        parts = list(exchange.export_text(store))
    finally:
        store.close()
    assert len([part for part in parts if '"events"' in part]) == 3  # one part a game, none holds two
