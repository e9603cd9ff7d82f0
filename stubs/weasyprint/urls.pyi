from collections.abc import Mapping, Sequence
from typing import Any

class URLFetcherResponse:
    def __init__(
        self, url: str, body: bytes | None = None, headers: Mapping[str, str] | None = None, status: int = 200, **kwargs: Any
    ) -> None: ...
    def read(self) -> bytes: ...

class URLFetcher:
    def __init__(
        self,
        timeout: float = 10,
        ssl_context: Any = None,
        http_headers: Mapping[str, str] | None = None,
        allowed_protocols: Sequence[str] | None = None,
        allow_redirects: bool = True,
        fail_on_errors: bool = False,
        **kwargs: Any,
    ) -> None: ...
    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse: ...
