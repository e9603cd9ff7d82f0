"""The API of nights: a night, its money mode and payments, and unlocking a game or a night with its PIN."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from ..commands.locks import Lock, game_lock, night_lock, verify_pin
from ..commands.nights import CreateNight, Party, Pay, SetMoneyMode, TakeBackPayment
from ..reads.night_report import night_report
from ..rules.ledger import MoneyMode
from ..store import get_store
from ..web import current_catalog
from ..web.access import issue_token
from ..web.sharing import night_link
from .base import bp, respond_json, write
from .bodies import BadRequest, body, field


@bp.post("/nights")
def create_night() -> ResponseReturnValue:
    data = body(empty_allowed=True)
    name = field(data, "name", str, required=False) or ""
    night = CreateNight(name, money_mode(data) or MoneyMode.TABLE)
    return write(night, lambda night_id: respond_json({"id": night_id}, 201))


def money_mode(data: dict[str, Any]) -> MoneyMode | None:
    money: str | None = field(data, "money", str, required=False)
    if money is None:
        return None
    try:
        return MoneyMode.parse(money, "'money'")
    except ValueError as error:
        raise BadRequest(str(error)) from None


@bp.post("/nights/<int:night_id>/money")
def set_money(night_id: int) -> ResponseReturnValue:
    """Change how an open night pays: "table" or "paper" (a locked night needs its token)."""
    mode = money_mode(body()) or MoneyMode(get_store().night(night_id)["money"])
    return write(SetMoneyMode(night_id, mode), lambda _: night_answer(night_id))


def night_answer(night_id: int, status: int = 200) -> Response:
    return respond_json(night_report(get_store(), current_catalog(), night_id).to_json(), status)


@bp.post("/nights/<int:night_id>/payments")
def pay(night_id: int) -> ResponseReturnValue:
    """A payment made on paper, ``{"from", "to", "cents"}`` (the bowl: ``"from_bowl"`` or
    ``"to_bowl": true``): kept as money handed over; 201 and the night's report (a locked night needs
    its token)."""
    data = body()
    payment = Pay(night_id, party_in(data, "from"), party_in(data, "to"), field(data, "cents", int))
    return write(payment, lambda _: night_answer(night_id, 201))


def party_in(data: dict[str, Any], side: str) -> Party:
    """``"from": "Ann"`` (a player by name), or ``"from_bowl": true`` (the bowl, never a name)."""
    if field(data, f"{side}_bowl", bool, required=False):
        return Party(bowl=True)
    return Party(field(data, side, str))


@bp.post("/nights/<int:night_id>/payments/<int:payment_id>")
def take_back(night_id: int, payment_id: int) -> ResponseReturnValue:
    """``{"undone": true}``: not paid after all; ``false``: paid after all. The night's report."""
    undone = body().get("undone")
    if not isinstance(undone, bool):
        raise BadRequest("'undone' must be true (not paid after all) or false (paid after all)")
    return write(TakeBackPayment(night_id, payment_id, undone), lambda _: night_answer(night_id))


@bp.get("/nights/<int:night_id>")
def get_night(night_id: int) -> ResponseReturnValue:
    """The night's money, and ``share_url``: the link its phones and tablet open once for the evening."""
    report = night_report(get_store(), current_catalog(), night_id)
    return jsonify({**report.to_json(), "share_url": night_link(report.night["share_token"])})


@bp.post("/games/<int:game_id>/unlock")
def unlock(game_id: int) -> ResponseReturnValue:
    """Trade the PIN for a bearer token that opens the game (and, if the PIN is its night's, the night)."""
    data = body()
    store = get_store()
    return unlocked(game_lock(store, store.game(game_id)), data)


@bp.post("/nights/<int:night_id>/unlock")
def unlock_night(night_id: int) -> ResponseReturnValue:
    """Trade a locked night's PIN for a bearer token that opens every game of the night, and the night."""
    return unlocked(night_lock(get_store().night(night_id)), body())


def unlocked(target: Lock | None, data: dict[str, Any]) -> ResponseReturnValue:
    if target is None:
        return jsonify(token=None, locked=False)
    verify_pin(get_store(), target, field(data, "pin", str))
    return jsonify(token=issue_token(target), locked=True, lock=target.key)
