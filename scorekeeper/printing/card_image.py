"""The results card drawn as a PNG (issue 44): 1080 px wide, readable on a phone in a family chat, a
few tens of KiB (flat colours, a small palette). Drawn with Pillow (which WeasyPrint brings) in DejaVu
Sans, the font the printed sheets use: it carries the suit symbols."""

from __future__ import annotations

import functools
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..rules.share import ResultsCard

WIDTH = 1080
MARGIN = 56
ROW = 76
INK, MUTED, PAPER, GREEN, LEAD, RULE = "#1b1b1b", "#5d5d5d", "#f7f5ef", "#1d5c3a", "#fff1b8", "#d4d0c4"
FONT_FOLDERS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu")]

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.lru_cache(maxsize=8)
def font(size: int, bold: bool = False) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_FOLDERS:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)  # a machine without DejaVu: plainer, still whole


def wrapped(draw: ImageDraw.ImageDraw, text: str, face: Font, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(f"{lines[-1]} {word}", font=face) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def fitted(draw: ImageDraw.ImageDraw, text: str, face: Font, width: float) -> str:
    """The text cut with an ellipsis where it would run into the next column (a long name)."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def card_png(card: ResultsCard) -> bytes:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    headline = wrapped(measure, card.headline, font(52, True), WIDTH - 2 * MARGIN)
    notes = [line for note in card.notes for line in wrapped(measure, note, font(34), WIDTH - 2 * MARGIN)]
    height = 110 + 64 + 66 * len(headline) + 30 + ROW * (len(card.rows) + 1) + 46 * len(notes) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 90), fill=GREEN)
    draw.text((MARGIN, 45), "♠ Scorekeeper", font=font(40, True), fill="#ffffff", anchor="lm")
    y = 110
    draw.text((MARGIN, y), card.title, font=font(38), fill=MUTED)
    y += 64
    for line in headline:
        draw.text((MARGIN, y), line, font=font(52, True), fill=INK)
        y += 66
    y += 30
    y = table(draw, card, y)
    for line in notes:
        draw.text((MARGIN, y + 8), line, font=font(34), fill=MUTED)
        y += 46
    out = io.BytesIO()
    # A few flat colours and their anti-aliased edges: 32 colours (the fast octree) keep a card of
    # eight players near 25 KiB, in a fraction of the time an optimised or full-colour PNG takes.
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def table(draw: ImageDraw.ImageDraw, card: ResultsCard, top: int) -> int:
    """The standings: place, name, then the figures right-aligned; the first place on a light band."""
    right_edges = [WIDTH - MARGIN - 260 * (len(card.columns) - 1 - i) for i in range(len(card.columns))]
    head, body, bold = font(32, True), font(44), font(44, True)
    y = top
    for i, title in enumerate(card.columns):
        if i >= 2:
            draw.text((right_edges[i], y + ROW // 2), title, font=head, fill=MUTED, anchor="rm")
    y += ROW
    draw.line((MARGIN, y - 6, WIDTH - MARGIN, y - 6), fill=RULE, width=3)
    first_place = card.rows[0][0] if card.rows else ""
    for row in card.rows:
        leads = row[0] == first_place
        if leads:
            draw.rounded_rectangle((MARGIN - 16, y + 4, WIDTH - MARGIN + 16, y + ROW - 4), 14, fill=LEAD)
        middle = y + ROW // 2
        draw.text((MARGIN, middle), row[0], font=body, fill=MUTED, anchor="lm")
        name_room = (right_edges[2] - 200 if len(row) > 2 else WIDTH - MARGIN) - (MARGIN + 80)
        face = bold if leads else body
        draw.text((MARGIN + 80, middle), fitted(draw, row[1], face, name_room), font=face, fill=INK, anchor="lm")
        for i in range(2, len(row)):
            draw.text((right_edges[i], middle), row[i], font=bold if leads else body, fill=INK, anchor="rm")
        y += ROW
    return y
