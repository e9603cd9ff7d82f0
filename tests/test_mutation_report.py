"""scripts/mutation_report.py: the survivors it names as unable to change behaviour by themselves, a
type handed to cast() and SQL written in other letters, and only those."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from support import script


def report_script() -> ModuleType:
    return script("mutation_report")


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


def mutated_file(mutants: Path, numbers: list[int], body: str) -> Path:
    """A file as mutmut writes it: each mutant a function of its own, its lines in the .spans file."""
    lines: list[str] = []
    spans: dict[str, list[int]] = {}
    for number in numbers:
        name = f"x_play__mutmut_{number}"
        spans[name] = [len(lines) + 1, len(lines) + 2]
        lines += [f"def {name}(hand):", f"    {body}"]
    mutated = mutants / "scorekeeper" / "rules" / "play.py"
    mutated.parent.mkdir(parents=True, exist_ok=True)
    mutated.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mutated.with_suffix(".py.spans").write_text(json.dumps({"spans": spans}), encoding="utf-8")
    return mutated


def test_a_mutant_is_known_by_what_it_is_not_by_its_number(tmp_path, monkeypatch):
    script = report_script()
    monkeypatch.setattr(script, "MUTANTS", tmp_path / "first")
    first = script.mutant_digests(mutated_file(tmp_path / "first", [3], "return len(hand) + 1"))
    monkeypatch.setattr(script, "MUTANTS", tmp_path / "second")
    renumbered = script.mutant_digests(mutated_file(tmp_path / "second", [7], "return len(hand) + 1"))
    assert list(first.values()) == list(renumbered.values())
    monkeypatch.setattr(script, "MUTANTS", tmp_path / "third")
    other = script.mutant_digests(mutated_file(tmp_path / "third", [3], "return len(hand) - 1"))
    assert list(first.values()) != list(other.values())


def test_a_fresh_run_keeps_the_verdicts_of_mutants_it_has_seen_and_runs_the_rest(tmp_path, monkeypatch):
    script = report_script()
    mutants = tmp_path / "mutants"
    monkeypatch.setattr(script, "MUTANTS", mutants)
    mutated = mutated_file(mutants, [1, 2], "return len(hand) + 1")
    known = script.mutant_digests(mutated)
    report = tmp_path / "MUTATION.json"
    report.write_text(json.dumps({"verdicts": {known["scorekeeper.rules.play.x_play__mutmut_1"]: 1}}))
    lines = mutated.read_text().split("\n")
    lines[3] = "    return len(hand) * 2"  # mutant 2 is another mutant now
    mutated.write_text("\n".join(lines))
    meta = mutated.with_suffix(".py.meta")
    keys = ["scorekeeper.rules.play.x_play__mutmut_1", "scorekeeper.rules.play.x_play__mutmut_2"]
    meta.write_text(json.dumps({"exit_code_by_key": dict.fromkeys(keys)}))
    assert script.seed_from_earlier_runs(report) == 1
    assert json.loads(meta.read_text())["exit_code_by_key"] == {keys[0]: 1, keys[1]: None}


def test_a_verdict_of_the_time_limit_is_not_kept(tmp_path, monkeypatch):
    script = report_script()
    mutants = tmp_path / "mutants"
    monkeypatch.setattr(script, "MUTANTS", mutants)
    mutated = mutated_file(mutants, [1, 2], "return len(hand) + 1")
    keys = ["scorekeeper.rules.play.x_play__mutmut_1", "scorekeeper.rules.play.x_play__mutmut_2"]
    mutated.with_suffix(".py.meta").write_text(json.dumps({"exit_code_by_key": dict(zip(keys, [1, -24], strict=True))}))
    assert list(script.verdicts_of_the_run().values()) == [1]


def test_a_survivor_runs_again_since_a_test_added_since_may_kill_it(tmp_path, monkeypatch):
    script = report_script()
    mutants = tmp_path / "mutants"
    monkeypatch.setattr(script, "MUTANTS", mutants)
    mutated = mutated_file(mutants, [1, 2], "return len(hand) + 1")
    lines = mutated.read_text().split("\n")
    lines[3] = "    return len(hand) * 2"  # two mutants, each its own
    mutated.write_text("\n".join(lines))
    known = script.mutant_digests(mutated)
    keys = ["scorekeeper.rules.play.x_play__mutmut_1", "scorekeeper.rules.play.x_play__mutmut_2"]
    report = tmp_path / "MUTATION.json"
    report.write_text(json.dumps({"verdicts": {known[keys[0]]: 1, known[keys[1]]: 0}}))
    meta = mutated.with_suffix(".py.meta")
    meta.write_text(json.dumps({"exit_code_by_key": dict.fromkeys(keys)}))
    assert script.seed_from_earlier_runs(report) == 1
    assert json.loads(meta.read_text())["exit_code_by_key"] == {keys[0]: 1, keys[1]: None}
