"""Heard right (issue 60), read from the accessibility tree Chromium gives a screen reader (Playwright's
ARIA snapshot), not from the HTML: the "Edit 1"…"Edit 7" links named with what they show; cards read
"king of diamonds", never "K D" or "K black diamond suit"; the scorepad's cells say whose and what they
are; the card pad's line that the next card goes to marked current; a locked game said in words."""

from __future__ import annotations

import re

from browser_support import PHONE, settled, shot
from playwright.sync_api import expect

NAMES = ["Ann", "Bob", "Cy", "Di"]


def new_game(page, base_url, **extra) -> int:
    body = {"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann", **extra}
    return page.request.post(f"{base_url}/api/games", data=body).json()["id"]


def tree(page, selector: str = "main") -> str:
    return page.locator(selector).first.aria_snapshot()


def test_what_a_screen_reader_hears_on_the_game_page_and_its_history(browser, base_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = new_game(page, base_url)
    caught = {"Bob": "KD 7H", "Cy": "JKR", "Di": ""}
    page.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": caught})
    page.goto(f"{base_url}/games/{gid}")
    settled(page)
    heard = tree(page)
    assert re.search(r'link "Edit 1[^"]*"', heard), heard  # says what it shows (WCAG 2.5.3)
    assert "Edit round" not in heard
    assert re.search(r"cell \"[^\"]*Bob[^\"]*\"|Bob", heard)
    scorepad = tree(page, ".scorepad")
    assert "points this round" in scorepad and "in all" in scorepad, scorepad  # a cell says what it is
    page.goto(f"{base_url}/games/{gid}/history")
    settled(page)
    history = tree(page)
    assert "king of diamonds" in history and "seven of hearts" in history and "joker" in history, history
    assert not re.search(r"\bK ?D\b|black diamond", history), history
    context.close()


def test_the_pads_line_is_heard_as_current_and_a_locked_game_in_words(browser, base_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = new_game(page, base_url)
    page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(page)
    page.locator('.hand-row[data-player="Cy"] .hand-name').tap()
    expect(page.locator('.hand-row[data-player="Cy"]')).to_have_attribute("aria-current", "true")
    assert page.locator('.hand-row[aria-current="true"]').count() == 1
    pad = tree(page, ".tap-pad")
    for name in ("Ace", "King", "Joker", "hearts (on the last card)"):
        assert f'button "{name}"' in pad, pad
    locked = new_game(page, base_url, pin="2468")
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    other.goto(f"{base_url}/games/{locked}")
    settled(other)
    heard = tree(other, "body")
    # The padlock is drawn beside its words and hidden from the tree; the words say it.
    assert "Read-only: only the scorekeeper can change this game." in heard, heard
    assert 'link "Unlock with the PIN"' in heard, heard
    assert not re.search(r"- img\s*$", heard, re.M), heard  # no picture without a name (the QR code had none)
    other.context.close()
    context.close()


def test_the_pad_in_forced_colours_and_the_high_contrast_scorepad_are_seen(browser, base_url):
    """The screens the issue asks to look at: the card pad's line in forced colours (its yellow gone,
    an outline in its place), a locked game, and the High contrast scorepad of a game with a leader."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = new_game(page, base_url)
    page.emulate_media(forced_colors="active")
    page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(page)
    page.locator('.hand-row[data-player="Cy"] .hand-name').tap()
    page.locator('.tap[data-card="K"]').tap()
    line = page.locator('.hand-row[data-player="Cy"]')
    assert line.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    shot(page, "forced-colours-card-pad", full_page=False)
    page.emulate_media(forced_colors="none")
    for number in range(7):
        caught = {"Bob": "K", "Cy": "5 5" if number % 2 else "", "Di": "Q 9"}
        page.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": caught})
    page.evaluate("() => localStorage.setItem('scorekeeper-display', JSON.stringify({theme: 'contrast'}))")
    page.goto(f"{base_url}/games/{gid}")
    settled(page)
    page.locator(".scorepad").scroll_into_view_if_needed()
    shot(page, "high-contrast-scorepad", full_page=False)
    locked = new_game(page, base_url, pin="2468")
    other = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    other.goto(f"{base_url}/games/{locked}")
    settled(other)
    shot(other, "locked-game", full_page=False)
    other.context.close()
    context.close()
