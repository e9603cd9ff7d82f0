"""The list every migration registers with, in the order its module is imported (``__init__``)."""

from __future__ import annotations

from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")
