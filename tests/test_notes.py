"""Notes on a game and on a night (who hosted, which house rule was in force): at most 500
characters, escaped, shown on the game and night pages, the live and table views and the PDFs;
a bad note is refused with what was typed kept; an edit made meanwhile elsewhere is never
overwritten unseen; a note is no entry (a round form opened before it still saves)."""

import io
import json
import re

import pytest
from pypdf import PdfReader
from support import csrf_token, found, make_app

from scorekeeper.reads.notes import NoteError, clean_note, one_line

KEPT = [  # as typed → as kept
    ("Ann hosted", "Ann hosted"),
    ("  Ann hosted  ", "Ann hosted"),
    ("Rules:\n  jokers wild", "Rules:\n  jokers wild"),  # an indented line keeps its indent
    ("Ann hosted\r\nJokers wild\r\n", "Ann hosted\nJokers wild"),
    ("Ann hosted\rJokers wild", "Ann hosted\nJokers wild"),
    ("\n\nAnn hosted\n\n\n\nJokers wild\n\n", "Ann hosted\n\nJokers wild"),
    ("Buy\tlimit 3", "Buy limit 3"),
    ("Zoe\u0308's place", "Zoë's place"),  # one way to write each letter
    ('<script>x</script> & O\'Brien "Q"', '<script>x</script> & O\'Brien "Q"'),  # kept; escaped on output
    ("", ""),
    ("\n \n", ""),
    ("x" * 500, "x" * 500),
]

REFUSED = [  # as typed → what the message says
    ("x" * 501, "a note is at most 500 characters; this one has 501: shorten it by 1"),
    ("é" * 600, "this one has 600: shorten it by 100"),
    ("Ann\u202ehosted", "invisible or control character at position 4 (U+202E)"),
    ("ok\nAnn\u200bhosted", "invisible or control character at position 7 (U+200B)"),
    ("Ann\u2028hosted", "invisible or control character at position 4 (U+2028)"),  # a line separator
    ("Ann\u2029hosted", "invisible or control character at position 4 (U+2029)"),  # a paragraph separator
    ("bell\x07", "position 5 (U+0007)"),
    ("nul\x00", "position 4 (U+0000)"),
]


@pytest.mark.parametrize("typed, kept", KEPT)
def test_a_note_is_kept_as_typed_tidied(typed, kept):
    assert clean_note(typed) == kept


@pytest.mark.parametrize("typed, message", REFUSED)
def test_a_note_that_cannot_be_kept_is_refused_naming_why(typed, message):
    with pytest.raises(NoteError, match=re.escape(message)):
        clean_note(typed)


def test_a_printed_note_is_one_line():
    assert one_line("Ann hosted\n\nJokers wild") == "Ann hosted / Jokers wild"


# --- the pages -------------------------------------------------------------------------------------


def note_form(client, url):
    """The page's notes form: its CSRF token and the edits count it was drawn with."""
    page = client.get(url).text
    edits = re.search(r'name="edits" type="hidden" value="(\d+)"', page)
    assert edits, "no notes form on the page"
    return {"csrf_token": csrf_token(page), "edits": edits.group(1)}


def save_note(client, url, notes, form=None):
    return client.post(f"{url}/notes", data={**(form or note_form(client, url)), "notes": notes})


def test_a_game_note_shows_escaped_on_every_page_of_the_game(client, api):
    night = api.call("POST", "/api/nights", {"name": "Fri"}, 201)["id"]
    game = api.new_game(night=night)
    url = f"/games/{game['id']}"
    typed = "Ann hosted\n<b>Jokers</b> wild & O'Brien's rule"
    assert save_note(client, url, typed).status_code == 302
    night_note = "At Zoë's <i>place</i>"
    assert save_note(client, f"/nights/{night}", night_note).status_code == 302
    escaped = "Ann hosted\n&lt;b&gt;Jokers&lt;/b&gt; wild &amp; O&#39;Brien&#39;s rule"
    share = found(r'href="http://localhost(/live/[^"]+)"', client.get(url).text)
    for page in (url, f"{url}/table", share, f"{share}/fragment", f"{url}/table/fragment"):
        text = client.get(page).text
        assert escaped in text, page
        assert "<b>Jokers</b>" not in text, page
    for page in (share, f"{url}/table"):
        assert "At Zoë&#39;s &lt;i&gt;place&lt;/i&gt;" in client.get(page).text, page
    night_page = client.get(f"/nights/{night}").text
    assert "At Zoë&#39;s &lt;i&gt;place&lt;/i&gt;" in night_page and escaped in night_page
    assert api.call("GET", f"{'/api' + url}/notes") == {"notes": typed, "edits": 1}
    assert api.call("GET", f"/api/nights/{night}")["notes"] == night_note
    assert api.call("GET", f"/api/nights/{night}")["games"][0]["notes"] == typed


def test_a_bad_note_is_refused_with_what_was_typed_kept(client, api):
    game = api.new_game()
    url = f"/games/{game['id']}"
    typed = "Ann's rule: " + "x" * 495
    answer = save_note(client, url, typed)
    assert answer.status_code == 400
    assert "a note is at most 500 characters; this one has 507: shorten it by 7" in answer.text
    assert re.search(f">\\s*{re.escape(typed)}</textarea>", answer.text.replace("&#39;", "'"))
    assert api.call("GET", f"/api{url}/notes") == {"notes": "", "edits": 0}


def test_an_edit_made_meanwhile_elsewhere_is_not_overwritten_unseen(app, client, api):
    game = api.new_game()
    url = f"/games/{game['id']}"
    mine = note_form(client, url)  # drawn before the other device saves
    other = app.test_client()
    assert save_note(other, url, "Bob hosted").status_code == 302
    answer = save_note(client, url, "Ann hosted", mine)
    assert answer.status_code == 409
    assert "the note was changed on another device" in answer.text
    assert '<p class="note-text">Bob hosted</p>' in answer.text  # the note as it is now
    assert re.search(r">\s*Ann hosted</textarea>", answer.text)  # and what was typed, kept
    assert api.call("GET", f"/api{url}/notes") == {"notes": "Bob hosted", "edits": 1}
    again = note_form(client, url)
    assert save_note(client, url, "Ann hosted", again).status_code == 302
    assert api.call("GET", f"/api{url}/notes") == {"notes": "Ann hosted", "edits": 2}


def test_a_double_tap_saves_the_note_once(client, api):
    game = api.new_game()
    url = f"/games/{game['id']}"
    form = note_form(client, url)
    assert save_note(client, url, "Ann hosted", form).status_code == 302
    assert save_note(client, url, "Ann hosted", form).status_code == 302  # the same form again
    assert api.call("GET", f"/api{url}/notes") == {"notes": "Ann hosted", "edits": 1}


def test_a_note_moves_the_live_views_but_not_the_game(client, api):
    """The live and table views fetch the note when it changes; a round form opened before the
    note was written still saves (a note is no entry)."""
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    game = api.new_game(night=night)
    url = f"/games/{game['id']}"
    share = found(r'href="http://localhost(/live/[^"]+)"', client.get(url).text)
    round_page = client.get(f"{url}/rounds/new").text
    polls = [(f"{share}/state", share), (f"{url}/table/state", f"{url}/table")]
    before = [client.get(state).get_json()["version"] for state, _ in polls]
    assert save_note(client, url, "Ann hosted").status_code == 302
    middle = [client.get(state).get_json()["version"] for state, _ in polls]
    assert save_note(client, f"/nights/{night}", "Fri at Ann's").status_code == 302
    after = [client.get(state).get_json()["version"] for state, _ in polls]
    assert all(b < m < a for b, m, a in zip(before, middle, after, strict=True))
    for (_, page), version in zip(polls, after, strict=True):
        assert f'data-version="{version}"' in client.get(page).text  # the page carries what it shows
    hidden = r'name="(csrf_token|version|entry_key|round_number)" type="hidden" value="([^"]*)"'
    fields = dict(re.findall(hidden, round_page))
    caught = {"caught-1": "K", "caught-2": "", "caught-3": "5"}
    answer = client.post(f"{url}/rounds/new", data={**fields, **caught, "went_out": "Ann"})
    assert answer.status_code == 302, answer.text
    assert len(api.call("GET", f"/api{url}")["rounds"]) == 1
    assert api.call("GET", f"/api{url}")["version"] == 1


def test_a_locked_night_keeps_its_notes_from_another_device(app, client, api):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    game = api.new_game(night=night, pin="4321")["id"]
    mallory = app.test_client()
    token = csrf_token(mallory.get("/games/new").text)
    for url in (f"/games/{game}", f"/nights/{night}"):
        answer = mallory.post(f"{url}/notes", data={"csrf_token": token, "edits": "0", "notes": "Mallory wins"})
        assert answer.status_code == 302 and answer.headers["Location"].endswith(f"{url}/unlock")
        assert mallory.put(f"/api{url}/notes", json={"notes": "Mallory wins"}).status_code == 401
        assert api.call("GET", f"/api{url}/notes") == {"notes": "", "edits": 0}
        assert "Add a note" not in mallory.get(url).text  # nothing to edit without the PIN


# --- the API -------------------------------------------------------------------------------------


def test_the_api_reads_and_writes_notes(api):
    game = api.new_game()["id"]
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    for url in (f"/api/games/{game}/notes", f"/api/nights/{night}/notes"):
        assert api.call("PUT", url, {"notes": "Ann hosted\r\n"}) == {"notes": "Ann hosted", "edits": 1}
        assert api.call("PUT", url, {"notes": "Bob hosted", "edits": 1}) == {"notes": "Bob hosted", "edits": 2}
        stale = api.call("PUT", url, {"notes": "Cy hosted", "edits": 1}, 409)
        assert "note was edited since it was read" in stale["error"]
        too_long = api.call("PUT", url, {"notes": "x" * 501}, 400)
        assert too_long["error"] == "'notes': a note is at most 500 characters; this one has 501: shorten it by 1"
        assert "'notes'" in api.call("PUT", url, {"notes": 5}, 400)["error"]
        assert api.call("GET", url) == {"notes": "Bob hosted", "edits": 2}
    assert api.client.put("/api/games/99/notes", json={"notes": ""}).status_code == 404
    assert api.client.get("/api/nights/99/notes").status_code == 404


def test_notes_travel_in_an_export(tmp_path, api, runner):
    night = api.call("POST", "/api/nights", {"name": "Fri"}, 201)["id"]
    game = api.new_game(night=night)["id"]
    api.call("PUT", f"/api/games/{game}/notes", {"notes": "Ann hosted\nJokers wild"})
    api.call("PUT", f"/api/nights/{night}/notes", {"notes": "At Zoë's"})
    path = tmp_path / "export.json"
    assert runner.invoke(args=["export", str(path)]).exit_code == 0
    data = json.loads(path.read_text())
    assert data["nights"][0]["notes"] == "At Zoë's" and data["games"][0]["notes"] == "Ann hosted\nJokers wild"
    fresh = make_app(tmp_path / "fresh")
    assert fresh.test_cli_runner().invoke(args=["import", str(path)]).exit_code == 0
    client = fresh.test_client()
    assert client.get(f"/api/games/{game}/notes").get_json()["notes"] == "Ann hosted\nJokers wild"
    assert client.get(f"/api/nights/{night}/notes").get_json()["notes"] == "At Zoë's"
    for item in data["nights"] + data["games"]:  # an export made before notes existed
        del item["notes"]
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data))
    other = make_app(tmp_path / "other")
    assert other.test_cli_runner().invoke(args=["import", str(older)]).exit_code == 0
    assert other.test_client().get(f"/api/games/{game}/notes").get_json() == {"notes": "", "edits": 0}


# --- the PDFs ------------------------------------------------------------------------------------


def pdf_text(data):
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages)


def test_notes_print_on_the_scorepad_and_the_summary(client, api):
    night = api.call("POST", "/api/nights", {"name": "Fri"}, 201)["id"]
    game = api.new_game(night=night)["id"]
    api.round(game, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    api.call("PUT", f"/api/games/{game}/notes", {"notes": "Ann hosted\nJokers <wild>"})
    api.call("PUT", f"/api/nights/{night}/notes", {"notes": "At Zoë's & Co"})
    scorepad = pdf_text(client.get(f"/games/{game}/scorepad.pdf").data)
    assert "Note: Ann hosted / Jokers <wild>" in scorepad
    summary = pdf_text(client.get(f"/nights/{night}/summary.pdf").data)
    assert "Note: At Zoë's & Co" in summary and "Ann hosted / Jokers <wild>" in summary


def test_a_game_without_notes_prints_none(client, api):
    game = api.new_game()["id"]
    assert "Note:" not in pdf_text(client.get(f"/games/{game}/scorepad.pdf").data)
