"""The runner every write goes through (scorekeeper/commands/runner.py)."""

from __future__ import annotations


def test_an_answer_of_400_or_more_is_not_remembered(app):
    """The runner: a refused entry may be sent again once put right, so only an answer below 400 is
    kept for the key; a repeat of a kept one gets the first answer and runs nothing."""
    from scorekeeper.commands import TRUSTED, Answered, EntryKey, run
    from scorekeeper.store import Store

    class Counted:
        def __init__(self) -> None:
            self.runs = 0

        def lock(self, store: Store) -> None:
            return None

        def apply(self, store: Store, catalog: object) -> str:
            self.runs += 1
            return "ran"

    store, catalog = Store(app.config["DATABASE"]), app.extensions["rulesets"]
    for status, kept in [(201, True), (399, True), (400, False), (409, False)]:
        command, key = Counted(), EntryKey(f"api:{status}")

        def answered(_: object, status: int = status) -> tuple[int, str]:
            return status, "{}"

        for _ in range(2):
            run(store, catalog, command, TRUSTED, key, answer=answered)
        assert command.runs == (1 if kept else 2), status
        assert run(store, catalog, command, TRUSTED, key, answer=answered) == (
            Answered(status, "{}") if kept else "ran"
        )
