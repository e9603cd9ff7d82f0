"""Compressed answers (issue 28): the game page's HTML, stylesheet and script go gzipped to a browser
that takes gzip (the issue measured 36 KiB of 52 KiB to save), byte for byte the same once unzipped,
and still revalidate to 304; nothing is gzipped for a client that does not ask, nor a PDF."""

from __future__ import annotations

import gzip
import re

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def assets(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/(?:css|js)/[^"]+)"', html)


def test_the_game_page_and_its_assets_arrive_gzipped_and_unzip_to_the_same_bytes(api, client):
    game = api.new_game()
    page = client.get(f"/games/{game['id']}")
    plain_total = len(page.data)
    zipped_total = len(client.get(f"/games/{game['id']}", headers=GZIP).data)
    for path in assets(page.text):
        plain = client.get(path)
        zipped = client.get(path, headers=GZIP)
        assert zipped.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in zipped.headers["Vary"]
        assert gzip.decompress(zipped.data) == plain.data, path
        plain_total += len(plain.data)
        zipped_total += len(zipped.data)
    assert len(assets(page.text)) >= 2
    assert zipped_total < plain_total * 0.4, (zipped_total, plain_total)


def test_a_client_that_does_not_take_gzip_gets_plain_text(api, client):
    game = api.new_game()
    for path in (f"/games/{game['id']}", f"/api/games/{game['id']}", "/static/css/app.css"):
        answer = client.get(path, headers={"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in answer.headers, path
    assert "Content-Encoding" not in client.get(f"/games/{game['id']}", headers={"Accept-Encoding": "gzip;q=0"}).headers


def test_a_gzipped_stylesheet_still_revalidates_and_a_pdf_is_not_gzipped(api, client):
    first = client.get("/static/css/app.css", headers=GZIP)
    assert first.headers["ETag"].startswith('W/"')
    again = client.get("/static/css/app.css", headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    game = api.new_game()
    pdf = client.get(f"/games/{game['id']}/scorepad.pdf", headers=GZIP)
    assert pdf.mimetype == "application/pdf" and "Content-Encoding" not in pdf.headers


def test_a_small_answer_is_not_worth_zipping(client):
    answer = client.get("/healthz", headers=GZIP)
    assert answer.data == b"ok" and "Content-Encoding" not in answer.headers
