"""On the home screen (issue 44): the web app manifest and its icons, drawn from the favicon (its
colour and its spade), so that a phone can keep Scorekeeper on its home screen and open it without
the browser's bars. Over the home network (plain http) Chromium will not *install* a page — that
needs a secure origin — but adds it to the home screen all the same; over localhost it installs.

A live view, a table view or a night's link names itself as the manifest's start, so the icon a
player keeps opens that view."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from PIL import Image, ImageDraw

from ..printing.card_image import font

bp = Blueprint("homescreen", __name__)

ICON_SIZES = {"192": (192, False), "512": (512, False), "512-maskable": (512, True), "apple-touch-icon": (180, True)}
BACKGROUND = "#f7f5ef"
START_PAGES = re.compile(r"/(live/[\w-]{1,64}|night/[\w-]{1,64}(/table)?|games/\d{1,18}/table)")


def favicon() -> tuple[str, str]:
    """The favicon's colour and glyph: the icons are drawn from it, never kept apart from it."""
    text = (Path(current_app.static_folder or "static") / "favicon.svg").read_text(encoding="utf-8")
    colour = re.search(r'<rect[^>]*fill="(#[0-9a-fA-F]{6})"', text)
    glyph = re.search(r"<text[^>]*>([^<]+)</text>", text)
    return (colour.group(1) if colour else "#1d5c3a", glyph.group(1) if glyph else "♠")


@bp.app_template_global()
def manifest_url() -> str:
    """The manifest for this page: a live view, table view or night's link starts at itself."""
    path = request.path
    return url_for("homescreen.manifest", start=path) if START_PAGES.fullmatch(path) else url_for("homescreen.manifest")


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    colour, _ = favicon()
    start = request.args.get("start", "/")
    if start != "/" and not START_PAGES.fullmatch(start):
        start = "/"  # only the app's own views: never a page elsewhere
    icons = [
        {"src": f"/icons/{name}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for name, size, purpose in (("192", 192, "any"), ("512", 512, "any"), ("512-maskable", 512, "maskable"))
    ]
    answer = jsonify(
        name="Scorekeeper",
        short_name="Scorekeeper",
        description="Scores, pennies and the money bowl for Ten Pennies and its cousins, at the card table.",
        id="/",
        start_url=start,
        scope="/",
        display="standalone",
        background_color=BACKGROUND,
        theme_color=colour,
        icons=icons,
    )
    answer.mimetype = "application/manifest+json"
    return answer


@bp.get("/icons/<name>.png")
def icon(name: str) -> ResponseReturnValue:
    if name not in ICON_SIZES:
        abort(404)
    colour, glyph = favicon()
    size, maskable = ICON_SIZES[name]
    answer = Response(icon_png(size, maskable, colour, glyph), mimetype="image/png")
    answer.cache_control.max_age = 86400
    return answer


@functools.lru_cache(maxsize=8)
def icon_png(size: int, maskable: bool, colour: str, glyph: str) -> bytes:
    """The favicon at ``size``: a rounded square (full bleed when maskable: the phone cuts its own
    shape, keeping the middle 80%) with the glyph in white."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, size, size), fill=colour)
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size * 6 // 32, fill=colour)
    glyph_size = int(size * (0.55 if maskable else 0.69))
    draw.text((size / 2, size / 2), glyph, font=font(glyph_size), fill="#ffffff", anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
