"""Error pages (HTML) and JSON errors for the API: unknown ids answer 404, never 500."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

bp = Blueprint("errors", __name__)


def wants_json() -> bool:
    return request.path.startswith("/api/")


@bp.app_errorhandler(CSRFError)
def csrf_error(error: CSRFError) -> tuple[str, int]:
    message = "This form has expired or did not come from this app. Reload the page and try again."
    return render_template("error.html", code=400, message=message), 400


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    message = {
        404: "There is nothing here: the game or page may have been mistyped.",
        405: "That action is not allowed here.",
        413: "That was too much data for one request.",
    }.get(code, error.description or "Something went wrong.")
    if wants_json():
        return jsonify(error=message), code
    return render_template("error.html", code=code, message=message), code
