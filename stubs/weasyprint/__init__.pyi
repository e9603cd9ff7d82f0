# The part of WeasyPrint that Scorekeeper uses (the package ships no types).
from typing import Any

from .urls import URLFetcher

class HTML:
    def __init__(
        self,
        guess: Any = None,
        filename: str | None = None,
        url: str | None = None,
        file_obj: Any = None,
        string: str | None = None,
        encoding: str | None = None,
        base_url: str | None = None,
        url_fetcher: URLFetcher | None = None,
        media_type: str = "print",
    ) -> None: ...
    def write_pdf(self, target: Any = None, zoom: float = 1, **options: Any) -> bytes | None: ...
