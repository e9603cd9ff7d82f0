"""The table's clock (scorekeeper/web/words.py): a moment is stored in UTC and shown as the server's
clock reads it. A table in Chicago that begins a game at 21:30 on 26 November reads 26 November and
21:30 on every page and on the printed sheet, not the 27th at 03:30 (UTC)."""

from __future__ import annotations

import io
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader
from support import Api, make_app

from scorekeeper.web.words import local_clock, local_day, local_time

BEGUN = "2026-11-27T03:30:00+00:00"  # 21:30 on the 26th in Chicago
CHICAGO = "CST6CDT,M3.2.0,M11.1.0"  # POSIX rules: no time zone database needed


@pytest.fixture
def in_chicago(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", CHICAGO)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_stored_moment_reads_on_the_table_s_clock(in_chicago):
    assert local_time(BEGUN) == "2026-11-26 21:30"
    assert local_day(BEGUN) == "2026-11-26"
    assert local_clock(BEGUN) == "21:30"
    assert local_time("2026-07-01T02:00:00+00:00") == "2026-06-30 21:00"  # summer time: 5 hours behind


def test_a_stamp_that_is_no_time_is_shown_as_it_is(in_chicago):
    """A database edited by hand ("last Friday") still draws its pages."""
    assert local_time("last Friday") == "last Friday"
    assert local_day("last Friday") == "last Frida"
    assert local_clock("") == ""


def test_every_page_and_the_printed_sheet_say_the_table_s_day_and_time(tmp_path: Path, in_chicago):
    app = make_app(tmp_path)
    api = Api(app.test_client())
    night = api.call("POST", "/api/nights", {"name": "O'Neil's"}, 201)["id"]
    game = api.new_game(night=night)["id"]
    api.round(game, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})
    with sqlite3.connect(app.config["DATABASE"]) as db:  # begun at 21:30 in Chicago, stored in UTC
        for table in ("games", "nights"):
            db.execute(f"UPDATE {table} SET created_at = ?", [BEGUN])
        (entered,) = db.execute("SELECT created_at FROM events").fetchone()  # entries are append-only: now
    client = api.client
    assert "2026-11-26 21:30" in client.get("/").text
    assert "Started 2026-11-26 21:30" in client.get(f"/nights/{night}").text
    assert "2026-11-26" in client.get("/nights").text and "2026-11-27" not in client.get("/nights").text
    history = client.get(f"/games/{game}/history").text
    assert f"<time>{local_clock(entered)}</time>" in history and f"<time>{entered[11:16]}</time>" not in history
    sheet = client.get(f"/games/{game}/scorepad.pdf").data
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(sheet)).pages)
    assert "Thursday 26 November 2026" in text, text[:300]
    summary = client.get(f"/nights/{night}/summary.pdf").data
    assert "Thursday 26 November 2026" in "".join(page.extract_text() for page in PdfReader(io.BytesIO(summary)).pages)
