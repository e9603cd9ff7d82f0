"""Reading a JSON request body safely: JSON only (a cross-site form cannot send it without a
CORS preflight), bounded nesting, text that is valid Unicode, numbers that fit the database."""

from __future__ import annotations

from typing import Any

from flask import request
from werkzeug.exceptions import UnsupportedMediaType

MAX_DEPTH = 8  # the deepest real body (a Pennies From Heaven hand) nests 4 levels
MAX_INT = 2**63 - 1  # what SQLite stores; larger numbers are refused by name

KIND_NAMES = {int: "a whole number", str: "a string", list: "a list", dict: "an object", bool: "true or false"}


class BadRequest(ValueError):
    """The request body is not what the endpoint takes."""


def body(empty_allowed: bool = False) -> dict[str, Any]:
    """The request's JSON object, checked before anything reads it."""
    if not request.is_json:
        raise UnsupportedMediaType("send the request body as JSON, with Content-Type: application/json")
    if empty_allowed and not request.get_data():
        return {}
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise BadRequest(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)") from None
    if not isinstance(data, dict):
        raise BadRequest("send a JSON object in the request body")
    check_json(data)
    return data


def check_json(data: dict[str, Any]) -> None:
    """Walk the body without recursion: nesting depth, and text that cannot be stored (lone surrogates)."""
    stack: list[tuple[object, int, str]] = [(value, 1, str(key)) for key, value in data.items()]
    stack += [(key, 1, str(key)) for key in data]
    while stack:
        value, depth, top = stack.pop()
        if depth > MAX_DEPTH:
            raise BadRequest(f"{top!r}: the JSON is nested too deeply (more than {MAX_DEPTH} levels)")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise BadRequest(f"{_printable(top)!r} holds text that is not valid Unicode") from None
        elif isinstance(value, dict):
            stack += [(item, depth + 1, top) for pair in value.items() for item in pair]
        elif isinstance(value, list):
            stack += [(item, depth + 1, top) for item in value]


def _printable(name: str) -> str:
    return name.encode("utf-8", "replace").decode("utf-8")


def field(
    data: dict[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    required: bool = True,
    low: int = -MAX_INT,
    high: int = MAX_INT,
) -> Any:
    """``data[name]`` if it is of ``kind`` (a whole number within low..high; true or false only where
    ``kind`` is bool), else BadRequest naming it."""
    if name not in data or data[name] is None:
        if required:
            raise BadRequest(f"{name!r} is missing")
        return None
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) != (bool in kinds) or not isinstance(value, kind):
        raise BadRequest(f"{name!r} must be {' or '.join(KIND_NAMES[k] for k in kinds)}")
    if isinstance(value, int) and value > high:
        raise BadRequest(f"{name!r} must be at most {high}")
    if isinstance(value, int) and value < low:
        raise BadRequest(f"{name!r} must be at least {low}")
    return value
