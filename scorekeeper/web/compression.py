"""Responses compressed with gzip for browsers that take it: the game page's HTML, CSS and script are
text that shrinks to a third, which a phone on weak Wi-Fi feels (waitress compresses nothing)."""

from __future__ import annotations

import gzip

from flask import Response, request

COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
    "text/csv",
    "text/plain",
}
MIN_BYTES = 500  # below this the gzip header and a round of work cost more than they save


def gzip_response(response: Response) -> Response:
    """after_request: gzip a compressible body when the browser says it takes gzip. A strong ETag
    becomes weak (the bytes differ from the uncompressed ones; the content is the same)."""
    response.vary.add("Accept-Encoding")
    if not wants_gzip(response):
        return response
    response.direct_passthrough = False  # a static file: read it to compress it
    body = response.get_data()
    if len(body) < MIN_BYTES:
        return response
    response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


def wants_gzip(response: Response) -> bool:
    return (
        response.status_code == 200
        and response.mimetype in COMPRESSIBLE
        and "Content-Encoding" not in response.headers
        and (response.direct_passthrough or not response.is_streamed)  # a file, not a generator
        and request.accept_encodings["gzip"] > 0
    )
