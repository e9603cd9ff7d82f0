"""A game keeps the rules it was played under (issue 42): house rules made through the form, a game
played under them and worked by hand, the rules changed (jokers worth 25): the finished game's
totals, money, records and printed scorepad stay as they were; a new game plays the new version;
export and import into an empty instance bring both games back exactly."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support import csrf_token, make_app
from test_rulesets_form import changed, fields_of, post

OUR_WAY = "ten-pennies-our-way"


def make_our_way(client) -> None:
    """Ten Pennies, our way: RULES.md's 7 rounds and a last of 3 sets of 3; aces never wild; 2 pennies a buy."""
    url = "/rulesets/new?from=ten-pennies"
    fields = fields_of(post(client, url, fields_of(client.get(url).text), "add").text)
    round_8 = {"rounds[8].contract.melds": "3", "rounds[8].contract.size": "3", "rounds[8].wild_limit": "1"}
    fields = changed(fields, **round_8, **{"buys.pennies": "2", "name": "Ten Pennies, our way"})
    fields = [(name, value) for name, value in fields if not (name.endswith(".wilds") and value == "A")]
    assert post(client, url, fields, "save").status_code == 302


def jokers_worth_25(client) -> None:
    url = f"/rulesets/{OUR_WAY}/edit"
    saved = post(client, url, changed(fields_of(client.get(url).text), **{"points.JKR": "25"}), "save")
    assert saved.status_code == 302


def play(client) -> int:
    """Ann, Bob and Cy; Cy buys once in round 1. Ann goes out every round; Bob is caught with K K
    in round 1 and a 5 after; Cy with JKR 5 in round 1 and a 3 after."""
    gid = client.post("/api/games", json={"ruleset": OUR_WAY, "players": ["Ann", "Bob", "Cy"]}).get_json()["id"]
    assert client.post(f"/api/games/{gid}/buys", json={"player": "Cy"}).status_code == 201
    rounds = [{"Bob": "K K", "Cy": "JKR 5"}] + [{"Bob": "5", "Cy": "3"}] * 7
    for caught in rounds:
        answer = client.post(f"/api/games/{gid}/rounds", json={"went_out": "Ann", "caught": caught})
        assert answer.status_code == 201, answer.get_json()
    return gid


def pdf_text(client, gid: int, folder: Path) -> str:
    path = folder / f"scorepad-{gid}.pdf"
    path.write_bytes(client.get(f"/games/{gid}/scorepad.pdf").data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_a_finished_game_keeps_its_rules_when_the_house_rules_change(tmp_path):
    client = make_app(tmp_path / "home").test_client()
    make_our_way(client)
    gid = play(client)
    game = client.get(f"/api/games/{gid}").get_json()
    # By hand: Bob 20 + 7 × 5 = 55; Cy 50 + 5 + 7 × 5 = 90. The bowl: one buy at 2 pennies, and
    # 4 cards caught in round 1 and 2 in each of the 7 others, 18: 20 pennies, all Ann's.
    assert {p["name"]: p["points"] for p in game["players"]} == {"Ann": 0, "Bob": 55, "Cy": 90}
    assert (game["finished"], game["bowl"], game["ruleset_version"]) == (True, 20, 1)
    assert (game["winners"], game["payouts"]) == (["Ann"], {"Ann": 20})
    cy = client.get("/api/players").get_json()
    printed = pdf_text(client, gid, tmp_path)
    assert "Ten Pennies, our way" in printed

    jokers_worth_25(client)
    assert client.get(f"/api/rulesets/{OUR_WAY}").get_json()["version"] == 2
    assert client.get(f"/api/games/{gid}").get_json() == game
    assert client.get("/api/players").get_json() == cy
    assert pdf_text(client, gid, tmp_path) == printed

    newer = play(client)
    new_game = client.get(f"/api/games/{newer}").get_json()
    assert new_game["ruleset_version"] == 2
    assert {p["name"]: p["points"] for p in new_game["players"]} == {"Ann": 0, "Bob": 55, "Cy": 65}  # JKR: 25

    dump = tmp_path / "export.json"
    assert client.application.test_cli_runner().invoke(args=["export", str(dump)]).exit_code == 0
    carried = json.loads(dump.read_text())["rulesets"]
    assert [(r["id"], r["version"], r["document"]["points"]["JKR"]) for r in carried] == [
        (OUR_WAY, 1, 50),
        (OUR_WAY, 2, 25),
    ]
    empty = make_app(tmp_path / "empty")
    result = empty.test_cli_runner().invoke(args=["import", str(dump)])
    assert result.exit_code == 0, result.output
    elsewhere = empty.test_client()
    assert elsewhere.get(f"/api/games/{gid}").get_json() == game
    assert elsewhere.get(f"/api/games/{newer}").get_json() == new_game
    assert elsewhere.get(f"/api/rulesets/{OUR_WAY}").get_json()["house"] is True


def test_a_rematch_keeps_the_game_s_version_unless_the_scorekeeper_picks_the_newer(tmp_path):
    client = make_app(tmp_path).test_client()
    make_our_way(client)
    kept, newer = play(client), play(client)
    jokers_worth_25(client)
    page = client.get(f"/games/{newer}").text
    assert "Rematch under the changed rules (version 2)" in page and "played under version 1" in page
    token = csrf_token(page)
    again = client.post(f"/games/{kept}/rematch", data={"csrf_token": token})
    changed_rules = client.post(f"/games/{newer}/rematch", data={"csrf_token": token, "newer_rules": "1"})
    versions = [
        client.get(answer.headers["Location"].replace("/games/", "/api/games/")).get_json()["ruleset_version"]
        for answer in (again, changed_rules)
    ]
    assert versions == [1, 2]
