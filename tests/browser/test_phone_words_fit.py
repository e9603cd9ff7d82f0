"""Words a phone shows whole (issue 60): "a phone's 'This phone is — choose your na…' is cut at 390 px".
Measured in Chromium at the phone's width: the chosen option's text against the box it is drawn in."""

from __future__ import annotations

import json
import urllib.request

from browser_support import settled

TEXT_AND_ROOM = """() => {
  const select = document.querySelector('.my-hand .who select');
  const style = getComputedStyle(select);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [pen.measureText(select.options[select.selectedIndex].text).width, room];
}"""


def test_this_phone_is_reads_whole_at_a_phone_s_width(phone, base_url):
    body = json.dumps({"ruleset": "ten-pennies", "players": ["Ann", "Bob", "Cy", "Di"]}).encode()
    request = urllib.request.Request(f"{base_url}/api/games", data=body, headers={"Content-Type": "application/json"})
    game = json.load(urllib.request.urlopen(request, timeout=30))["id"]
    page_text = urllib.request.urlopen(f"{base_url}/games/{game}", timeout=30).read().decode()
    token = page_text.split("/live/")[1].split('"')[0]
    phone.goto(f"{base_url}/live/{token}")
    settled(phone)
    assert phone.viewport_size["width"] <= 390
    text, room = phone.evaluate(TEXT_AND_ROOM)
    assert text <= room, (text, room)


def test_a_phone_draws_with_the_apps_own_font(phone, base_url):
    """Issue 60: the suits were drawn by whatever font the phone picked. The page loads the served font
    and draws the suits, the pad's keys and a name's accents with it."""
    phone.goto(f"{base_url}/")
    settled(phone)
    loaded = phone.evaluate(
        """async () => {
            await document.fonts.load('16px "Scorekeeper Sans"', '♠♥♦♣⌫▸ñé');
            await document.fonts.load('bold 16px "Scorekeeper Sans"', 'Ñ');
            const ours = (face) => face.family.replaceAll('"', '') === 'Scorekeeper Sans';
            return [...document.fonts].filter(ours).map((face) => [face.weight, face.status]);
        }"""
    )
    assert sorted(loaded) == [["bold", "loaded"], ["normal", "loaded"]]
