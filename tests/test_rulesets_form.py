"""House rules made in the app (issue 42), through the form as a browser sends it: every field the
page draws is posted back, a change typed into one of them; a refusal of the ruleset reader comes
back in the reader's words on the field it names, with what was typed kept and nothing saved."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from support import make_app
from test_ruleset_fields import WRONG_KIND, WRONG_VALUE
from werkzeug.datastructures import MultiDict

from scorekeeper.rulesets.words import field_label as field_label_of


class FormFields(HTMLParser):
    """The fields a browser would send from the page's form: inputs (boxes only when ticked), the
    selected option of each select. Buttons are sent only when pressed (``action``)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self.numbers: list[str] = []  # the fields typed as numbers
        self.select: str | None = None
        self.first_option: str | None = None
        self.selected = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and "name" in a:
            if a.get("type") == "checkbox" and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "")))
            if a.get("inputmode") == "numeric":
                self.numbers.append(a["name"])
        elif tag == "select":
            self.select, self.first_option, self.selected = a["name"], None, False
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
            if "selected" in a:
                self.fields.append((self.select, a.get("value", "")))
                self.selected = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select:
            if not self.selected and self.first_option is not None:
                self.fields.append((self.select, self.first_option))
            self.select = None


def fields_of(html: str) -> list[tuple[str, str]]:
    parser = FormFields()
    parser.feed(html)
    return parser.fields


def number_fields(html: str) -> list[str]:
    parser = FormFields()
    parser.feed(html)
    return parser.numbers


def changed(fields: list[tuple[str, str]], **values: str) -> list[tuple[str, str]]:
    """The fields with some values typed over (names with dots and brackets: pass a dict)."""
    return [(name, values.get(name, value)) for name, value in fields]


def post(client, url: str, fields: list[tuple[str, str]], action: str):
    return client.post(url, data=MultiDict([*fields, ("action", action)]))


@pytest.fixture
def client(tmp_path: Path):
    return make_app(tmp_path).test_client()


def test_ten_pennies_our_way_made_through_the_form(client):
    """8 rounds (RULES.md's 7, then 3 sets of 3), aces never wild, 2 pennies a buy."""
    url = "/rulesets/new?from=ten-pennies"
    fields = fields_of(client.get(url).text)
    added = post(client, url, fields, "add")
    assert added.status_code == 200 and "Round 8" in added.text
    fields = fields_of(added.text)
    round_8 = {"rounds[8].contract.melds": "3", "rounds[8].contract.size": "3", "rounds[8].wild_limit": "1"}
    fields = changed(fields, **round_8, **{"buys.pennies": "2", "name": "Ten Pennies, our way"})
    fields = [(n, v) for n, v in fields if not (n.endswith(".wilds") and v == "A")]  # aces never wild
    previewed = post(client, url, fields, "preview")
    assert previewed.status_code == 200 and "3 sets of 3" in previewed.text and "Not saved" not in previewed.text
    saved = post(client, url, fields_of(previewed.text), "save")
    assert saved.status_code == 302 and saved.headers["Location"] == "/rulesets/ten-pennies-our-way"
    ruleset = client.get("/api/rulesets/ten-pennies-our-way").get_json()
    assert (ruleset["version"], ruleset["house"], len(ruleset["rounds"])) == (1, True, 8)
    assert ruleset["rounds"][7]["contract"] == "3 sets of 3"
    assert all("A" not in r["wilds"] for r in ruleset["rounds"])
    assert ruleset["document"]["buys"]["pennies"] == 2
    card = client.get("/rulesets/ten-pennies-our-way").text
    assert "Saved: Ten Pennies, our way, version 1" in card and "Lowest total after 8 rounds wins." in card


def test_liverpool_made_our_way_through_the_form(client):
    """A Liverpool house: 3 buys a deal at most, runs round the ace, an eighth deal of 1 run of 13
    dealt 14 (Carioca's last deal, docs/rules.md): each a field of the form, each on the card."""
    url = "/rulesets/new?from=liverpool-rummy"
    fields = fields_of(client.get(url).text)
    assert ("rounds[2].contract.sets", "1") in fields and ("rounds[5].cards_dealt", "12") in fields
    assert ("run_min", "4") in fields and ("runs_wrap", "on") not in fields  # runs stop at the ace
    assert ("lay_offs_only", "on") in fields  # after going down, lay-offs only
    added = post(client, url, fields, "add")
    round_8 = {"rounds[8].contract.sets": "0", "rounds[8].contract.runs": "1", "rounds[8].contract.run_size": "13"}
    typed = {**round_8, "rounds[8].cards_dealt": "14", "buys.most_per_round": "3", "name": "Liverpool, our way"}
    fields = [*changed(fields_of(added.text), **typed), ("runs_wrap", "on")]
    saved = post(client, url, fields, "save")
    assert saved.status_code == 302, saved.text
    document = client.get("/api/rulesets/liverpool-our-way").get_json()["document"]
    assert document["rounds"][7] == {
        "contract": {"sets": 0, "runs": 1, "run_size": 13},
        "cards_dealt": 14,
        "wilds": ["JKR"],
    }
    assert document["buys"]["most_per_round"] == 3 and document["run_min"] == 4
    assert "runs_wrap" not in document  # runs go round the ace: the default, kept by leaving it out
    card = client.get("/rulesets/liverpool-our-way").text
    assert "1 run of 13" in card and "At most 3 buys a player a round." in card
    assert "a run may go over the top (Q K A 2)" in card


def test_shanghai_made_our_way_through_the_form(client):
    """A Shanghai house (docs/rules.md's other readings): as many wilds as naturals, 3 buys in every
    deal, and Continental's jokers kept apart; each a box or a round's field, each on the card."""
    url = "/rulesets/new?from=shanghai-rummy"
    fields = fields_of(client.get(url).text)
    assert ("wilds_fewer_than_naturals", "on") in fields and ("no_touching_wilds", "on") not in fields
    assert ("rounds[9].most_buys", "4") in fields and ("rounds[8].most_buys", "") in fields
    assert ("out_at_once_bonus", "25") in fields  # going out blind
    typed = {"rounds[9].most_buys": "", "rounds[10].most_buys": "", "name": "Shanghai, our way"}
    kept = [(n, v) for n, v in changed(fields, **typed) if n != "wilds_fewer_than_naturals"]
    saved = post(client, url, [*kept, ("wilds_at_most_naturals", "on"), ("no_touching_wilds", "on")], "save")
    assert saved.status_code == 302, saved.text
    document = client.get("/api/rulesets/shanghai-our-way").get_json()["document"]
    assert "wilds_fewer_than_naturals" not in document and document["wilds_at_most_naturals"] is True
    assert document["no_touching_wilds"] is True
    assert not any("most_buys" in row for row in document["rounds"])
    card = client.get("/rulesets/shanghai-our-way").text
    assert "At most 3 buys a player a round." in card and "No meld holds more wild cards than natural ones." in card
    assert "No two wild cards side by side in a run." in card


def test_a_round_s_buy_limit_is_refused_on_its_round_in_the_reader_s_words(client):
    url = "/rulesets/new?from=shanghai-rummy"
    fields = changed(fields_of(client.get(url).text), **{"rounds[2].most_buys": "21"})
    refused = post(client, url, fields, "save")
    assert refused.status_code == 400 and "must be at most 20, not 21" in refused.text
    assert 'name="rounds[2].most_buys" value="21"' in refused.text


def test_a_contract_given_both_ways_is_refused_on_its_round(client):
    url = "/rulesets/new?from=liverpool-rummy"
    fields = changed(fields_of(client.get(url).text), **{"rounds[2].contract.melds": "2"})
    refused = post(client, url, fields, "save")
    assert refused.status_code == 400 and "is either melds and size, or sets and runs: not both" in refused.text
    assert 'name="rounds[2].contract.melds" value="2"' in refused.text


def test_rounds_move_up_and_down_and_go(client):
    url = "/rulesets/new?from=ten-pennies"
    fields = fields_of(client.get(url).text)
    moved = fields_of(post(client, url, fields, "down-1").text)
    assert dict(moved)["rounds[1].contract.size"] == "4" and dict(moved)["rounds[2].contract.size"] == "3"
    up = fields_of(post(client, url, moved, "up-2").text)
    assert dict(up)["rounds[1].contract.size"] == "3"
    removed = fields_of(post(client, url, up, "remove-1").text)
    assert sum(1 for name, _ in removed if name.endswith(".present")) == 6
    assert dict(removed)["rounds[1].contract.size"] == "4"


def test_a_shipped_ruleset_is_never_overwritten(client):
    edit = client.get("/rulesets/ten-pennies/edit")
    assert edit.status_code == 302 and edit.headers["Location"] == "/rulesets/new?from=ten-pennies"
    assert client.get("/api/rulesets/ten-pennies").get_json()["house"] is False


def test_a_name_taken_by_another_ruleset_is_refused(client):
    url = "/rulesets/new?from=ten-pennies"
    fields = changed(fields_of(client.get(url).text), name="Ten Card Rummy")
    refused = post(client, url, fields, "save")
    assert refused.status_code == 400
    assert "&#39;Ten Card Rummy&#39; is the name of another ruleset: pick another" in refused.text


# The reader's refusals of a value typed into a field, as tests/test_ruleset_fields.py words them: the
# cases a form can send (letters or a minus typed into a number's field; not a nested table, not a
# true/false), then the bounds and the blanks.
TYPED: list[tuple[tuple[str | int, ...], Any, str]] = [
    (path, value, said)
    for name, path, value, said in WRONG_KIND
    if name == "ten-pennies" and isinstance(value, (str, int)) and not isinstance(value, bool)
    if not str(value).isdecimal()  # digits typed are a number: the file's "2" (text) cannot be typed
    if path[0] in ("players", "cards_dealt", "points", "money", "decks", "buys", "later_melds", "rounds")
    if len(path) > 1 or path[0] == "cards_dealt"
    if not (len(path) == 2 and path[0] == "decks" and path[1] == "table")
    if "board_minimum" not in path
]
TYPED += [
    (path, value, said)
    for path, value, said in WRONG_VALUE
    if path[0] == "rounds" and isinstance(value, dict) and path[-1] == "contract"
]
TYPED += [
    (("cards_dealt",), "99", "cards_dealt: must be at most 30, not 99"),
    (("buys", "cards"), "0", "buys.cards: a buy takes at least 1 card (the discard)"),
    (("players", "max"), "13", "players.max: must be at most 12, not 13"),
    (("points", "JKR"), "5000", "points.JKR: must be at most 1000, not 5000"),
    (("rounds", 1, "contract", "melds"), "", "rounds[2].contract.melds: is missing"),
    (("cards_dealt",), "", "cards_dealt: is missing"),
]


def form_name(path: tuple) -> str:
    """The form's field for a path of the reader's (rounds are numbered from 1 on the page)."""
    name = ""
    for step in path:
        name += f"[{step + 1}]" if isinstance(step, int) else (f".{step}" if name else step)
    return name


def typed_value(value) -> list[tuple[str, str]]:
    """What typing this value sends: a contract row's two boxes, or the value as text."""
    return list(value.items()) if isinstance(value, dict) else [("", str(value))]


@pytest.mark.parametrize("path, value, said", TYPED, ids=[form_name(c[0]) for c in TYPED])
def test_every_value_the_reader_refuses_is_refused_by_the_form_in_its_words(client, path, value, said):
    url = "/rulesets/new?from=ten-pennies"
    fields = fields_of(client.get(url).text)
    name = form_name(path)
    typed = {f"{name}.{key}" if key else name: text for key, text in typed_value(value)}
    field, _, problem = said.partition(": ")
    refused = post(client, url, changed(fields, **{k: str(v) for k, v in typed.items()}), "save")
    assert refused.status_code == 400
    page = refused.text
    assert "Not saved" in page
    escaped = problem.replace("'", "&#39;")
    assert escaped in page, (field, problem)
    for key, text in typed.items():  # what was typed is on the page again
        assert f'name="{key}" value="{text}"' in page
    assert not [r for r in client.get("/api/rulesets").get_json() if r["house"]]  # nothing saved


@pytest.mark.parametrize(
    "source", ["ten-pennies", "ten-card-rummy", "pennies-from-heaven", "liverpool-rummy", "shanghai-rummy"]
)
@pytest.mark.parametrize(
    "typed, problem", [("ten", "must be a whole number, not 'ten'"), ("-1", "must not be negative, not -1")]
)
def test_every_number_field_of_the_form_refuses_what_the_reader_refuses(client, source, typed, problem):
    """Each number the page asks for, typed wrong, one at a time: refused by the reader in its words,
    naming that field (a row of the decks table is named as the reader names it, "decks.table")."""
    url = f"/rulesets/new?from={source}"
    page = client.get(url).text
    fields = fields_of(page)
    wrong = []
    ticked = {name for name, _ in fields}
    for name in number_fields(page):
        section = name.partition(".")[0]
        if section in ("buys", "later_melds") and section not in ticked:
            continue  # a section left unticked is not played: what is typed in it is not read
        typing = {name: typed}
        if name.endswith("].decks"):  # a row of the decks table says for how many players first
            typing[name.replace("].decks", "].max_players")] = "8"
        refused = post(client, url, changed(fields, **typing), "save")
        reader_field = "decks.table" if name.startswith("decks.table[") else name
        words = f"{field_label_of(reader_field)}</a>: {problem}".replace("'", "&#39;")
        if (
            refused.status_code != 400
            or words not in refused.text
            or f'name="{name}" value="{typed}"' not in refused.text
        ):
            wrong.append(name)
    assert not wrong
    assert len(number_fields(page)) >= 20
    assert not [r for r in client.get("/api/rulesets").get_json() if r["house"]]


def test_a_new_ruleset_saved_twice_is_saved_once(client):
    """A second tap on Save (or Back, then Save) makes no second ruleset and says nothing went wrong."""
    url = "/rulesets/new?from=ten-pennies"
    fields = changed(fields_of(client.get(url).text), name="Ten Pennies, our way")
    first, second = post(client, url, fields, "save"), post(client, url, fields, "save")
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"] == "/rulesets/ten-pennies-our-way"
    house = [r for r in client.get("/api/rulesets").get_json() if r["house"]]
    assert [(r["id"], r["version"]) for r in house] == [("ten-pennies-our-way", 1)]
    changed_rules = changed(fields, **{"points.JKR": "25"})
    refused = post(client, url, changed_rules, "save")  # the same name, other rules: another ruleset's name
    assert refused.status_code == 400 and "is the name of another ruleset" in refused.text


def test_the_exact_cut_bonus_is_a_field_of_the_editor_bounded_and_on_the_card(client):
    """Liverpool's −50 for the cutter who cuts the exact deal (docs/rules.md [W]): typed over, kept,
    on the house card; over 1,000 refused on its field with what was typed kept, nothing saved."""
    url = "/rulesets/new?from=liverpool-rummy"
    fields = fields_of(client.get(url).text)
    assert ("exact_cut_bonus", "50") in fields
    refused = post(client, url, changed(fields, exact_cut_bonus="5000", name="Cut big"), "save")
    assert refused.status_code == 400 and "must be at most 1000, not 5000" in refused.text
    assert ("exact_cut_bonus", "5000") in fields_of(refused.text)
    assert client.get("/api/rulesets/cut-big").status_code == 404
    saved = post(client, url, changed(fields, exact_cut_bonus="25", name="Cut small"), "save")
    assert saved.status_code == 302, saved.text
    assert client.get("/api/rulesets/cut-small").get_json()["document"]["exact_cut_bonus"] == 25
    assert "−25 for the cutter that round." in client.get("/rulesets/cut-small").text


def test_one_joker_fewer_than_the_players_is_set_in_the_editor_and_counted_at_the_table(client):
    """Contract Rummy as the "Dummy Rummy" sheet plays it (docs/rules.md [D]): "The number of jokers
    used should be one fewer than the number of players". Set in the editor, said on the card, and a
    round of three players holding three jokers is refused, of four players accepted."""
    url = "/rulesets/new?from=liverpool-rummy"
    typed = {"decks.jokers_fewer_than_players": "1", "name": "Dummy Rummy"}
    refused = post(client, url, changed(fields_of(client.get(url).text), **typed), "save")
    assert refused.status_code == 400 and "must be 0 or blank when the jokers go by the players" in refused.text
    saved = post(client, url, changed(fields_of(refused.text), **{"decks.jokers_per_deck": ""}), "save")
    assert saved.status_code == 302, saved.text
    assert "Jokers: one fewer than the players." in client.get("/rulesets/dummy-rummy").text
    jokers = {"Bob": "JKR JKR", "Cy": "JKR"}
    for players, status in ((["Ann", "Bob", "Cy"], 400), (["Ann", "Bob", "Cy", "Di"], 201)):
        game = {"ruleset": "dummy-rummy", "players": players, "first_dealer": "Ann"}
        gid = client.post("/api/games", json=game).get_json()["id"]
        assert f"2 decks ({len(players) - 1} jokers)" in client.get(f"/games/{gid}").text
        caught = dict.fromkeys(players[1:], "") | jokers
        answer = client.post(f"/api/games/{gid}/rounds", json={"went_out": "Ann", "caught": caught})
        assert answer.status_code == status
        if status == 400:
            assert answer.get_json()["error"] == "round 1: the hands hold 3 × JKR, but this table plays with only 2"


def test_a_house_s_own_meld_words_are_fields_of_the_editor_bounded_and_on_the_card(client):
    """Carioca's tríos and escalas come to the editor from its file; a house that says "pierna" for a set
    (one Continental family's word) types it, and the card and the game say the contracts in it. A word of
    21 letters is refused on its field with what was typed kept, nothing saved."""
    url = "/rulesets/new?from=carioca"
    fields = fields_of(client.get(url).text)
    assert ("meld_words.set", "trío") in fields and ("meld_words.run", "escala") in fields
    refused = post(client, url, changed(fields, **{"meld_words.set": "p" * 21, "name": "Piernas"}), "save")
    assert refused.status_code == 400 and "must be at most 20 characters, not 21" in refused.text
    assert ("meld_words.set", "p" * 21) in fields_of(refused.text)
    assert client.get("/api/rulesets/piernas").status_code == 404
    typed = {"meld_words.set": "pierna", "meld_words.sets": "", "name": "Piernas"}
    saved = post(client, url, changed(fields, **typed), "save")
    assert saved.status_code == 302, saved.text
    assert client.get("/api/rulesets/piernas").get_json()["document"]["meld_words"]["sets"] == "piernas"
    assert "1 pierna of 3 and 1 escala of 4" in client.get("/rulesets/piernas").text
