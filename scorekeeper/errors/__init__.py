"""Error pages (HTML) and JSON errors for the API: unknown ids answer 404, never 500."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, SecurityError

from ..commands import KeyReused
from ..reads.loading import MissingRuleset

bp = Blueprint("errors", __name__)


def wants_json() -> bool:
    return request.path.startswith("/api/")


@bp.app_errorhandler(CSRFError)
def csrf_error(error: CSRFError) -> tuple[str, int]:
    message = "This form has expired or did not come from this app. Reload the page and try again."
    return render_template("error.html", code=400, message=message), 400


@bp.app_errorhandler(SecurityError)
def untrusted_host(error: SecurityError) -> ResponseReturnValue:
    """A request for a host name this server is not known by (DNS rebinding): plain text, since no
    page of the app can be linked under a name that is refused."""
    message = "This Scorekeeper answers only to its own addresses: open it by the address it printed when it started."
    return Response(message + "\n", status=400, mimetype="text/plain")


@bp.app_errorhandler(MissingRuleset)
def missing_ruleset(error: MissingRuleset) -> ResponseReturnValue:
    """A game whose house ruleset file was removed: say which file to put back (nothing is lost)."""
    if wants_json():
        return jsonify(error=str(error)), 409
    return render_template("error.html", code=409, message=str(error)), 409


@bp.app_errorhandler(KeyReused)
def key_of_another_form(error: KeyReused) -> ResponseReturnValue:
    """A page's form sent with the entry key of another form (another game's, another kind of write):
    nothing is recorded, and the page says so (the API answers its own way)."""
    message = (
        "This form's key belongs to another form (another game or another kind of entry): nothing was saved. "
        "Go back, reload the page and enter it again."
    )
    return render_template("error.html", code=409, message=message), 409


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    message = {
        404: "There is nothing here: the game or page may have been mistyped.",
        405: "That action is not allowed here.",
        413: "That was too much data for one request.",
    }.get(code, error.description or "Something went wrong.")
    failure = getattr(error, "original_exception", None)
    if failure is not None:  # a page that failed (the server has logged how): say what, in one line
        message = unreadable(failure)
    if wants_json():
        return jsonify(error=message), code
    return render_template("error.html", code=code, message=message), code


@bp.app_errorhandler(sqlite3.OperationalError)
def database_trouble(error: sqlite3.OperationalError) -> ResponseReturnValue:
    """The database could not take a write (issue 41): a full disk is named as a full disk, a busy
    database as busy, never a bare 500 and never as damage; nothing was saved either way."""
    text = str(error).lower()
    if "full" in text:
        code, message = (
            507,
            (
                "The server's disk is full: nothing was saved. Free some space on it (old files, a full download "
                "folder), then send this again."
            ),
        )
    elif "locked" in text or "busy" in text:
        code, message = (
            503,
            "The database is busy (a backup or another program holds it): nothing was saved. Try again.",
        )
    else:
        code, message = 500, f"The database could not be used ({error}): nothing was saved."
    if wants_json():
        return jsonify(error=message), code
    return render_template("error.html", code=code, message=message), code


def unreadable(failure: BaseException) -> str:
    """What a page that failed says, in one line: usually something in the database it cannot read
    (a cell changed by hand, an odd import), and what the host can do about it."""
    what = " ".join(f"{type(failure).__name__}: {failure}".split())[:300]
    return (
        f"This page could not be shown: {request.path} met something in the database it cannot read ({what}). "
        "If the database was edited by hand, put the change back or restore a backup (`scorekeeper restore` "
        "lists them)."
    )
