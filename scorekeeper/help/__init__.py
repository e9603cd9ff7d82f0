"""Help in the app (issue 43): the user's guide and the other pages of docs/ served as pages of the
app, with their pictures, so that the table can read them offline; and the one-sentence meanings of
the words the table uses, shown where each word first appears on screen."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import markdown
from flask import Blueprint, abort, current_app, render_template, request, send_file, send_from_directory
from flask.typing import ResponseReturnValue
from markupsafe import Markup

bp = Blueprint("help", __name__)

PAGES = {
    "guide": "The user's guide",
    "rules": "The rules as this app reads them",
    "features": "What Scorekeeper does",
    "host": "Hosting Scorekeeper",
    "security": "Security",
    "api": "The JSON API",
    "benchmarks": "Benchmarks",
    "development": "Development",
}
_MD_LINK = re.compile(r'href="([a-z-]+)\.md(#[^"]*)?"')


def docs_folder() -> Path:
    folder = current_app.extensions["docs_folder"]
    assert isinstance(folder, Path)
    return folder


@functools.lru_cache(maxsize=16)
def rendered(path: Path, changed: float) -> Markup:
    """A docs page as HTML (read again when the file changed): a link to another page of docs/ leads
    to that page here."""
    html = markdown.markdown(path.read_text(encoding="utf-8"), extensions=["tables", "toc", "fenced_code"])
    return Markup(_MD_LINK.sub(lambda m: f'href="{m.group(1)}{m.group(2) or ""}"', html))


# The words the table uses, each in one sentence, shown with a tap where it first appears on screen.
TERMS = {
    "buy": (
        "a buy",
        "A buy takes the discard out of turn, with extra cards from the deck; in Ten Pennies each buy "
        "costs a penny from the player's stack of ten, into the bowl.",
    ),
    "bowl": (
        "the bowl",
        "The bowl is where the pennies go (one for every card caught and every buy); the winner "
        "takes it at the end of the game.",
    ),
    "caught": (
        "caught",
        "The cards a player still holds when someone goes out are caught: they count against "
        "that player in points (and pennies).",
    ),
    "contract": (
        "the contract",
        "The contract is what a round asks of a player's first meld on the table, such as 2 sets of 3.",
    ),
    "paper": (
        "on paper",
        "On paper, no coins move during play: at the end the night page lists the fewest "
        "payments that settle everyone.",
    ),
    "draft": (
        "a draft",
        "A draft is a hand a player tapped on their own phone: it fills their line on the "
        "scorekeeper's form until the scorekeeper saves.",
    ),
}


@bp.app_template_global()
def term_words(key: str) -> tuple[str, str]:
    """(what the word is called, its one sentence)."""
    return TERMS[key]


@bp.get("/help/")
@bp.get("/help/<page>")
def show(page: str = "guide") -> ResponseReturnValue:
    if page not in PAGES:
        abort(404)
    path = docs_folder() / f"{page}.md"
    if not path.is_file():
        abort(404)
    return render_template(
        "help.html", title=PAGES[page], body=rendered(path, path.stat().st_mtime), pages=PAGES, page=page
    )


@bp.get("/help/images/<path:name>")
def image(name: str) -> ResponseReturnValue:
    return send_from_directory(docs_folder() / "images", name, max_age=3600)


@bp.get("/help/this-phone")
def this_phone() -> ResponseReturnValue:
    """How this device reaches the server, as the server sees it (behind a trusted proxy: the phone's
    own address and scheme), and the certificate that makes https trusted, where the host set one."""
    return render_template(
        "this_phone.html",
        title="This phone",
        address=request.remote_addr,
        secure=request.is_secure,
        reached_at=request.host_url,
        certificate=trust_certificate() is not None,
        pages=PAGES,
        page="this-phone",
    )


@bp.get("/help/this-phone/scorekeeper-ca.crt")
def certificate() -> ResponseReturnValue:
    path = trust_certificate()
    if path is None:
        abort(404)
    return send_file(path, mimetype="application/x-x509-ca-cert", download_name="scorekeeper-ca.crt", max_age=0)


def trust_certificate() -> Path | None:
    """TRUST_CERTIFICATE in config.py: the local CA's root certificate (Caddy's ``tls internal``)."""
    chosen = current_app.config.get("TRUST_CERTIFICATE")
    if not chosen or not Path(chosen).is_file():
        return None
    return Path(chosen)
