"""What the table watches: the live view (a read-only scorepad behind an unguessable share link)
and the table view (standings in big numbers to prop up in the middle of the table), both
refreshing themselves when the game's version moves; and the night's link, which a phone or the
tablet opens once to follow the evening: each shows the night's latest game (a phone: the latest
game its player sits in) and moves on to the next game by itself as soon as it starts."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from ..reads import loading
from ..reads.kept import KeptLast
from ..rules.game_json import describe_round
from ..rules.rule_card import your_round
from ..rules.setup import MAX_NAME_LENGTH
from ..store import NotFound, get_store
from ..web import current_catalog

bp = Blueprint("live", __name__)


def shared_game_id(token: str) -> tuple[int, int]:
    """(game id, version) behind the link; 404 for a link that opens nothing."""
    try:
        return get_store().shown_version_by_share_token(token)
    except NotFound:
        abort(404)


def game_context(game_id: int) -> dict[str, object]:
    """What both views draw. The version is read first: an entry made while the page is drawn
    moves it past the one the page carries, so the next poll fetches it."""
    store = get_store()
    try:
        shown_version = store.shown_version(game_id)
        loaded = loading.load_game(store, current_catalog(), game_id)
    except (NotFound, loading.GameNotFound):
        abort(404)
    game, night_id = loaded.game, loaded.row["night_id"]
    return {
        "game": game,
        "round": describe_round(game.setup, game.current_round) if game.current_round else None,
        "your_round": {name: your_round(game, name) for name in game.players} if game.current_round else {},
        "shown_version": shown_version,
        "notes": loaded.row["notes"],
        "night_notes": store.night(night_id)["notes"] if night_id is not None else "",
    }


def version_answer(version: int) -> Response:
    """What every phone at the table polls: one integer, read without replaying the game; and when it
    has not moved since the phone last asked (its If-None-Match), 304 and no body at all. The phone's
    browser keeps the last answer and asks again every time (no-cache: revalidate, never guess)."""
    etag = f"v{version}"
    if request.if_none_match.contains_weak(etag):  # the usual answer: checked before anything is built
        answer = Response(status=304)
    else:
        answer = jsonify(version=version)
    answer.set_etag(etag)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/live/<token>")
def view(token: str) -> ResponseReturnValue:
    return render_template("live.html", token=token, **game_context(shared_game_id(token)[0]))


def drawn_once(template: str, game_id: int, version: int, **more: str) -> str:
    """``template`` for the game at ``version`` (the shown version counts every entry and note), drawn
    once and served from that to every phone that asks: after a save, eight phones and the tablet
    fetch the same bytes."""
    drawn: KeptLast[str] = current_app.extensions.setdefault("fragments", KeptLast(64))
    key = (template, game_id, version, tuple(sorted(more.items())))
    return drawn.get(key, lambda: render_template(template, **more, **game_context(game_id)))


@bp.get("/live/<token>/fragment")
def fragment(token: str) -> ResponseReturnValue:
    """Just the changing part, fetched by the page when the version moves."""
    game_id, version = shared_game_id(token)
    return drawn_once("_live_fragment_page.html", game_id, version, token=token)


@bp.get("/live/<token>/state")
def state(token: str) -> ResponseReturnValue:
    return version_answer(shared_game_id(token)[1])


@bp.get("/games/<int:game_id>/table")
def table_view(game_id: int) -> ResponseReturnValue:
    return render_template("table_view.html", **game_context(game_id))


@bp.get("/games/<int:game_id>/table/fragment")
def table_fragment(game_id: int) -> ResponseReturnValue:
    try:
        version = get_store().shown_version(game_id)
    except NotFound:
        abort(404)
    return drawn_once("_table_fragment.html", game_id, version)


@bp.get("/games/<int:game_id>/table/state")
def table_state(game_id: int) -> ResponseReturnValue:
    try:
        return version_answer(get_store().shown_version(game_id))
    except NotFound:
        abort(404)


# --- the night's link: one join for the evening (issue 40) -------------------------------------------


def followed_night(token: str) -> int:
    try:
        return get_store().night_by_share_token(token)["id"]
    except NotFound:
        abort(404)


def phone_of() -> str | None:
    """Who the following phone said it is (``?me=Bob``), bounded; None for a spectator."""
    me = (request.args.get("me") or "").strip()
    return me if 0 < len(me) <= MAX_NAME_LENGTH else None


def night_page(token: str, template: str) -> ResponseReturnValue:
    """The followed game drawn as ``template`` (a phone's live view or the table view), with what the
    page needs to follow the night; before the night's first game, a page that waits for it."""
    night_id = followed_night(token)
    me = phone_of() if template == "live.html" else None
    store = get_store()
    found = store.night_followed(night_id, me)
    follow = {"night_token": token, "night_id": night_id, "me": me, "follows": template}
    if found is None:
        return render_template("night_waiting.html", **follow)
    game_id = found[0]
    return render_template(template, token=store.game(game_id)["share_token"], **game_context(game_id), **follow)


@bp.get("/night/<token>")
def night_view(token: str) -> ResponseReturnValue:
    """A phone's view of the evening: the live view of the night's latest game it sits in."""
    return night_page(token, "live.html")


@bp.get("/night/<token>/table")
def night_table(token: str) -> ResponseReturnValue:
    """The tablet in the middle of the table: the night's latest game in big numbers."""
    return night_page(token, "table_view.html")


@bp.get("/night/<token>/state")
def night_state(token: str) -> ResponseReturnValue:
    """What a following phone polls: the game it should show and that game's version, read without
    a replay; 304 while neither moved."""
    found = get_store().night_followed(followed_night(token), phone_of())
    game_id, version = found if found is not None else (0, 0)
    etag = f"g{game_id}v{version}"
    if request.if_none_match.contains_weak(etag):
        answer = Response(status=304)
    else:
        answer = jsonify(game=game_id or None, version=version)
    answer.set_etag(etag)
    answer.headers["Cache-Control"] = "no-cache"
    return answer
