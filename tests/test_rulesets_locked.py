"""House rules under the night's lock (issue 58): "A phone that never typed a locked night's PIN can
edit the house ruleset that night plays (a penny a card became 100): the next game the scorekeeper
starts plays the new rules under the same name. Two phones editing the same ruleset are both told
'Saved', and the second silently undoes the first." Through the form, as browsers send it."""

from __future__ import annotations

from pathlib import Path

from support import PLAYERS, make_app
from test_rulesets_form import changed, fields_of, post

PIN = "4826"


def house_rules(client) -> str:
    url = "/rulesets/new?from=ten-pennies"
    saved = post(client, url, changed(fields_of(client.get(url).text), name="Our way"), "save")
    assert saved.status_code == 302
    return "our-way"


def version_of(client, ruleset_id: str) -> int:
    return int(client.get(f"/api/rulesets/{ruleset_id}").get_json()["version"])


def a_penny_a_card_made(client, ruleset_id: str, pennies: str):
    url = f"/rulesets/{ruleset_id}/edit"
    return post(client, url, changed(fields_of(client.get(url).text), **{"money.pennies_per_card": pennies}), "save")


def test_the_rules_a_locked_night_plays_change_only_with_its_pin(tmp_path: Path):
    app = make_app(tmp_path)
    keeper = app.test_client()
    ruleset = house_rules(keeper)
    night = keeper.post("/api/nights", json={}).get_json()["id"]
    body = {"ruleset": ruleset, "players": PLAYERS, "night": night, "pin": PIN}
    assert keeper.post("/api/games", json=body).status_code == 201

    phone = app.test_client()  # never typed the PIN
    refused = a_penny_a_card_made(phone, ruleset, "100")
    assert refused.status_code == 403
    assert f"these rules are played in night {night}, which is locked: unlock it with its PIN" in refused.text
    assert version_of(phone, ruleset) == 1

    unlocked = keeper.post(f"/nights/{night}/unlock", data={"pin": PIN, "csrf_token": _token(keeper)})
    assert unlocked.status_code in (302, 303), unlocked.text[:300]
    assert a_penny_a_card_made(keeper, ruleset, "2").status_code == 302
    assert version_of(keeper, ruleset) == 2


def test_rules_no_locked_night_plays_are_changed_by_anyone(tmp_path: Path):
    client = make_app(tmp_path).test_client()
    ruleset = house_rules(client)
    assert a_penny_a_card_made(client, ruleset, "2").status_code == 302 and version_of(client, ruleset) == 2


def test_a_second_phone_s_edit_made_on_the_older_version_is_refused_not_silently_saved(tmp_path: Path):
    app = make_app(tmp_path)
    first, second = app.test_client(), app.test_client()
    ruleset = house_rules(first)
    url = f"/rulesets/{ruleset}/edit"
    first_form, second_form = fields_of(first.get(url).text), fields_of(second.get(url).text)
    assert post(first, url, changed(first_form, **{"money.pennies_per_card": "2"}), "save").status_code == 302
    late = post(second, url, changed(second_form, **{"buys.pennies": "3"}), "save")
    assert late.status_code == 400
    assert "these rules were saved on another device meanwhile (now version 2, this form was version 1)" in late.text
    document = first.get(f"/api/rulesets/{ruleset}").get_json()["document"]
    assert (document["money"]["pennies_per_card"], document["buys"]["pennies"]) == (2, 1)


def _token(client) -> str:
    from support import csrf_token

    return csrf_token(client.get("/nights").text)


def test_a_game_begun_after_an_edit_says_what_changed_before_the_first_round(tmp_path: Path):
    client = make_app(tmp_path).test_client()
    ruleset = house_rules(client)
    assert a_penny_a_card_made(client, ruleset, "2").status_code == 302
    game = client.post("/api/games", json={"ruleset": ruleset, "players": PLAYERS}).get_json()["id"]
    page = client.get(f"/games/{game}").text
    assert "Our way is played here as changed (version 2):" in page
    assert "<li>Pennies a card caught: 2 (was 1)</li>" in page
    client.post(f"/api/games/{game}/rounds", json={"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": ""}})
    assert "is played here as changed" not in client.get(f"/games/{game}").text  # said before the deal only
