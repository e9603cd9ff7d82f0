"""Printed scorepads, blank sheets and summaries: the text in the PDF, for every ruleset and 2, 4 and 8 players."""

import io
import re
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from support import GAME, HttpClient, free_port, pdf_tables, start_server, table_row

from scorekeeper.printing.render import static_only_fetcher

NAMES = ["Ann", "Bob", "Cy", "D'Arcy", "Ed", "Flo", "Gus", "Hildegard"]
CASES = [
    ("ten-pennies", 2),
    ("ten-pennies", 4),
    ("ten-pennies", 8),
    ("ten-pennies-pcio", 2),
    ("ten-pennies-pcio", 4),
    ("ten-card-rummy", 4),
    ("ten-card-rummy", 8),
    ("pennies-from-heaven", 2),
    ("pennies-from-heaven", 4),
    ("pennies-from-heaven", 8),
]


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def squash(text: str) -> str:
    return "".join(text.split())


def play_whole_game(api, ruleset, players):
    game = api.call("POST", "/api/games", {"ruleset": ruleset, "players": players, "first_dealer": players[0]}, 201)
    gid, rounds = game["id"], len(api.call("GET", "/api/rulesets")[0]["rounds"])
    rules = {r["id"]: r for r in api.call("GET", "/api/rulesets")}[ruleset]
    for number in range(1, len(rules["rounds"]) + 1):
        if ruleset == "pennies-from-heaven":
            sides = [{"players": [p], "melded_points": 150 + 10 * i, "hands": {p: ""}} for i, p in enumerate(players)]
            state = api.call("POST", f"/api/games/{gid}/rounds", {"went_out": None, "sides": sides}, 201)
        else:
            out = players[number % len(players)]
            caught = {p: " ".join(["5"] * (i % 3)) for i, p in enumerate(players) if p != out}
            state = api.round(gid, out, caught)
    assert state["finished"] and rounds
    return state, rules


@pytest.mark.parametrize("ruleset, count", CASES)
def test_game_scorepad_pdf(client, api, ruleset, count):
    players = NAMES[:count]
    state, rules = play_whole_game(api, ruleset, players)
    response = client.get(f"/games/{state['id']}/scorepad.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    flat = squash(text)
    tables = pdf_tables(response.data)
    # The scorepad's columns, in seat order (a long name may wrap inside its narrow column at 8 players).
    assert [squash(cell) for cell in tables[0][0][3:]] == [squash(name) for name in players]
    points = {player["name"]: str(player["points"]) for player in state["players"]}
    assert table_row(tables, "Total")[3:] == [points[name] for name in players]
    for rnd in rules["rounds"]:
        expected = rnd["contract"] or f"on the board: {rnd['board_minimum']}"
        assert squash(expected) in flat
    winners = state["winners"]
    said = " and ".join(winners) if len(winners) <= 2 else f"{', '.join(winners[:-1])} and {winners[-1]}"
    assert squash(f"Winner{'s' if len(winners) > 1 else ''}: {said}") in flat
    assert "Score progression" in text and f"Game {state['id']}" in text
    if rules["pennies_per_card"]:
        assert f"The bowl held {state['bowl']} pennies" in text


@pytest.mark.parametrize("ruleset, count", CASES)
def test_blank_scorepad_pdf(client, ruleset, count):
    players = NAMES[:count]
    response = client.get(f"/scorepad/blank.pdf?ruleset={ruleset}&players={','.join(players)}&paper=a4")
    text = pdf_text(response.data)
    flat = squash(text)
    for name in players:
        assert squash(name) in flat
    assert "Card points" in text and "Total" in text
    listing = {r["id"]: r for r in client.get("/api/rulesets").get_json()}[ruleset]
    for rnd in listing["rounds"]:
        assert squash(rnd["contract"] or str(rnd["board_minimum"])) in flat
    if ruleset == "ten-pennies":
        assert "Buys used (of 10)" in text
        # RULES.md's card points, as the key prints them: 3–9 = 5, 10 J Q K = 10, A and 2 = 20, joker 50.
        assert [["3 4 5 6 7 8 9", "10 J Q K", "A 2", "JKR"], ["5", "10", "20", "50"]] in pdf_tables(response.data)


def test_scorepad_pdf_cells_worked_by_hand(client, api):
    """support.GAME with one buy by Bob, points from RULES.md's card table (a penny a card)."""
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    for out, caught in GAME[:-1]:
        api.round(gid, out, caught)
    playing = pdf_tables(client.get(f"/games/{gid}/scorepad.pdf").data)
    assert table_row(playing, "Buys left")[3:] == ["10", "9", "10", "10"]  # while the game is played
    api.round(gid, *GAME[-1])
    tables = pdf_tables(client.get(f"/games/{gid}/scorepad.pdf").data)
    assert not any(row[0] == "Buys left" for table in tables for row in table)  # over: no buys to make
    # Round 1: Ann went out; Bob K 7 7 2 = 40 points, 4 cards, and his buy; Cy JKR A 3 = 75; Di 10 J Q = 30.
    # Each cell: the points, then the pennies, buys and (last) the running total.
    assert table_row(tables, "1")[3:] == ["—\n0", "40\n4 p · 1 buy · 40", "75\n3 p · 75", "30\n3 p · 30"]
    # Ann 5 + 40 + 0 + 10 + 5; Bob 40 + 20 + 50 + 10 + 5; Cy 75 + 0 + 5 + 10 + 10; Di 30 + 20 + 15 + 10 + 0 + 40.
    assert table_row(tables, "Total")[3:] == ["60", "125", "100", "115"]
    # Cards caught (Bob: 8, and 1 buy): Ann 1 + 2 + 1 + 1, Cy 3 + 1 + 1 + 2, Di 3 + 2 + 3 + 1 + 2.
    assert table_row(tables, "Pennies paid (buys + cards)")[3:] == ["5", "9", "7", "11"]
    # Ann has the lowest total and takes the bowl of 5 + 9 + 7 + 11 = 32: +27 for her, the others lose what they paid.
    net = ["+27\n$0.27", "−9\n−$0.09", "−7\n−$0.07", "−11\n−$0.11"]  # one minus sign, as in the money
    assert table_row(tables, "Net: pennies, money")[3:] == net
    text = squash(pdf_text(client.get(f"/games/{gid}/scorepad.pdf").data))
    assert squash("The bowl held 32 pennies ($0.32): Ann takes 32.") in text
    assert len(tables) == 1  # one sheet, one table


def test_blank_scorepad_without_names_has_name_boxes(client):
    text = pdf_text(client.get("/scorepad/blank.pdf?ruleset=ten-pennies&seats=6").data)
    assert "seat 1" in text and "seat 6" in text and "seat 7" not in text
    assert client.get("/scorepad/blank.pdf?ruleset=ten-pennies&seats=12").status_code == 400
    assert client.get("/scorepad/blank.pdf?ruleset=poker").status_code == 400
    assert client.get("/scorepad/blank.pdf?ruleset=ten-pennies&players=Ann,ann").status_code == 400


def test_markup_and_long_names_print_as_text(client, api):
    players = ["<b>Bold</b> & <script>x</script>", "W" * 40, "Cy"]
    state, _ = play_whole_game(api, "ten-pennies", players)
    text = pdf_text(client.get(f"/games/{state['id']}/scorepad.pdf").data)
    assert squash("<b>Bold</b> & <script>x</script>") in squash(text)
    assert "W" * 40 in squash(text)


def test_paper_sizes(client, api):
    state, _ = play_whole_game(api, "ten-pennies", NAMES[:4])
    letter = PdfReader(io.BytesIO(client.get(f"/games/{state['id']}/scorepad.pdf?paper=letter").data))
    a4 = PdfReader(io.BytesIO(client.get(f"/games/{state['id']}/scorepad.pdf?paper=a4").data))
    assert round(float(letter.pages[0].mediabox.width)) == 612  # 8.5 in, portrait for 4 players
    assert round(float(a4.pages[0].mediabox.width)) == 595  # 210 mm
    wide = play_whole_game(api, "ten-pennies", NAMES[:5])[0]
    landscape = PdfReader(io.BytesIO(client.get(f"/games/{wide['id']}/scorepad.pdf?paper=a4").data))
    assert round(float(landscape.pages[0].mediabox.width)) == 842  # 297 mm: landscape past 4 players
    assert client.get(f"/games/{state['id']}/scorepad.pdf?paper=legal").status_code == 400


def test_unknown_game_pdf_is_404(client):
    assert client.get("/games/99/scorepad.pdf").status_code == 404


def test_fetcher_serves_only_static_files(app):
    fetcher = static_only_fetcher(app.static_folder)
    assert b"@page" in fetcher.fetch("https://scorekeeper.invalid/static/css/print.css").read()
    for url in [
        "file:///etc/passwd",
        "https://example.com/static/css/print.css",
        "https://scorekeeper.invalid/static/../pyproject.toml",
        "https://scorekeeper.invalid/static/nothing.css",
    ]:
        with pytest.raises(ValueError):
            fetcher.fetch(url)


def test_night_summary_pdf(client, api):
    night = api.call("POST", "/api/nights", {"name": "Zoë's party", "money": "paper"}, 201)["id"]
    results = []
    for count in (4, 3):
        players = NAMES[:count]
        game = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": players, "night": night}, 201)
        for _ in range(7):
            state = api.round(game["id"], players[0], {p: "5 " * i for i, p in enumerate(players) if i})
        results.append(state)
    report = api.call("GET", f"/api/nights/{night}")
    data = client.get(f"/nights/{night}/summary.pdf").data
    text, tables = pdf_text(data), pdf_tables(data)
    assert "Night 1 · Zoë's party" in text and "Money for the night" in text and "Still owed" in text
    for state in results:
        assert f"Game {state['id']} · Ten Pennies" in text
    money = [table for table in tables if table[0] == ["Player", "Net", "Paid", "Received"]]
    assert len(money) == 1

    def dollars(cents):  # worked here, not by the code under test: one minus sign, a plus for a gain
        sign = "+" if cents > 0 else "−" if cents < 0 else ""
        return f"{sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"

    assert {row[0]: row[1] for row in money[0][1:]} == {name: dollars(net) for name, net in report["nets"].items()}
    for payment in report["still_owed"]:
        assert f"{payment['from']} pays {payment['to']} {dollars(payment['cents']).lstrip('+')}" in text
    assert client.get("/nights/99/summary.pdf").status_code == 404


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("ruleset, count", CASES)
def test_every_scorepad_fits_one_sheet(client, api, ruleset, count, paper):
    """The issue's sheet: 8 players × 7 rounds with the chart, 11 rounds of Ten Card Rummy, on one page,
    filled and blank, Letter and A4; the filled one with the longest note a game can have."""
    state, _ = play_whole_game(api, ruleset, NAMES[:count])
    note = ("Hosted by Zoë; jokers wild in every round;\n" * 12)[:500]
    api.call("PUT", f"/api/games/{state['id']}/notes", {"notes": note})
    filled = PdfReader(io.BytesIO(client.get(f"/games/{state['id']}/scorepad.pdf?paper={paper}").data))
    assert len(filled.pages) == 1
    assert "Score progression" in filled.pages[0].extract_text()
    blank = client.get(f"/scorepad/blank.pdf?ruleset={ruleset}&players={','.join(NAMES[:count])}&paper={paper}")
    assert len(PdfReader(io.BytesIO(blank.data)).pages) == 1


def small_print_over_the_rules(data: bytes) -> list[str]:
    """The characters of a sheet that cross one of its table's vertical rules: text run over its cell."""
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        rules = [edge for edge in page.edges if edge["orientation"] == "v"]
        return [
            char["text"]
            for char in page.chars
            for rule in rules
            if char["x0"] + 0.2 < rule["x0"] < char["x1"] - 0.2 and rule["top"] <= char["top"] <= rule["bottom"]
        ]


@pytest.mark.parametrize("count", [4, 5, 8])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_penalty_buys_print_inside_their_cells_and_out_is_marked(client, api, count, paper):
    """Issue 40: Ten Card Rummy's penalty notes ran over their cells, and a player who went out with a
    penalty (points, so no "—") was not marked out. Round 4: Bob buys 5 times (2 over the 3 allowed:
    +200) and goes out; Cy buys 4 times (+100) and is caught with 5 5."""
    players = NAMES[:count] if count > 4 else ["Ann", "Bob", "Cy", "Di"]
    gid = api.new_game(players, ruleset="ten-card-rummy")["id"]
    for _ in range(3):
        api.round(gid, players[0], {name: "K" for name in players[1:]})
    for name, buys in (("Bob", 5), ("Cy", 4)):
        for _ in range(buys):
            api.buy(gid, name)
    api.round(gid, "Bob", {name: "5 5" if name == "Cy" else "" for name in players if name != "Bob"})
    data = client.get(f"/games/{gid}/scorepad.pdf?paper={paper}").data
    assert small_print_over_the_rules(data) == []
    bob, cy = (table_row(pdf_tables(data), "4")[3 + players.index(name)] for name in ("Bob", "Cy"))
    assert bob.startswith("200\nout") and "5 buys" in bob and "+200 pen." in bob and bob.endswith("230")
    assert cy.startswith("110\n") and "4 buys" in cy and "+100 pen." in cy and cy.endswith("140")


def test_the_small_print_widths_are_the_fonts():
    """scorepad.EM_WIDTHS, which packs a printed cell's lines, holds DejaVu Sans's own advance widths."""
    from fontTools.ttLib import TTFont

    from scorekeeper.reads.scorepad import EM_WIDTHS, LETTER_EM

    font = TTFont("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    cmap, advance, em = font.getBestCmap(), font["hmtx"].metrics, font["head"].unitsPerEm
    for char, width in EM_WIDTHS.items():
        assert round(advance[cmap[ord(char)]][0] / em, 3) == width, char
    letters = {advance[cmap[ord(char)]][0] / em for char in "outbyspen"}
    assert max(letters) <= LETTER_EM + 0.0005


def test_the_server_never_loads_weasyprint_its_pdf_worker_does(tmp_path):
    """Issue 45: a PDF's layout in the server's own process held the threads answering the table (the
    game page's p90 138 ms while four scorepads rendered). WeasyPrint is most of the app's import
    time: a server starts without it, and the first PDF starts a worker process that renders it
    (measured in a fresh interpreter: other tests have started the worker)."""
    import subprocess
    import sys

    script = f"""
import os, sys
from scorekeeper import create_app
from scorekeeper.printing.render import WORKER
app = create_app({{"DATABASE": {str(tmp_path / "db.sqlite")!r}, "SECRET_KEY": "x", "TESTING": True}})
client = app.test_client()
assert client.get("/healthz").status_code == 200
print("weasyprint" in sys.modules)
client.post("/api/games", json={{"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}})
assert client.get("/games/1/scorepad.pdf").data.startswith(b"%PDF")
print("weasyprint" in sys.modules, WORKER.pid not in (None, os.getpid()))
"""
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert loaded.split() == ["False", "False", "True"]


def test_a_pdf_worker_that_died_is_replaced(client, api):
    """A worker killed (out of memory, by hand) costs no PDF: the next is rendered by a new one."""
    import os
    import signal

    from scorekeeper.printing.render import WORKER

    gid = api.new_game(["Ann", "Bob"])["id"]
    assert client.get(f"/games/{gid}/scorepad.pdf").data.startswith(b"%PDF")
    first = WORKER.pid
    assert first is not None and first != os.getpid()
    os.kill(first, signal.SIGKILL)
    answer = client.get(f"/games/{gid}/scorepad.pdf")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert WORKER.pid not in (None, first)


def living_children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` and that are not yet dead (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.process
def test_the_pdf_worker_ends_with_the_server_that_started_it(tmp_path):
    """A server stopped by a kill (a host's script, a crash) ran none of its own clean-up: the PDF
    worker it started must not live on, holding its memory, until the machine restarts."""
    import time

    port = free_port()
    server = start_server(tmp_path, port)
    try:
        status, pdf = HttpClient(port, timeout=60).call(
            "GET", "/scorepad/blank.pdf?ruleset=ten-pennies&seats=4&paper=letter"
        )
        assert status == 200 and pdf.startswith(b"%PDF")
        workers = living_children(server.pid)
        assert workers, "the PDF was rendered by no process of the server's"
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)], "a PDF worker outlived its server"


def test_the_ten_card_rummy_scorepad_legend_is_one_whole_sentence(client, api):
    """Issue 60: "the Ten Card Rummy scorepad legend is a broken sentence ('below, and the running
    total')": a game of no pennies and no books has only the running total below the points."""
    gid = api.call("POST", "/api/games", {"ruleset": "ten-card-rummy", "players": ["Ann", "Bob", "Cy", "Di"]}, 201)[
        "id"
    ]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    text = " ".join(pdf_text(client.get(f"/games/{gid}/scorepad.pdf").data).split())
    assert "Each cell: points this round in bold; below, the running total (last)." in text


def test_every_pdf_writes_its_day_the_same_way(client, api):
    """Issue 60: "dates differently in the scorepad and the night PDFs". A game's scorepad, its night's
    summary and the season's records each head with the day as a person writes it: Thursday 3 December 2026."""
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    game = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": NAMES[:4], "night": night}, 201)
    api.round(game["id"], NAMES[0], {NAMES[1]: "K", NAMES[2]: "", NAMES[3]: ""})
    today = date.today()
    written = f"{today:%A} {today.day} {today:%B %Y}"
    for url in (f"/games/{game['id']}/scorepad.pdf", f"/nights/{night}/summary.pdf", "/players/season.pdf"):
        text = pdf_text(client.get(url).data)
        assert written in text and today.isoformat() not in text, (url, text[:300])


def test_the_nights_money_table_is_kept_on_one_page_where_it_fits(client, api):
    """Issue 60: "the night summary PDF splits its money table across pages (one row alone on page 2)".
    Four games of eight players push it to a page's foot: it moves whole to the next page."""
    players = NAMES[:8]
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    for _ in range(4):
        body = {"ruleset": "ten-pennies", "players": players, "night": night, "first_dealer": players[0]}
        gid = api.call("POST", "/api/games", body, 201)["id"]
        for number in range(7):
            out = players[number]
            api.round(gid, out, {p: "5 " * (i % 3) for i, p in enumerate(players) if p != out})
    pages = [
        page.extract_text() for page in PdfReader(io.BytesIO(client.get(f"/nights/{night}/summary.pdf").data)).pages
    ]
    money_rows = {
        number for number, text in enumerate(pages) for line in text.splitlines() if re.match(r"^\S+ [−+]?\$\d", line)
    }
    header = {number for number, text in enumerate(pages) if "Money for the night" in text}
    assert len(pages) > 1 and money_rows == header, (money_rows, header)
