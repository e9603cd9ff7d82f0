"""The results card (issue 44): every figure on it is the game's or the night's own (read from the
card's source, the same lines the picture draws and the text says), the picture is 1080 px wide and
small enough for a chat, and the text is the same card."""

from __future__ import annotations

import html
import io
from pathlib import Path

import pytest
from PIL import Image
from support import make_app

from scorekeeper.rules.ledger import signed_cents

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
MOST_BYTES = 150 * 1024


@pytest.fixture
def client(tmp_path: Path):
    return make_app(tmp_path).test_client()


def play(client, night: int | None, went_out: str, caught: dict[str, str], buys: tuple[str, ...] = ()) -> int:
    body = {"ruleset": "ten-pennies", "players": PLAYERS, **({"night": night} if night else {})}
    gid = client.post("/api/games", json=body).get_json()["id"]
    for name in buys:
        client.post(f"/api/games/{gid}/buys", json={"player": name})
    for _ in range(7):
        assert client.post(f"/api/games/{gid}/rounds", json={"went_out": went_out, "caught": caught}).status_code == 201
    return gid


def card_lines(client, url: str) -> list[str]:
    return client.get(url).text.splitlines()


def test_the_game_card_says_the_game_s_own_figures(client):
    gid = play(client, None, "Ann", {"Bob": "K 7", "Cy": "5 5 5", "Di": ""}, buys=("Bob",))
    game = client.get(f"/api/games/{gid}").get_json()
    text = card_lines(client, f"/games/{gid}/card.txt")
    assert text[0] == f"Game {gid} · Ten Pennies"
    assert text[1] == f"Ann and Di win the bowl: {game['bowl']} pennies ($0.36)"
    rows = [line.split("  ") for line in text[3:7]]
    by_name = {p["name"]: p for p in game["players"]}
    for _place, name, points, money in rows:
        assert int(points) == by_name[name]["points"]
        assert money == signed_cents(game["money_cents"][name])
    assert [row[0] for row in rows] == ["1.", "1.", "3.", "3."]
    assert sum(game["money_cents"].values()) == 0  # every cent on the card is someone's


def test_the_night_card_says_the_night_s_own_nets_and_payments(client):
    night = client.post("/api/nights", json={"money": "paper"}).get_json()["id"]
    play(client, night, "Ann", {"Bob": "K 7", "Cy": "5 5 5", "Di": ""})
    play(client, night, "Bob", {"Ann": "K 7", "Cy": "5 5 5", "Di": ""})
    report = client.get(f"/api/nights/{night}").get_json()
    text = card_lines(client, f"/nights/{night}/card.txt")
    nets = {name: signed_cents(cents) for name, cents in report["nets"].items()}
    rows = {line.split("  ")[1]: line.split("  ")[2] for line in text if line[:1].isdigit()}
    assert rows == nets
    owed = [
        f"{p['from']} pays {p['to']} ${p['cents'] / 100:.2f}."
        for p in report["still_owed"]
        if not (p["from_bowl"] or p["to_bowl"])
    ]
    assert owed and all(line in text for line in owed)


def test_the_picture_is_wide_and_small(client):
    gid = play(client, None, "Ann", {"Bob": "K 7", "Cy": "5 5 5", "Di": ""})
    for url in (f"/games/{gid}/card.png", "/nights/1/card.png"):
        answer = client.get(url)
        if url.startswith("/nights"):
            assert answer.status_code == 404  # no such night
            continue
        assert answer.mimetype == "image/png" and len(answer.data) <= MOST_BYTES
        assert Image.open(io.BytesIO(answer.data)).size[0] == 1080


def test_the_game_page_shows_the_card_and_its_text_at_the_end(client):
    gid = play(client, None, "Ann", {"Bob": "K 7", "Cy": "5 5 5", "Di": ""})
    page = client.get(f"/games/{gid}").text
    assert f'src="/games/{gid}/card.png"' in page
    assert client.get(f"/games/{gid}/card.txt").text.strip() in html.unescape(page)
    assert "Copy the text" in page


def test_a_corrected_game_s_card_says_the_corrected_result(client):
    """The card is made once per recorded state of the game: a correction after the end (Ann did not
    go out in round 7, Bob did) is on the card, the picture's text and the game page at once."""
    gid = play(client, None, "Ann", {"Bob": "K 7", "Cy": "5 5 5", "Di": ""})
    assert card_lines(client, f"/games/{gid}/card.txt")[1].startswith("Ann and Di win")
    client.get(f"/games/{gid}")  # the card made for the page too, before the correction
    corrected = {"went_out": "Bob", "caught": {"Ann": "K K K", "Cy": "5 5 5", "Di": ""}}
    assert client.put(f"/api/games/{gid}/rounds/7", json=corrected).status_code == 200
    after = card_lines(client, f"/games/{gid}/card.txt")
    assert after[1].startswith("Di wins the bowl"), after[1]
    assert after[1] in html.unescape(client.get(f"/games/{gid}").text)
