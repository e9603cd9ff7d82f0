"""Each entry recorded once: the one mechanism behind a form's entry key (a second tap, Back then
Save, a resend after the Wi-Fi dropped) and the API's Idempotency-Key. The check, the write and the
remembered answer are one transaction, so simultaneous repeats queue behind the first and then
read its answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .store import Store

T = TypeVar("T")


@dataclass(frozen=True)
class Answered:
    """The key was recorded already: nothing was done again; the first answer, to send back."""

    status: int
    body: str


class KeyReused(ValueError):
    """The key was recorded for another request (the API: a new entry needs a new key)."""


def form_key(key: str | None) -> str | None:
    """A form's entry key as kept; None for a form sent without one (it is then simply recorded)."""
    return f"form:{key}" if key else None


def api_key(key: str) -> str:
    return f"api:{key}"


def was_recorded(store: Store, key: str | None) -> bool:
    return key is not None and store.answer_for(key) is not None


def record_once(
    store: Store,
    key: str | None,
    run: Callable[[], T],
    *,
    game_id: int | None = None,
    digest: str = "",
    answer: Callable[[T], tuple[int, str]] = lambda result: (200, ""),
) -> T | Answered:
    """``run()``, unless ``key`` was recorded: then the first answer, and nothing is run. With no key
    the entry is simply run. ``answer`` says what to remember of the result (an answer of 400 or
    more is not remembered: a refused entry may be sent again once put right)."""
    if not key:
        return run()
    with store.writing():
        first = store.answer_for(key)
        if first is not None:
            if first["digest"] != digest:
                raise KeyReused(key)
            return Answered(first["status"], first["body"])
        result = run()
        status, body = answer(result)
        if status < 400:
            store.remember_answer(key, game_id, digest, status, body)
        return result
