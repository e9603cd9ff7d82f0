from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, Blueprint
from werkzeug.exceptions import BadRequest

_V = TypeVar("_V", bound=Callable[..., Any] | Blueprint | str)

class CSRFError(BadRequest): ...

class CSRFProtect:
    def __init__(self, app: Flask | None = None) -> None: ...
    def init_app(self, app: Flask) -> None: ...
    def exempt(self, view: _V) -> _V: ...
