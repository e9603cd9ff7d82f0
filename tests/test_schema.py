"""The schema's history: a database made by an earlier version loses what nothing reads any more."""

from __future__ import annotations

from pathlib import Path

from sqlite_utils import Database
from support import make_app

from scorekeeper.store.migrations import migrations


def test_the_orphaned_player_stats_table_goes_when_an_older_database_is_opened(tmp_path: Path):
    """player_stats was written by m005 and read by nothing after m010: one home (ruleset_stats)."""
    old = tmp_path / "old.db"
    db = Database(old)
    migrations.apply(db, stop_before="m015_drop_player_stats")
    assert "player_stats" in db.table_names()
    db.close()
    app = make_app(tmp_path / "upgraded", DATABASE=str(old))
    upgraded = app.test_client()
    assert upgraded.get("/players").status_code == 200
    assert "player_stats" not in Database(old).table_names()
    upgraded_db = Database(old)
    assert "ruleset_stats" not in upgraded_db.table_names()  # m021: one home for a record, player_days
    for table in ("player_days", "pair_days"):  # their rows kept in their key: no copy in an index
        assert upgraded_db.table(table).schema.endswith("WITHOUT ROWID")


def test_the_wheel_holds_every_package_of_the_app():
    """pyproject.toml lists the packages the wheel holds: a new blueprint left off the list would be
    missing from every install (the checkout would still work, so nothing else would notice)."""
    import tomllib

    root = Path(__file__).resolve().parents[1]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(path.parent.relative_to(root).parts) for path in (root / "scorekeeper").rglob("__init__.py")}
    folders = {"scorekeeper.templates", "scorekeeper.static", "scorekeeper.docs", "scorekeeper.contrib"}
    data = {
        "scorekeeper.rules.data",
        "scorekeeper.templates.pdf",
        "scorekeeper.static.css",
        "scorekeeper.static.js",
        "scorekeeper.static.media",
        "scorekeeper.static.fonts",
        "scorekeeper.docs.images",
    }
    assert listed == found | folders | data
