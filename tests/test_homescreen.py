"""On the home screen (issue 44): the manifest every page links, its icons drawn from the favicon at
the sizes it names, and a live or table view that starts at itself from the home screen."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from support import found, make_app


@pytest.fixture
def client(tmp_path: Path):
    return make_app(tmp_path).test_client()


def test_every_page_links_the_manifest_and_the_ios_icon(client):
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">' in page
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in page


def test_the_manifest_names_what_a_home_screen_needs(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.get_json()
    assert (manifest["name"], manifest["short_name"], manifest["start_url"]) == ("Scorekeeper", "Scorekeeper", "/")
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#1d5c3a"
    favicon = (Path(__file__).resolve().parents[1] / "static" / "favicon.svg").read_text()
    assert manifest["theme_color"] in favicon  # drawn from the favicon
    for icon in manifest["icons"]:
        picture = client.get(icon["src"])
        assert picture.mimetype == "image/png"
        width, height = Image.open(io.BytesIO(picture.data)).size
        assert f"{width}x{height}" == icon["sizes"]
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


def alpha(image: Image.Image) -> int:
    """How opaque the image's top-left corner is (0 to 255)."""
    corner = image.getpixel((0, 0))
    assert isinstance(corner, tuple)
    return int(corner[3])


def test_a_maskable_icon_bleeds_to_its_edges_and_the_others_are_rounded(client):
    maskable = Image.open(io.BytesIO(client.get("/icons/512-maskable.png").data)).convert("RGBA")
    rounded = Image.open(io.BytesIO(client.get("/icons/512.png").data)).convert("RGBA")
    assert alpha(maskable) == 255 and alpha(rounded) == 0
    assert Image.open(io.BytesIO(client.get("/icons/apple-touch-icon.png").data)).size == (180, 180)
    assert client.get("/icons/64.png").status_code == 404


def test_a_live_view_kept_on_the_home_screen_opens_itself(client):
    gid = client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}).get_json()["id"]
    live = found(r'href="(?:http://[^/]+)?(/live/[\w-]+)"', client.get(f"/games/{gid}").text)
    manifest = found(r'<link rel="manifest" href="([^"]+)">', client.get(live).text)
    assert client.get(manifest.replace("&amp;", "&")).get_json()["start_url"] == live
    table = found(r'<link rel="manifest" href="([^"]+)">', client.get(f"/games/{gid}/table").text)
    assert client.get(table).get_json()["start_url"] == f"/games/{gid}/table"
    assert client.get("/manifest.webmanifest?start=https://example.com/").get_json()["start_url"] == "/"
