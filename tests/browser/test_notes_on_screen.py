"""Notes in a real browser on a phone: the scorekeeper adds a note on the game page, the players'
live view and the propped-up table view show it without a reload, a long unbroken note never
widens the page, and an edit made meanwhile on another phone is shown, not overwritten."""

from __future__ import annotations

import re

from browser_support import PHONE, settled, shot
from playwright.sync_api import expect

PLAYERS = ["Ann", "Bob", "Cy", "D'Arcy"]
NOTE = "Hosted by D'Arcy <b>not bold</b>\nJokers wild in every round"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def save_note(page, text: str) -> None:
    page.locator(".note-edit summary").click()
    page.fill("#notes-text", text)
    page.locator(".note-edit button[type=submit]").click()


def test_a_note_reaches_every_screen_of_the_table(browser, base_url):
    keeper = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = keeper.new_page()
    night = page.request.post(f"{base_url}/api/nights", data={"name": "Fri"}).json()["id"]
    game = page.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": PLAYERS, "night": night}
    ).json()["id"]
    page.goto(f"{base_url}/games/{game}")
    share = page.locator(".share-link a").get_attribute("href")
    watcher = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    live = watcher.new_page()
    live.goto(share)
    table = watcher.new_page()
    table.goto(f"{base_url}/games/{game}/table")
    settled(live)

    save_note(page, NOTE)
    settled(page)
    expect(page.locator(".flash-ok")).to_contain_text("Note saved")
    expect(page.locator(".notes .note-text")).to_have_text(NOTE)  # as typed: markup shown as text, lines kept
    assert page.locator(".notes .note-text b").count() == 0
    assert no_sideways_scroll(page)
    shot(page, "notes-game-page")

    for view in (live, table):  # both follow by themselves
        expect(view.locator(".notes-shown")).to_contain_text("Jokers wild in every round", timeout=8000)
    page.goto(f"{base_url}/nights/{night}")
    save_note(page, "Fri at D'Arcy's: " + "x" * 120)  # one unbroken word, wider than any phone
    settled(page)
    assert no_sideways_scroll(page)
    expect(page.locator(".game-list .note-text")).to_contain_text("Hosted by D'Arcy")
    shot(page, "notes-night-page")
    expect(live.locator(".notes-shown")).to_contain_text("Tonight: Fri at D'Arcy's", timeout=8000)
    assert no_sideways_scroll(live)
    shot(live, "notes-live-view")
    shot(table, "notes-table-view")
    # Close the night, as the table does at the end: games the other tests start must not join it.
    page.locator("button:has-text('Close the night')").click()
    settled(page)
    expect(page.locator(".flash-ok")).to_contain_text("Night closed")
    watcher.close()
    keeper.close()


def test_an_edit_made_meanwhile_is_shown_not_overwritten(browser, base_url):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    game = page.request.post(f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": PLAYERS}).json()["id"]
    page.goto(f"{base_url}/games/{game}")
    other = page.request.put(f"{base_url}/api/games/{game}/notes", data={"notes": "Bob hosted"})
    assert other.status == 200
    save_note(page, "Ann hosted")
    settled(page)
    expect(page.locator(".notes .note-text")).to_have_text("Bob hosted")
    expect(page.locator(".note-edit .field-error")).to_contain_text("changed on another device")
    expect(page.locator("#notes-text")).to_have_value("Ann hosted")
    expect(page.locator("#notes-text")).to_be_in_viewport()  # the page opens where the problem is
    expect(page.locator(".flash-error")).to_contain_text("Note not saved")
    shot(page, "notes-changed-meanwhile")
    shot(page, "notes-changed-meanwhile-screen", full_page=False)
    page.locator(".note-edit button[type=submit]").click()  # saving again replaces it, knowingly
    settled(page)
    expect(page.locator(".notes .note-text")).to_have_text("Ann hosted")
    assert re.search(r"/games/\d+$", page.url)
    context.close()
