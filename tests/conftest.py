"""Fixtures in the manner of flaskr: an app on a real temporary SQLite file, a client, a runner."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from support import Api, copy_of_migrated, make_app

from scorekeeper.reads.catalog import load_catalog
from scorekeeper.rules.rulesets import Ruleset
from scorekeeper.store import Store

# Hypothesis: a developer's run stays quick; CI (HYPOTHESIS_PROFILE=ci, set by .ci/run) tries more
# examples (each property test asks support.examples() for its count) and prints how to reproduce a failure.
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "ci", max_examples=200, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def rulesets() -> dict[str, Ruleset]:
    return load_catalog(None).rulesets


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield make_app(tmp_path)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store of its own, migrated, with no app: for tests of the store and the commands alone."""
    kept = Store(copy_of_migrated(tmp_path / "store.sqlite3"))
    kept.migrate()  # nothing left to apply: the copy is migrated; kept so the store is as the app opens it
    yield kept
    kept.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> Any:
    return app.test_cli_runner()


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


# The files whose tests take longest (a CI run's --durations): started first, so that no process is
# left running one of them alone at the end while the others wait (pytest-xdist hands tests out in order).
LONGEST_FIRST = [
    "test_security.py",
    "test_melds_reference.py",
    "test_odd_input.py",
    "test_late_tap.py",
    "test_together.py",
    "test_two_phones.py",
    "test_every_player_reads.py",
    "test_entries.py",
    "test_table.py",
    "test_printing.py",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is a browser test: `pytest -m "not browser"` leaves them out.
    The longest files go first (a stable sort: each file's tests keep their order)."""
    for item in items:
        if "browser" in item.path.parent.parts[-1:]:
            item.add_marker(pytest.mark.browser)
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB disk of its own (a tmpfs) to fill: only where the tests run as root and may mount one."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a tmpfs of its own: mounting one needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"could not mount a tmpfs here: {mounted.stderr.decode().strip()}")
    yield disk
    assert subprocess.run(["umount", str(disk)], capture_output=True).returncode == 0  # nothing left open
