"""What the scorekeeper's phone shows first (issue 40): the share of the height the bars take, and
where "Enter round 1" and the buy buttons start, measured on a new 5-player game at the two phone
sizes, checked against the figures the README states (so they cannot go stale)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import settled

README = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())  # lines joined
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]

MEASURE = """() => {
  const top = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top + scrollY);
  const bottom = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().bottom + scrollY);
  return {bars: bottom('.sections'), enter: top('a.button.primary.big'), firstBuy: top('button.buy'),
          lastBuy: bottom('.buy-list li:last-child')};
}"""


def measured(browser, base_url, width: int, height: int) -> dict[str, int]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    body = {"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann"}
    gid = page.request.post(f"{base_url}/api/games", data=body).json()["id"]
    page.goto(f"{base_url}/games/{gid}")
    settled(page)
    figures = page.evaluate(MEASURE)
    context.close()
    return figures


@pytest.mark.parametrize("width, height", [(360, 640), (390, 844)])
def test_the_readme_states_what_the_phone_shows_first(browser, base_url, width, height):
    figures = measured(browser, base_url, width, height)
    share = f"{figures['bars'] / height * 100:.1f}%"
    stated = re.search(rf"at {width}×{height} the bars take (\d+) px \(([\d.]+%)\)", README)
    assert stated, f"the README states no figures for {width}×{height}"
    assert (int(stated.group(1)), stated.group(2)) == (figures["bars"], share)
    if (width, height) == (360, 640):
        assert f'"Enter round 1" starts at y = {figures["enter"]} (in the first screen)' in README
        assert figures["enter"] + 44 <= height  # the whole button in sight
        assert f"the first buy button at y = {figures['firstBuy']}" in README
    else:
        assert f"(the last ends at y = {figures['lastBuy']})" in README
