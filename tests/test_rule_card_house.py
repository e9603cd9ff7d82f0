"""A rule card that says only what is played (issue 58): "the form pre-fills the base ruleset's
one-sentence summary, so 27 of 36 variants' cards (page and PDF) still say '7 rounds ... a 10-penny buy
stack' after those were changed; a round with both 'wilds <= 3' and 'of a kind <= 2' shows only the
first, while play (and 'can I go down?') enforce both; a finished game links the newest rules, not the
version it was played under." Through the form and the pages, as a browser sends and reads them."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

from pypdf import PdfReader
from support import PLAYERS, make_app, words
from test_rulesets_form import changed, fields_of, post

NEW = "/rulesets/new?from=ten-pennies"


def said(page: str) -> str:
    return " ".join(html.unescape(words(page)).split())


def three_rounds_five_buys(client) -> str:
    """Ten Pennies cut to its first three rounds, a stack of 5 buys, both wild limits in round 2."""
    fields = [
        (name, value) for name, value in fields_of(client.get(NEW).text) if not re.match(r"rounds\[[4-7]\]", name)
    ]
    typed = {
        "name": "Three and done",
        "buys.stack": "5",
        "rounds[2].wild_limit": "3",
        "rounds[2].wild_limit_per_kind": "2",
    }
    saved = post(client, NEW, changed(fields, **typed), "save")
    assert saved.status_code == 302, said(saved.text)[:400]
    return "three-and-done"


def test_the_form_starts_with_no_summary_of_another_ruleset(tmp_path: Path):
    client = make_app(tmp_path).test_client()
    assert dict(fields_of(client.get(NEW).text))["summary"] == ""


def test_a_house_card_says_what_the_house_plays_page_and_pdf(tmp_path: Path):
    client = make_app(tmp_path).test_client()
    ruleset = three_rounds_five_buys(client)
    page = said(client.get(f"/rulesets/{ruleset}").text)
    pdf = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(client.get(f"/rulesets/{ruleset}/card.pdf").data)).pages
    )
    for text in (page, " ".join(pdf.split())):
        assert "3 rounds from “2 sets of 3” to " in text and "5 buys each, a penny a buy" in text
        assert "7 rounds" not in text and "10-penny" not in text
        assert "at most 3 wilds per set and at most 2 of each kind of wild per set" in text


def test_the_house_s_own_words_are_shown_as_theirs(tmp_path: Path):
    client = make_app(tmp_path).test_client()
    fields = changed(fields_of(client.get(NEW).text), name="Gran's way", summary="As Gran taught us.")
    assert post(client, NEW, fields, "save").status_code == 302
    page = said(client.get("/rulesets/gran-s-way").text)
    assert "In the house's own words: “As Gran taught us.”" in page and "7 rounds from" in page


def test_a_finished_game_links_the_rules_it_was_played_under(tmp_path: Path):
    from support import GAME

    client = make_app(tmp_path).test_client()
    ruleset = three_rounds_five_buys(client)
    game = client.post("/api/games", json={"ruleset": ruleset, "players": PLAYERS}).get_json()["id"]
    for went_out, caught in GAME[:3]:
        assert (
            client.post(f"/api/games/{game}/rounds", json={"went_out": went_out, "caught": caught}).status_code == 201
        )
    edit = f"/rulesets/{ruleset}/edit"
    assert (
        post(client, edit, changed(fields_of(client.get(edit).text), **{"buys.pennies": "2"}), "save").status_code
        == 302
    )
    page = client.get(f"/games/{game}").text
    assert f'href="/rulesets/{ruleset}?version=1">The rules it was played under</a>' in page
