"""The request side's helpers, shared by every blueprint: who asks (``access``: the locks a page's
session or an API token opened) and the PIN page (``unlocking``), the shared forms (``forms``), the
template filters (``words``), the static files named by their digest (``assets``), gzip (``compression``)
and the links and QR codes the phones open (``sharing``). They may use the commands, the read models, the
store and the rules; only the blueprints, the host side and the app factory use them.

This module itself is what every blueprint reaches for in a request: the app's rulesets, and a write
asked for by the page's browser (through the one runner: the blueprints decide no lock and open no
transaction)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from flask import Blueprint, abort, current_app, render_template, request

from ..commands import Answered, EntryKey, run
from ..commands.outcomes import Outcome, attempt
from ..commands.ratings import RatingWorker
from ..commands.runner import Command, Guarded, refuse_unopened
from ..reads.catalog import Catalog
from ..store import NotFound, get_store
from ..store.backups import make_backup
from .access import page_asker

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

T = TypeVar("T")
View = TypeVar("View", bound=Callable[..., Any])


def current_catalog() -> Catalog:
    """The app's rulesets, with the house rulesets as the store holds them now."""
    catalog: Catalog = current_app.extensions["rulesets"]
    if catalog.house_mark is not None:  # the store was opened at start-up
        catalog.refresh_house(get_store())
    return catalog


def page_write(command: Command[T]) -> T:
    """Run ``command`` for this browser (a write that is the same however often it is sent)."""
    done = run(get_store(), current_catalog(), command, page_asker())
    assert not isinstance(done, Answered)  # only an entry key is ever answered from before
    written()
    return done


def page_entry(make: Callable[[], Command[T]], entry_key: str | None) -> Outcome[T]:
    """The command ``make`` builds, run for this browser once per form entry key: what it came to
    (``AlreadySaved`` when the key was recorded already: a second tap, Back then Save, a resend)."""
    outcome = attempt(get_store(), current_catalog(), make, page_asker(), EntryKey.form(entry_key))
    written()
    return outcome


def changes(view: View) -> View:
    """Marks a route that changes what its address names (a game, a night): who may use it is decided
    once, before the view runs (``decide_access_once``), by the runner's own lock check."""
    view.changes_what_it_names = True  # type: ignore[attr-defined]
    return view


def decide_access_once(blueprint: Blueprint, change_of: Callable[[Mapping[str, Any]], Guarded]) -> None:
    """Before each of ``blueprint``'s routes marked ``changes``: a browser that has not opened the lock
    of what the address names (``change_of`` its view arguments) is refused there (each blueprint sends
    that refusal to its PIN page), and an address naming nothing is not found. The runner checks the
    write itself again, under the write lock."""

    @blueprint.before_request
    def refuse_a_locked_browser() -> None:
        view = current_app.view_functions.get(request.endpoint or "")
        if getattr(view, "changes_what_it_names", False):
            try:
                refuse_unopened(get_store(), change_of(request.view_args or {}), page_asker())
            except NotFound:
                abort(404)


def confirm_delete_page(what: str, label: str, consequence: str, action: str, back: str) -> str:
    """The question before a delete: what goes, that a backup is made and how it comes back."""
    from ..store.deleted import KEPT_DAYS

    return render_template(
        "confirm_delete.html",
        what=what,
        label=label,
        consequence=consequence,
        kept_days=KEPT_DAYS,
        action=action,
        back=back,
    )


def backed_up(reason: str) -> None:
    """A backup before a change a page asks for that the table cannot take back with Undo."""
    make_backup(get_store(), current_app.config["BACKUPS_DIR"], reason)


def rating_worker() -> RatingWorker | None:
    """The worker that keeps the rating worked out: None while the house has the rating off."""
    worker: RatingWorker | None = current_app.extensions.get("ratings")
    return worker


def written() -> None:
    """After a write: what it made stale is worked out again off the request (the rating)."""
    worker = rating_worker()
    if worker is not None:
        worker.nudge()


FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT")


class TrustedProxies:
    """The phone's address, the scheme and the host name as a reverse proxy in front (Caddy, nginx, a
    container's) forwards them, read only from a request that comes from one of ``proxies``
    (TRUSTED_PROXIES in config.py); from anyone else those headers are dropped, so a phone cannot
    claim another's address or a name the app does not answer to."""

    def __init__(self, app: WSGIApplication, proxies: list[str]) -> None:
        from werkzeug.middleware.proxy_fix import ProxyFix

        self.app = app
        self.proxies = frozenset(proxies)
        self.forwarded = ProxyFix(app, x_for=1, x_proto=1, x_host=1, x_port=1)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REMOTE_ADDR") in self.proxies:
            return self.forwarded(environ, start_response)
        for header in FORWARDED_HEADERS:
            environ.pop(header, None)
        return self.app(environ, start_response)
