"""scripts/mutation_report.py: the survivors it names as unable to change behaviour by themselves, a
type handed to cast() and SQL written in other letters, and only those."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def report_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_report", ROOT / "scripts" / "mutation_report.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def survivor(before: str, after: str, at: str = "scorekeeper/store/games.py:1") -> dict[str, object]:
    return {"at": at, "before": before, "after": after}


def test_only_the_type_handed_to_cast_changed():
    reason = report_script().reason
    assert reason(survivor("return cast(list[GameRow], rows)", "return cast(None, rows)"), []).startswith("cast()")
    assert reason(survivor("return cast(dict[str, int], rows)", "return cast(None, rows)"), []).startswith("cast()")


def test_the_value_handed_to_cast_is_no_type():
    reason = report_script().reason
    assert reason(survivor("return cast(list[GameRow], rows)", "return cast(list[GameRow], None)"), []) == ""
    assert reason(survivor("x = cast(int, y) + 1", "x = cast(None, y) + 2"), []) == ""


def test_sql_in_other_letters_is_the_same_sql_but_a_name_in_other_letters_is_not():
    reason = report_script().reason
    sql = survivor('"SELECT id FROM games WHERE id = ?"', '"select id from games where id = ?"')
    assert reason(sql, []).startswith("SQL in other letters")
    words = survivor('"Round over"', '"ROUND OVER"', at="scorekeeper/rules/wording.py:1")
    assert reason(words, []) == ""
