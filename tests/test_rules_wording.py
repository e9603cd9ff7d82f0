"""Table words (scorekeeper/rules/wording.py)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "number, said",
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (10, "10th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (20, "20th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (101, "101st"),
        (111, "111th"),
        (112, "112th"),
        (121, "121st"),
        (122, "122nd"),
    ],
)
def test_ordinals_as_the_table_says_them(number, said):
    """The 11th buy is refused (RULES.md): English ordinals, 11th–13th (and 111th–113th) included."""
    from scorekeeper.rules.wording import ordinal

    assert ordinal(number) == said
