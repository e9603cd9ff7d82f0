"""Pages a validator accepts (issue 28, from the Nu HTML Checker's findings): no id used twice on a page
(a buy form per player repeated csrf_token and version), no aria-label on a plain span, no meta element
in the body."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from support import Api


def pages(api: Api, client) -> dict[str, str]:
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    night = api.call("POST", "/api/nights", {"name": "Paper", "money": "paper"}, 201)["id"]
    token = re.search(r"/live/([\w-]+)", client.get(f"/games/{gid}").text).group(1)
    pfh = api.call("POST", "/api/games", {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"],
                                          "first_dealer": "Ann"}, 201)["id"]  # fmt: skip
    paths = [f"/games/{gid}", f"/games/{gid}/history", f"/games/{gid}/rounds/new", f"/games/{gid}/rounds/1",
             f"/games/{gid}/table", f"/live/{token}", f"/nights/{night}", f"/games/{pfh}/rounds/new", "/",
             "/nights", "/players", "/melds", "/games/new"]  # fmt: skip
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
