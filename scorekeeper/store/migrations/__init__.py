"""The schema, one sqlite-utils migration at a time (never edit an applied one: add another). They
are applied in the order they are registered: ``early`` (m001–m012), then ``later`` (m013 on)."""

from __future__ import annotations

from . import early, later
from .steps import migrations

__all__ = ["early", "later", "migrations"]
