"""Fixtures in the manner of flaskr: an app on a real temporary SQLite file, a client, a runner."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from support import Api, make_app

from scorekeeper.catalog import load_catalog
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
    kept = Store(tmp_path / "store.sqlite3")
    kept.migrate()
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is a browser test: `pytest -m "not browser"` leaves them out."""
    for item in items:
        if "browser" in item.path.parent.parts[-1:]:
            item.add_marker(pytest.mark.browser)
