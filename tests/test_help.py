"""Help in the app (issue 43): the user's guide is a page of the app, with its pictures, served by the
app itself (no internet needed), and the other docs pages beside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import make_app


@pytest.fixture
def client(tmp_path: Path):
    return make_app(tmp_path).test_client()


def test_the_guide_is_a_page_of_the_app_with_its_pictures(client):
    page = client.get("/help/")
    assert page.status_code == 200
    assert '<h2 id="start-a-night">Start a night</h2>' in page.text
    pictures = re.findall(r'<img alt="[^"]*" src="([^"]+)"', page.text)
    assert len(pictures) >= 10
    for src in pictures:
        assert not src.startswith("http")  # every picture from the app itself
        answer = client.get(f"/help/{src}")
        assert answer.status_code == 200 and answer.mimetype == "image/png", src


def test_a_link_between_docs_pages_stays_in_the_app(client):
    guide = client.get("/help/").text
    assert 'href="rules"' not in guide or client.get("/help/rules").status_code == 200
    rules = client.get("/help/rules")
    assert rules.status_code == 200 and "Ten Card Rummy" in rules.text
    assert 'href="guide#the-rule-card-and-house-rules"' in rules.text


def test_every_page_links_to_help_and_an_unknown_page_is_not_found(client):
    assert 'href="/help/"' in client.get("/").text
    assert client.get("/help/secret").status_code == 404
    assert client.get("/help/images/../../pyproject.toml").status_code == 404


def test_every_link_in_the_in_app_help_resolves(client):
    """Issue 57: /help/benchmarks linked ../BENCHMARKS.md, a 404 in the app. Every link of every help
    page, followed inside the app (addresses outside it are the reader's, not ours to fetch)."""
    import re

    from scorekeeper.help import PAGES

    broken = []
    for page in PAGES:
        text = client.get(f"/help/{page}").text
        for link in sorted(set(re.findall(r'href="([^"#]+)(?:#[^"]*)?"', text))):
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            target = link if link.startswith("/") else f"/help/{link}"
            if client.get(target).status_code != 200:
                broken.append(f"/help/{page} -> {link}")
    assert broken == []
