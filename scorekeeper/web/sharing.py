"""The links the table's phones open, and their QR codes: a game's live view, and a night's link,
which a phone or tablet opens once to follow the evening from game to game."""

from __future__ import annotations

import functools

from flask import current_app, request, url_for


def public_url(endpoint: str, token: str) -> str:
    """An address of this app as the phones can reach it. A page asked from this computer itself
    (localhost) names PUBLIC_URL, the LAN address ``serve --network`` found; a page asked by a phone
    names the address that phone used (the LAN address, ``<name>.local``, or a reverse proxy's)."""
    base: str = request.host_url
    if current_app.config.get("PUBLIC_URL") and request.host.rsplit(":", 1)[0] in LOCAL_NAMES:
        base = current_app.config["PUBLIC_URL"]
    return base.rstrip("/") + url_for(endpoint, token=token)


LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")


def game_link(token: str) -> str:
    """A game's live view, behind its unguessable share token."""
    return public_url("live.view", token)


def night_link(token: str) -> str:
    """A night's link: a phone says once who it is and follows the night's games by itself."""
    return public_url("live.night_view", token)


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """A link's QR code (the same link always draws the same code, so keep it)."""
    import segno

    # Named for a screen reader, which otherwise hears an unnamed picture (issue 60's tree test).
    drawn = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", title="QR code of this link")
    return drawn.replace("<svg ", '<svg role="img" ', 1)
