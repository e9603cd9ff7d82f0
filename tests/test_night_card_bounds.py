"""A night's results picture is bounded (issue 58): "150 games give a 7,744 px image that takes 2-4.5 s
and grows the server by ~100 MB over four renders". The card names the last 12 games (saying how many
there were) and ranks 16 players at most; the night page still lists everything."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from support import Api, make_app, ruleset_text, tie_game

from scorekeeper.reads.night_report import CARD_GAMES


def one_round_rules(folder: Path) -> None:
    """Ten Pennies cut to its first round: a game that ends with one round."""
    text = ruleset_text("ten-pennies").replace('id = "ten-pennies"', 'id = "one-round"')
    text = text.replace('name = "Ten Pennies"', 'name = "One round"')
    first, _, rest = text.partition("[[rounds]]")
    round_one = rest.split("[[rounds]]")[0]
    (folder / "rulesets").mkdir(parents=True)
    (folder / "rulesets" / "one-round.toml").write_text(first + "[[rounds]]" + round_one)


def test_a_night_of_many_games_draws_a_card_of_bounded_size(tmp_path: Path):
    one_round_rules(tmp_path)
    client = make_app(tmp_path).test_client()
    night = client.post("/api/nights", json={"name": "Marathon"}).get_json()["id"]
    heights = {}
    for number in range(40):
        body = {"ruleset": "one-round", "players": ["Ann", "Bob", f"P{number % 20}"], "night": night}
        game = client.post("/api/games", json=body).get_json()
        assert "id" in game, game
        caught = {"Bob": "K", f"P{number % 20}": "5"}
        answer = client.post(f"/api/games/{game['id']}/rounds", json={"went_out": "Ann", "caught": caught})
        assert answer.status_code == 201
        if number + 1 in (20, 40):
            heights[number + 1] = Image.open(io.BytesIO(client.get(f"/nights/{night}/card.png").data)).height
    text = client.get(f"/nights/{night}/card.txt").text
    assert f"The last {CARD_GAMES} of 40 games:" in text and "Game 28:" not in text and "Game 29:" in text
    assert "and 6 more players" in text  # 22 players: 16 ranked
    assert heights[20] == heights[40]  # 20 games or 40 (all 22 players seen by then): the same picture size


def test_players_up_the_same_share_a_place_on_the_night_card(tmp_path: Path):
    """Issue 60: "the night's results card ranks a tie 1 and 2 ('Ann is up the most' at +$0.90 each)"."""
    client = make_app(tmp_path).test_client()
    night = client.post("/api/nights", json={}).get_json()["id"]
    tie_game(Api(client), night)  # Ann and Bob tie at 0 and split the bowl; Cy and Di are caught apart
    lines = client.get(f"/nights/{night}/card.txt").text.splitlines()
    assert lines[1] == "Ann and Bob are up the most: +$0.10 each"  # 21 pennies: 10 each, 1 stays
    assert [line.split("  ")[0] for line in lines[3:7]] == ["1.", "1.", "3.", "4."]
