"""Rendering HTML to PDF with WeasyPrint, fetching nothing but the app's own static files.

WeasyPrint is imported with the first PDF asked for, not when the server starts (it is most of the
app's import time), and one PDF renders at a time: a season's PDFs asked for together leave the
server's other threads the time to answer the table's pages (measured: with two at once the game
page's p90 passed 100 ms; with one, about 70 ms, and as many PDFs a second)."""

from __future__ import annotations

import functools
import mimetypes
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher

# Documents are rendered with this base URL; only its /static/ files can be fetched.
BASE_URL = "https://scorekeeper.invalid/"
STATIC_PREFIX = BASE_URL + "static/"

PAPER_SIZES = {"letter": "letter", "a4": "A4"}

RENDERING_AT_ONCE = threading.BoundedSemaphore(1)


def static_only_fetcher(static_folder: str | Path) -> URLFetcher:
    """A fetcher that serves the app's static folder and refuses everything else: no network, no
    file: paths from data."""
    return _static_only_class()(static_folder)


@functools.cache
def _static_only_class() -> Callable[[str | Path], URLFetcher]:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticOnlyFetcher(URLFetcher):
        def __init__(self, static_folder: str | Path) -> None:
            super().__init__(allowed_protocols=("https",))
            self.static_root = Path(static_folder).resolve()

        def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
            if not url.startswith(STATIC_PREFIX):
                raise ValueError(f"only the app's own static files are fetched, not {url!r}")
            path = (self.static_root / url[len(STATIC_PREFIX) :].split("?")[0]).resolve()
            if self.static_root not in path.parents or not path.is_file():
                raise ValueError(f"no static file {url!r}")
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    return StaticOnlyFetcher


# Indentation between tags on separate lines: WeasyPrint lays out every such run of white space as
# a text box of its own (measured: a fifth of a scorepad's time). Spaces within a line are kept.
BETWEEN_LINES = re.compile(r">[ \t]*\n\s*<")


@functools.cache
def _font_config() -> FontConfiguration:
    """One font set-up for every PDF: a new one per document (WeasyPrint's default) is a new
    fontconfig and Pango font map that stay behind (measured: 0.25 MB more per scorepad, 300 PDFs
    +72 MB); PDFs render one at a time, so sharing it is safe."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def html_to_pdf(html: str, static_folder: str | Path) -> bytes:
    from weasyprint import HTML

    html = BETWEEN_LINES.sub("><", html)
    with RENDERING_AT_ONCE:
        document = HTML(string=html, base_url=BASE_URL, url_fetcher=static_only_fetcher(static_folder))
        pdf = document.write_pdf(font_config=_font_config())
    assert pdf is not None
    return pdf
