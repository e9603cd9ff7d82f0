"""Rendering HTML to PDF with WeasyPrint, fetching nothing but the app's own static files.

PDFs render in a worker process, one at a time, started with the first PDF asked for (WeasyPrint is
most of the app's import time, and the server never imports it). In the server's own process a PDF's
layout held Python's lock for half a second in small slices, and the threads answering the table
waited behind it: the game page's p90 was 138 ms while four scorepads rendered (issue 45). A request
for a PDF now waits for the worker without holding anyone; the worker keeps one font set-up."""

from __future__ import annotations

import functools
import mimetypes
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher

# Documents are rendered with this base URL; only its /static/ files can be fetched.
BASE_URL = "https://scorekeeper.invalid/"
STATIC_PREFIX = BASE_URL + "static/"

PAPER_SIZES = {"letter": "letter", "a4": "A4"}


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
    +72 MB); the worker renders one PDF at a time, so sharing it is safe."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def render_pdf(html: str, static_folder: str | Path) -> bytes:
    """The PDF of ``html``, rendered here and now (the worker's job; the benchmark's floor)."""
    from weasyprint import HTML

    document = HTML(
        string=BETWEEN_LINES.sub("><", html), base_url=BASE_URL, url_fetcher=static_only_fetcher(static_folder)
    )
    pdf = document.write_pdf(font_config=_font_config())
    assert pdf is not None
    return pdf


def _rendered_in_worker(html: str, static_folder: str) -> tuple[bytes, float, float, int]:
    """In the worker: the PDF, the CPU time it took, the worker's resident memory (MB), its pid."""
    start = time.process_time()
    pdf = render_pdf(html, static_folder)
    return pdf, time.process_time() - start, resident_mb(), os.getpid()


PARENT_LOOK_S = 1.0  # how often the worker looks whether the server that started it is still there


def _ends_with(server: int) -> None:
    """In the worker, first: it ends once the server that started it is gone. A server killed (by a
    host's script, by a crash) runs none of its own clean-up, and the worker, waiting on a queue the
    server can no longer write to, would otherwise live on with its memory."""

    def look() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_LOOK_S)
        os._exit(0)  # nothing of the worker's own is left to save: a PDF half made is asked again

    threading.Thread(target=look, name="ends-with-the-server", daemon=True).start()


def resident_mb() -> float:
    """This process's memory in RAM (Linux; 0 elsewhere), MB."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0.0
    return int(status.split("VmRSS:")[1].split()[0]) / 1024 if "VmRSS:" in status else 0.0


class PdfWorker:
    """One worker process rendering PDFs one at a time, started with the first. Spawned, not forked:
    the server runs threads. A worker that died (killed, out of memory) is replaced, and the PDF
    asked again once. What it spent is kept for the benchmark (CPU seconds, its memory, its pid)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.cpu_seconds = 0.0
        self.resident_mb = 0.0
        self.pid: int | None = None

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_ends_with,
                    initargs=(os.getpid(),),
                )
            return self._pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False)

    def render(self, html: str, static_folder: str | Path) -> bytes:
        for attempt in (1, 2):
            pool = self._started()
            try:
                pdf, cpu, memory, self.pid = pool.submit(_rendered_in_worker, html, str(static_folder)).result()
            except BrokenProcessPool:
                self._replace(pool)
                if attempt == 2:
                    raise
                continue
            with self._lock:
                self.cpu_seconds += cpu
                self.resident_mb = memory
            return pdf
        raise AssertionError("unreachable")


WORKER = PdfWorker()


def html_to_pdf(html: str, static_folder: str | Path) -> bytes:
    return WORKER.render(html, static_folder)
