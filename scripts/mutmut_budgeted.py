"""mutmut, with each mutant's tests run fastest first and capped at a budget of their measured time.

Unpatched, mutmut runs every test that reaches a mutated function, in no set order. The game's setup and
the store are reached by nearly every test, so one surviving mutant there runs the whole suite (minutes)
and a full run over rules/, commands/ and store/ takes days on two cores. Here each mutant gets the tests
that reach its function, quickest first, until their measured time would pass MUTATE_BUDGET_S seconds
(always at least one); a test's time counts its fixtures, which mutmut's own measure leaves out. A kill
is a kill whatever the budget; a mutant that survives its budget might still have died to a slower test,
so the score can only be understated, never flattered.

    .venv/bin/python scripts/mutmut_budgeted.py run --max-children 2     (scripts/mutate runs this)

A run in a fresh checkout starts from MUTATION.json: every mutant whose digest (its file and its
function's text) the last report holds as killed counts as killed, so only mutants of changed code, new
ones and the survivors (a test added since may kill them) run again.

Two more savings: the clean run before the mutants runs the tests the mutants will run, not the whole
suite; and a run resumed over an existing mutants/ folder does not measure coverage again (the mutants
are already made from it)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

BUDGET_S = float(os.environ.get("MUTATE_BUDGET_S", "5"))


def quickest_within_budget(tests: Iterable[str], durations: dict[str, float], budget_s: float) -> list[str]:
    """The tests, quickest first, while their measured time stays within the budget (at least one)."""
    chosen: list[str] = []
    spent = 0.0
    for test in sorted(tests, key=lambda name: (durations.get(name, 0.0), name)):
        cost = durations.get(test, 0.0)
        if chosen and spent + cost > budget_s:
            break
        chosen.append(test)
        spent += cost
    return chosen


class WholeTestTimes:
    """A pytest plugin for mutmut's stats run: adds each test's setup and teardown to its measured time.
    mutmut counts only the call, so a test whose app is built by its fixtures looked nearly free, was run
    first and cost far more than the budget said."""

    def __init__(self, durations: dict[str, float]) -> None:
        self.durations = durations

    def pytest_runtest_makereport(self, item: Any, call: Any) -> None:
        if call.when in ("setup", "teardown"):
            self.durations[item.nodeid] = self.durations.get(item.nodeid, 0.0) + call.duration


def install() -> Callable[[], Any]:
    """Patch mutmut's run as the module text says; the answer is mutmut's command line."""
    import mutmut.__main__ as mutmut_cli
    from mutmut.runners.harness import PytestRunner
    from mutmut.state import state

    original_stats = PytestRunner.run_stats

    def stats_with_whole_test_times(self: Any, *, tests: Iterable[str]) -> int:
        original_execute = self.execute_pytest

        def with_fixture_times(params: list[str], **kwargs: Any) -> int:
            plugins = [*kwargs.pop("plugins", []), WholeTestTimes(state().duration_by_test)]
            answer: int = original_execute(params, plugins=plugins, **kwargs)
            return answer

        own = vars(self).get("execute_pytest")
        self.execute_pytest = with_fixture_times
        try:
            answer: int = original_stats(self, tests=tests)
            return answer
        finally:
            if own is None:
                del self.execute_pytest
            else:
                self.execute_pytest = own

    original_tests_for = mutmut_cli.tests_for_mutant_names
    original_coverage = mutmut_cli.store_lines_covered_by_tests
    original_collect = mutmut_cli.collect_or_load_stats
    original_create = mutmut_cli.create_mutants

    def create_then_seed(*args: Any, **kwargs: Any) -> Any:
        made = original_create(*args, **kwargs)
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from mutation_report import seed_from_earlier_runs

        seeded = seed_from_earlier_runs(Path(__file__).resolve().parents[1] / "MUTATION.json")
        # mutmut catches what is printed while it makes the mutants: this goes to the terminal itself.
        print(f"{seeded} mutants of unchanged code stay killed, as MUTATION.json has them", file=sys.__stdout__)
        return made

    def collect_then_budget(*args: Any, **kwargs: Any) -> Any:
        answer = original_collect(*args, **kwargs)
        tests_by_function: Any = state().tests_by_mangled_function_name
        for function, tests in list(tests_by_function.items()):
            # A list keeps its order: mutmut hands it to pytest as it is, and -x stops at the first failure.
            tests_by_function[function] = quickest_within_budget(tests, state().duration_by_test, BUDGET_S)
        return answer

    def tests_the_mutants_run(mutant_names: tuple[str, ...] | list[str]) -> set[str]:
        if mutant_names:
            return set(original_tests_for(mutant_names))
        return {test for tests in state().tests_by_mangled_function_name.values() for test in tests}

    def coverage_unless_resumed() -> None:
        # Resumed over the same sources only: the mutants already made are reused, not made again.
        if not Path("mutants/mutmut-stats.json").exists():
            original_coverage()

    mutmut_cli.collect_or_load_stats = collect_then_budget
    PytestRunner.run_stats = stats_with_whole_test_times  # type: ignore[method-assign]
    mutmut_cli.create_mutants = create_then_seed
    mutmut_cli.tests_for_mutant_names = tests_the_mutants_run
    mutmut_cli.store_lines_covered_by_tests = coverage_unless_resumed
    cli: Callable[[], Any] = mutmut_cli.cli
    return cli


def write_down_the_budget() -> None:
    """mutants/mutmut-budget.json: the smallest budget any mutant of this folder ran under (a run resumed
    under another budget keeps the smaller), so the report never claims more tests than were run."""
    written = Path("mutants/mutmut-budget.json")
    budget = BUDGET_S
    if written.exists():
        budget = min(budget, float(json.loads(written.read_text(encoding="utf-8"))["budget_s"]))
    written.parent.mkdir(exist_ok=True)
    written.write_text(json.dumps({"budget_s": budget}) + "\n", encoding="utf-8")


if __name__ == "__main__":
    print(f"each mutant runs the quickest tests that reach it, up to {BUDGET_S:g} s of their measured time")
    write_down_the_budget()
    install()()
