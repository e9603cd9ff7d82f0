"""Scorekeeper: a scorekeeper's app for the penny rummy family (Ten Pennies and its cousins)."""

from __future__ import annotations

import errno
import os
import secrets
import sys
from pathlib import Path
from typing import Any, NoReturn

import platformdirs
from flask import Flask, Response
from werkzeug.routing import IntegerConverter, Map

from . import store as store_module
from .commands import TRUSTED, derived, run
from .commands.ratings import RatingWorker
from .commands.rulesets import KeepVersions
from .host import cli
from .reads.catalog import Catalog, load_catalog
from .web import TrustedProxies, assets, words
from .web.compression import gzip_response

__version__ = "0.2.0"  # the wheel's too (pyproject.toml reads it); CHANGELOG.md says what each brought

PACKAGE_DIR = Path(__file__).resolve().parent
# A git checkout keeps templates/ and static/ at its top and its instance/ beside them; the wheel puts
# templates/ and static/ inside the package, and the instance in the user's data folder.
CHECKOUT = PACKAGE_DIR.parent if (PACKAGE_DIR.parent / "pyproject.toml").is_file() else None
LOCAL_HOSTS = ("localhost", "127.0.0.1")  # the server binds IPv4 only (waitress on 127.0.0.1 or 0.0.0.0)
MAX_ROW_ID = 2**63 - 1  # SQLite's largest integer
MAX_REQUEST_BYTES = 64 * 1024  # a whole round for 8 players is a few hundred bytes

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def instance_secret(instance_path: Path) -> str:
    """A SECRET_KEY made once per instance and kept in ``instance/secret_key`` (never in git)."""
    path = instance_path / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def app_folder(name: str) -> Path:
    """templates/ or static/: in the package when installed from the wheel, else at the checkout's top."""
    installed = PACKAGE_DIR / name
    return installed if installed.is_dir() or CHECKOUT is None else CHECKOUT / name


def default_instance_path() -> Path:
    """SCOREKEEPER_INSTANCE (or `scorekeeper --instance`), else instance/ in a checkout, else the
    platform's user data folder (~/.local/share/scorekeeper on Linux)."""
    chosen = os.environ.get("SCOREKEEPER_INSTANCE")
    if chosen:
        return Path(chosen)
    if CHECKOUT is not None:
        return CHECKOUT / "instance"
    return platformdirs.user_data_path("scorekeeper", appauthor=False)


def create_app(test_config: dict[str, Any] | None = None, *, open_database: bool = True) -> Flask:
    """The app (flaskr's factory), as the list of what it is made of. ``open_database=False`` skips
    the start-up check and migrations, for `scorekeeper restore`, which must work on a database too
    damaged to start with."""
    app = flask_app(default_instance_path())
    configure(app, test_config)
    load_rulesets(app)
    if open_database:
        open_store(app)
    register_blueprints(app)
    register_helpers(app)
    guard_requests(app)
    return app


def flask_app(instance_path: Path) -> Flask:
    """Flask with its templates, static files and instance folder (made if missing)."""
    app = Flask(
        __name__,
        instance_path=str(instance_path),
        instance_relative_config=True,
        template_folder=str(app_folder("templates")),
        static_folder=str(app_folder("static")),
    )
    try:
        instance_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        start_up_failed(
            f"cannot use the instance folder {instance_path} ({error.strerror}): make it a folder this user "
            "can write, or set SCOREKEEPER_INSTANCE to one"
        )
    return app


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The defaults, then instance/config.py (or a test's settings), then the trusted names and the key."""
    instance_path = Path(app.instance_path)
    app.config.from_mapping(
        DATABASE=str(instance_path / "scorekeeper.sqlite"),
        RULESETS_DIR=str(instance_path / "rulesets"),
        BACKUPS_DIR=str(instance_path / "backups"),
        AUTO_BACKUP=True,  # at start (scorekeeper serve) and when a night is closed
        MIRROR=None,  # a folder on another disk the server keeps a copy of the database in
        MIRROR_SECONDS=30,  # how often, at most, the mirror is brought up to date
        RATING=False,  # the players' skill rating: off until the house asks for it (RATING = True)
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        WTF_CSRF_TIME_LIMIT=None,  # a game page may stay open all evening
        SESSION_COOKIE_SAMESITE="Lax",  # no unlocked session rides along on another site's request
        TRUSTED_HOSTS=[],  # names added to LOCAL_HOSTS (instance/config.py); serve --network adds its own
        TRUSTED_PROXIES=[],  # addresses of reverse proxies in front, whose X-Forwarded-* headers count
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    # DNS rebinding: a web page a player opens could drive a server on this computer under another
    # name; only requests for the names this server is known by are answered (others: 400).
    app.config["TRUSTED_HOSTS"] = [*LOCAL_HOSTS, *(app.config["TRUSTED_HOSTS"] or [])]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = kept_secret(instance_path)


def kept_secret(instance_path: Path) -> str:
    """The instance's secret key, or one clear line on why it cannot be kept."""
    try:
        return instance_secret(instance_path)
    except OSError as error:
        if error.errno == errno.ENOSPC:
            start_up_failed(
                f"the disk holding the instance folder {instance_path} is full (no room for its secret key): "
                "free some space on it, then start again"
            )
        start_up_failed(
            f"cannot keep the secret key in the instance folder {instance_path} ({error.strerror}): "
            "make the folder writable by this user"
        )


def load_rulesets(app: Flask) -> None:
    """The shipped rulesets and the house's own; a house file that cannot be read is said, not fatal."""
    catalog = load_catalog(Path(app.config["RULESETS_DIR"]))
    for problem in catalog.problems:  # the new-game page shows them too
        print(f"scorekeeper: house ruleset skipped: {problem}", file=sys.stderr)
    app.extensions["rulesets"] = catalog


def open_store(app: Flask) -> None:
    """The database checked and migrated, what an upgrade left worked out, and the rating worker."""
    catalog = app.extensions["rulesets"]
    try:
        store_module.init_app(app)
        refresh_stale_nights(app.config["DATABASE"], catalog)
    except store_module.StartUpProblem as problem:
        start_up_failed(str(problem))
    if app.config["RATING"]:  # worked out off the requests, by one thread
        app.extensions["ratings"] = RatingWorker(app.config["DATABASE"], catalog)


def register_blueprints(app: Flask) -> None:
    """One blueprint per area; the JSON API outside the forms' CSRF check."""
    from .api import bp as api_bp
    from .errors import bp as errors_bp
    from .games import bp as games_bp
    from .help import bp as help_bp
    from .homescreen import bp as homescreen_bp
    from .live import bp as live_bp
    from .melds import bp as melds_bp
    from .nights import bp as nights_bp
    from .players import bp as players_bp
    from .printing import bp as printing_bp
    from .printing.cards import bp as cards_bp
    from .rulesets import bp as rulesets_bp
    from .web.forms import csrf

    # Every <int:…> in a route is a row id: digits beyond what SQLite stores match no route (404).
    app.url_map.converters["int"] = RowIdConverter
    csrf.init_app(app)
    csrf.exempt(api_bp)  # JSON clients send no cookies to forge; the lock issue adds tokens
    areas = (errors_bp, games_bp, api_bp, melds_bp, printing_bp, cards_bp, nights_bp, players_bp, live_bp)
    for blueprint in (*areas, rulesets_bp, help_bp, homescreen_bp):
        app.register_blueprint(blueprint)
    app.add_url_rule("/healthz", "healthz", healthz)


def register_helpers(app: Flask) -> None:
    """The templates' words and version, the console commands and the fingerprinted assets."""
    words.register(app)
    app.extensions["docs_folder"] = app_folder("docs")
    app.jinja_env.globals["version"] = __version__
    cli.register(app)
    assets.register(app)


def guard_requests(app: Flask) -> None:
    """Every response's security headers and compression; proxies' headers only from trusted ones."""
    app.after_request(security_headers)
    app.wsgi_app = TrustedProxies(app.wsgi_app, list(app.config["TRUSTED_PROXIES"] or []))  # type: ignore[method-assign]
    app.after_request(gzip_response)


def start_up_failed(message: str) -> NoReturn:
    """One clear line (what, where, what to do) and a non-zero exit: no traceback for a table to read."""
    raise SystemExit(f"scorekeeper: {message}")


class RowIdConverter(IntegerConverter):
    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, max=MAX_ROW_ID)


def refresh_stale_nights(database: str, catalog: Catalog) -> None:
    """Keep each ruleset's version (pinning the games from before versions were kept), then work out
    the carries of nights, and the results of games, an upgrade left to the engine (once; usually
    none)."""
    store = store_module.Store(database)
    try:
        run(store, catalog, KeepVersions(), TRUSTED)
        derived.refresh_stale_nights(store, catalog)
        derived.refresh_stale_results(store, catalog)
    finally:
        store.close()


def healthz() -> Response:
    """A trivial route: for monitoring, and the benchmark's floor."""
    return Response("ok", mimetype="text/plain")


def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
