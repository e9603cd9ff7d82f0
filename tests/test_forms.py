"""Numbers and list indices from a request are read as ASCII digits only (scorekeeper/web/forms.py and the
season filter): another script's digits ("2٠٢٦", a superscript "²") are refused in words, never a 500."""

from __future__ import annotations

import pytest
from support import PLAYERS, csrf_token

OTHER_DIGITS = ["2٠٢٦", "２０２６", "2⁰²⁶"]
RECORDS_ROUTES = [
    "/players",
    "/players/season.pdf",
    "/players/1",
    "/players/1/versus/2",
    "/api/players/1",
    "/api/players/1/versus/2",
]


@pytest.mark.parametrize("year", OTHER_DIGITS)
@pytest.mark.parametrize("route", RECORDS_ROUTES)
def test_a_year_in_other_digits_is_refused_in_words(api, client, route, year):
    api.new_game()  # players 1 and 2 exist
    answer = client.get(f"{route}?year={year}")
    if answer.status_code == 404:
        pytest.skip(f"{route} is not a records route here")
    assert answer.status_code == 400
    said = answer.get_json()["error"] if answer.is_json else answer.get_data(as_text=True).replace("&#39;", "'")
    assert f"{year!r} is not a year (four digits, like 2026)" in said


@pytest.mark.parametrize("day", ["2٠26-01-01", "2026-０1-01"])
def test_a_date_in_other_digits_is_refused_in_words(client, day):
    answer = client.get(f"/api/players?from={day}")
    assert answer.status_code in (200, 400)  # /api/players takes no season: never a 500
    answer = client.get(f"/api/players/1?from={day}")
    assert answer.status_code in (400, 404)


def test_a_round_form_list_index_in_other_digits_is_not_a_500(api, client):
    gid = api.new_game()["id"]
    page = client.get(f"/games/{gid}/rounds/new").text
    form = {"csrf_token": csrf_token(page), "went_out": "Ann", "caught-²": "K K"}
    form |= {f"caught-{i}": "" for i in range(len(PLAYERS))}
    answer = client.post(f"/games/{gid}/rounds/new", data=form)
    assert answer.status_code < 500
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0 or answer.status_code == 302


def test_a_meld_checker_list_index_in_other_digits_is_not_a_500(client):
    answer = client.get("/melds?ruleset=ten-pennies&round=1&stage=first&melds-0=K+K+K&melds-²=K+K+K")
    assert answer.status_code < 500
