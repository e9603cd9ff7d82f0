"""A table's own ruleset file in instance/rulesets/ is picked up and runs a whole game."""

import sqlite3
from pathlib import Path

import pytest
from support import TEN_PENNIES_TOML, make_app

# Three rounds, two pennies a caught card, 3 buys a game: a quick family variant.
HOUSE = (
    TEN_PENNIES_TOML.replace('id = "ten-pennies"', 'id = "quick-pennies"')
    .replace('name = "Ten Pennies"', 'name = "Quick Pennies"')
    .replace("pennies_per_card = 1", "pennies_per_card = 2")
    .replace("stack = 10 ", "stack = 3 ")
)
HOUSE = HOUSE[: HOUSE.index("[[rounds]]")] + "\n".join(
    f'[[rounds]]\ncontract = {{ melds = 1, size = {size} }}\nwilds = ["2"]\nwild_limit = 1\n' for size in (3, 4, 5)
)


@pytest.fixture
def house_client(tmp_path: Path):
    rules_dir = tmp_path / "rulesets"
    rules_dir.mkdir()
    (rules_dir / "quick.toml").write_text(HOUSE)
    return make_app(tmp_path).test_client()


def test_house_ruleset_plays_a_whole_game(house_client):
    listing = {r["id"]: r for r in house_client.get("/api/rulesets").get_json()}
    assert [r["contract"] for r in listing["quick-pennies"]["rounds"]] == ["1 set of 3", "1 set of 4", "1 set of 5"]
    assert "Quick Pennies" in house_client.get("/games/new").text

    game = house_client.post(
        "/api/games", json={"ruleset": "quick-pennies", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann"}
    ).get_json()
    gid = game["id"]
    for _ in range(3):
        assert house_client.post(f"/api/games/{gid}/buys", json={"player": "Cy"}).status_code == 201
    refused = house_client.post(f"/api/games/{gid}/buys", json={"player": "Cy"})
    assert refused.status_code == 400 and "all 3 buys" in refused.get_json()["error"]
    rounds = [("Ann", {"Bob": "K K", "Cy": "5"}), ("Bob", {"Ann": "5", "Cy": "JKR"}), ("Cy", {"Ann": "", "Bob": "2"})]
    for went_out, caught in rounds:
        state = house_client.post(f"/api/games/{gid}/rounds", json={"went_out": went_out, "caught": caught}).get_json()
    assert state["finished"]
    assert {p["name"]: p["points"] for p in state["players"]} == {"Ann": 5, "Bob": 40, "Cy": 55}
    assert state["bowl"] == 3 + 2 * 6  # 3 buys and 6 caught cards at 2 pennies
    assert state["winners"] == ["Ann"] and state["payouts"] == {"Ann": 15}
    checked = house_client.post(
        "/api/melds/check", json={"ruleset": "quick-pennies", "round": 3, "stage": "first-down", "melds": ["K K K K 2"]}
    ).get_json()
    assert checked["valid"]


def start_night_game(client, ruleset: str = "quick-pennies") -> tuple[int, int]:
    night = client.post("/api/nights", json={}).get_json()["id"]
    body = {"ruleset": ruleset, "players": ["Ann", "Bob", "Cy"], "night": night}
    gid = client.post("/api/games", json=body).get_json()["id"]
    client.post(f"/api/games/{gid}/rounds", json={"went_out": "Ann", "caught": {"Bob": "K K", "Cy": "5"}})
    return night, gid


def test_a_game_keeps_the_rules_it_started_with_when_the_file_is_edited(tmp_path):
    """Issue 42: edit a house file and restart: the game begun under it is scored as before (2
    pennies a card: 3 cards caught, 6 pennies); a new game plays the file as it is now, a new version."""
    rules_dir = tmp_path / "rulesets"
    rules_dir.mkdir()
    (rules_dir / "quick.toml").write_text(HOUSE)
    client = make_app(tmp_path).test_client()
    _, gid = start_night_game(client)
    before = client.get(f"/api/games/{gid}").get_json()
    assert (before["bowl"], before["ruleset_version"]) == (6, 1)
    (rules_dir / "quick.toml").write_text(HOUSE.replace("pennies_per_card = 2", "pennies_per_card = 5"))
    client = make_app(tmp_path).test_client()
    after = client.get(f"/api/games/{gid}").get_json()
    assert after == before
    assert client.get("/api/rulesets/quick-pennies").get_json()["version"] == 2
    _, new = start_night_game(client)
    newer = client.get(f"/api/games/{new}").get_json()
    assert (newer["bowl"], newer["ruleset_version"]) == (15, 2)


def test_a_game_whose_ruleset_file_is_gone_plays_on_under_its_kept_rules(tmp_path):
    rules_dir = tmp_path / "rulesets"
    rules_dir.mkdir()
    (rules_dir / "quick.toml").write_text(HOUSE)
    client = make_app(tmp_path).test_client()
    night, gid = start_night_game(client)
    (rules_dir / "quick.toml").unlink()
    client = make_app(tmp_path).test_client()  # the app starts all the same
    assert client.get(f"/games/{gid}").status_code == 200
    assert client.get(f"/nights/{night}").status_code == 200
    state = client.get(f"/api/games/{gid}").get_json()
    assert (state["ruleset"], state["bowl"]) == ("quick-pennies", 6)
    assert "quick-pennies" not in {r["id"] for r in client.get("/api/rulesets").get_json()}


def test_a_game_from_before_kept_rules_whose_file_is_gone_says_which_file_to_put_back(tmp_path):
    """A game stored before versions were kept, whose file went before the upgrade: nothing to
    play it by, so the page says which file to put back (nothing is lost)."""
    rules_dir = tmp_path / "rulesets"
    rules_dir.mkdir()
    (rules_dir / "quick.toml").write_text(HOUSE)
    client = make_app(tmp_path).test_client()
    night = client.post("/api/nights", json={}).get_json()["id"]
    body = {"ruleset": "quick-pennies", "players": ["Ann", "Bob", "Cy"], "night": night}
    gid = client.post("/api/games", json=body).get_json()["id"]
    client.post(f"/api/games/{gid}/rounds", json={"went_out": "Ann", "caught": {"Bob": "K K", "Cy": "5"}})
    with sqlite3.connect(tmp_path / "scorekeeper.sqlite") as db:
        db.execute("UPDATE games SET ruleset_version = NULL")
        db.execute("DELETE FROM ruleset_versions WHERE ruleset = 'quick-pennies'")
    (rules_dir / "quick.toml").unlink()
    client = make_app(tmp_path).test_client()  # the app starts all the same
    page = client.get(f"/games/{gid}")
    assert page.status_code == 409
    assert "house ruleset &#39;quick-pennies&#39;, whose file is gone" in page.text
    assert "id = &#34;quick-pennies&#34; back into instance/rulesets/" in page.text
    assert "quick-pennies" in client.get(f"/api/games/{gid}").get_json()["error"]
    assert client.get(f"/nights/{night}").status_code == 409
    exported = client.get(f"/games/{gid}/export.json")
    assert exported.status_code == 200 and exported.get_json()["games"][0]["ruleset"] == "quick-pennies"
    rows = client.get(f"/games/{gid}/export.csv").text.splitlines()
    assert rows[1:] == [
        f"{gid},quick-pennies,1,Bob,0,K K,,,,,,",
        f"{gid},quick-pennies,1,Cy,0,5,,,,,,",
        f"{gid},quick-pennies,1,Ann,1,,,,,,,",
    ]
