"""What every blueprint reaches for in a request: the app's rulesets."""

from __future__ import annotations

from flask import current_app

from .catalog import Catalog


def current_catalog() -> Catalog:
    catalog: Catalog = current_app.extensions["rulesets"]
    return catalog
