"""scripts/mutmut_budgeted.py: each mutant runs the tests that reach its function, quickest first,
until their measured time would pass the budget, and always at least one."""

from __future__ import annotations

from types import ModuleType

from support import script


def budgeted_script() -> ModuleType:
    return script("mutmut_budgeted")


DURATIONS = {"slow": 3.0, "quick": 0.1, "middling": 1.0, "another_quick": 0.1}


def test_the_quickest_run_first_and_the_budget_stops_the_rest():
    chosen = budgeted_script().quickest_within_budget(DURATIONS, DURATIONS, 1.5)
    assert chosen == ["another_quick", "quick", "middling"]


def test_a_test_that_fits_the_budget_exactly_is_run():
    assert budgeted_script().quickest_within_budget(DURATIONS, DURATIONS, 1.2) == ["another_quick", "quick", "middling"]


def test_a_function_reached_only_by_a_slow_test_still_runs_it():
    assert budgeted_script().quickest_within_budget(["slow"], DURATIONS, 0.5) == ["slow"]


def test_a_test_never_timed_counts_as_free():
    assert budgeted_script().quickest_within_budget(["quick", "new"], DURATIONS, 0.1) == ["new", "quick"]


def test_no_tests_reach_it_no_tests_run():
    assert budgeted_script().quickest_within_budget([], DURATIONS, 5.0) == []


class Call:
    def __init__(self, when: str, duration: float) -> None:
        self.when, self.duration = when, duration


class Item:
    nodeid = "tests/test_pages.py::test_a_page"


def test_a_tests_fixtures_count_in_its_time():
    """mutmut times only the call; the setup that builds the app and its teardown count too."""
    durations = {Item.nodeid: 0.01}  # the call, as mutmut measured it
    plugin = budgeted_script().WholeTestTimes(durations)
    for when, seconds in (("setup", 0.3), ("call", 0.01), ("teardown", 0.05)):
        plugin.pytest_runtest_makereport(Item(), Call(when, seconds))
    assert round(durations[Item.nodeid], 2) == 0.36
