"""The rulesets' pages: the list, the rule card as a page and as a one-page PDF (a game's kept version
too), and the links that lead there from the new-game form and the game page."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support import make_app

SHIPPED = ["ten-pennies", "ten-pennies-pcio", "ten-card-rummy", "pennies-from-heaven"]


@pytest.fixture
def client(tmp_path: Path):
    return make_app(tmp_path).test_client()


def pages_of(pdf: bytes, folder: Path) -> int:
    path = folder / "card.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_each_shipped_rule_card_prints_on_one_page(client, tmp_path, ruleset_id):
    for paper in ("letter", "a4"):
        answer = client.get(f"/rulesets/{ruleset_id}/card.pdf?paper={paper}")
        assert answer.status_code == 200 and answer.mimetype == "application/pdf"
        assert pages_of(answer.data, tmp_path) == 1


def test_the_list_names_every_ruleset_with_its_card(client):
    page = client.get("/rulesets").text
    for ruleset_id in SHIPPED:
        assert f'href="/rulesets/{ruleset_id}"' in page and f'href="/rulesets/new?from={ruleset_id}"' in page


def test_an_unknown_ruleset_or_version_is_not_found(client):
    assert client.get("/rulesets/poker").status_code == 404
    assert client.get("/rulesets/ten-pennies?version=99").status_code == 404
    assert client.get("/rulesets/ten-pennies?version=x").status_code == 404
    assert client.get("/api/rulesets/poker").status_code == 404


def test_the_new_game_form_and_the_game_page_lead_to_the_rules(client):
    assert 'href="/rulesets"' in client.get("/games/new").text
    assert '<option selected value="ten-card-rummy">' in client.get("/games/new?ruleset=ten-card-rummy").text
    gid = client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}).get_json()["id"]
    assert 'href="/rulesets/ten-pennies?version=1"' in client.get(f"/games/{gid}").text
