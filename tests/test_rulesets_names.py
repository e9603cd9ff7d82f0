"""House ruleset names that cannot pass for others (issue 58): "house ruleset names are compared ignoring
case only: look-alikes of 'Ten Pennies' (non-breaking space, Cyrillic letters, full-width, zero-width,
a right-to-left override, a control character) and NFD/NFC twins are saved." Through the form."""

from __future__ import annotations

import html
import unicodedata

import pytest
from support import make_app
from test_rulesets_form import changed, fields_of, post

URL = "/rulesets/new?from=ten-card-rummy"


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def refusal(client, name: str) -> str:
    refused = post(client, URL, changed(fields_of(client.get(URL).text), name=name), "save")
    assert refused.status_code == 400, name
    return html.unescape(refused.text)


@pytest.mark.parametrize(
    "name",
    [
        "Ten\u00a0Pennies",  # a non-breaking space
        "T\u0435n P\u0435nni\u0435s",  # Cyrillic е
        "\uff34\uff45\uff4e \uff30\uff45\uff4e\uff4e\uff49\uff45\uff53",  # full-width letters
        "TEN PENNIES",
        "Ten  Pennies",  # two spaces
        "Ten Pennie\u0455",  # a Cyrillic ѕ
    ],
)
def test_a_look_alike_of_a_ruleset_name_is_refused_naming_it(client, name):
    said = refusal(client, name)
    assert "the name of another ruleset: pick another" in said and "'Ten Pennies'" in said


@pytest.mark.parametrize(
    "name, position, code",
    [
        ("Ten\u200bPennies", 4, "U+200B"),  # zero-width space
        ("\u202eseinneP neT", 1, "U+202E"),  # right-to-left override
        ("Ten\x07Pennies", 4, "U+0007"),  # a control character
    ],
)
def test_an_invisible_character_in_a_ruleset_name_is_refused_in_words(client, name, position, code):
    said = refusal(client, name)
    assert f"has an invisible or control character at position {position} ({code}): type the name again" in said


def test_nfd_and_nfc_twins_are_one_name(client):
    first = post(client, URL, changed(fields_of(client.get(URL).text), name="Caf\u00e9 rules"), "save")
    assert first.status_code == 302
    said = refusal(client, unicodedata.normalize("NFD", "Caf\u00e9 rules"))
    assert "the name of another ruleset: pick another" in said
