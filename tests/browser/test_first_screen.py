"""What the scorekeeper's phone shows first (issue 40): the share of the height the bars take, and
where "Enter round N" and the buy buttons are, measured at the two phone sizes on the game page of a
night's 5-player game in its third round (standings drawn, the night's link line shown), checked
against the figures docs/features.md states (so they cannot go stale)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import settled

STATED = " ".join((Path(__file__).resolve().parents[2] / "docs" / "features.md").read_text().split())  # lines joined
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]

# The bars are what stands above the page's own content: the top bar, and the sections row where it
# is drawn up there (on a phone held upright it waits at the foot of the page).
MEASURE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const top = (sel) => Math.round(box(document.querySelector(sel)).top + scrollY);
  const bottom = (sel) => Math.round(box(document.querySelector(sel)).bottom + scrollY);
  const sections = document.querySelector('.sections-top');
  const bars = sections.offsetParent ? bottom('.sections-top') : bottom('.topbar');
  return {bars, enter: top('a.button.primary.big'), firstBuy: top('button.buy'),
          lastBuy: bottom('.buy-list li:last-child'), standings: bottom('.standings-strip')};
}"""


def measured(browser, base_url, width: int, height: int) -> dict[str, int]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    night = page.request.post(f"{base_url}/api/nights", data={}).json()["id"]
    body = {"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann", "night": night}
    gid = page.request.post(f"{base_url}/api/games", data=body).json()["id"]
    for _ in range(2):
        caught = {"Bob": "K 7", "Cy": "5", "Di": "", "Eve": "Q"}
        page.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": caught})
    page.goto(f"{base_url}/games/{gid}")
    settled(page)
    figures = page.evaluate(MEASURE)
    context.close()
    return figures


@pytest.mark.parametrize("width, height", [(360, 640), (390, 844)])
def test_the_table_comes_first_on_a_phone_as_the_readme_states(browser, base_url, width, height):
    figures = measured(browser, base_url, width, height)
    share = f"{figures['bars'] / height * 100:.1f}%"
    stated = re.search(rf"at {width}×{height} the bars take (\d+) px \(([\d.]+%)\)", STATED)
    assert stated, f"docs/features.md states no figures for {width}×{height}"
    assert (int(stated.group(1)), stated.group(2)) == (figures["bars"], share)
    assert figures["bars"] <= 0.12 * height  # the bound on chrome
    # Standings, "Enter round 3" and every buy button of the five: all in the first screen.
    assert figures["standings"] < figures["enter"] and figures["lastBuy"] <= height
    if (width, height) == (360, 640):
        assert f'"Enter round 3" starts at y = {figures["enter"]}' in STATED
        assert f"the last buy button ends at y = {figures['lastBuy']}" in STATED
