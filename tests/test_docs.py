"""The front door and the docs kept true (issue 43): the README is short and shows two pictures, every
link in README.md and docs/ leads somewhere, the figures the docs state come from the files that hold
them, and the commands they show exist with the options they use."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the benchmark's page writer (bench/docs.py)

from bench.docs import figures_block, readme_block  # noqa: E402
from scorekeeper.console import main as scorekeeper_command  # noqa: E402

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def slug(heading: str) -> str:
    """A heading's anchor as a code host makes it: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in page.read_text().splitlines() if line.startswith("#")}


def links(page: Path) -> list[str]:
    return [next(group for group in match.groups() if group) for match in LINK.finditer(page.read_text())]


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 120
    pictures = re.findall(r'<img src="([^"]+)"', readme)
    assert pictures == ["docs/images/game-phone.png", "docs/images/table-view.png"]
    for command in ("scripts/run ", "scripts/test "):
        assert command in readme


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_link_leads_somewhere(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # a web address: not followed (the tests run offline)
            continue
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        if not found.exists():
            broken.append(target)
        elif anchor and found.suffix == ".md" and anchor not in anchors(found):
            broken.append(target)
    assert broken == []


def test_the_benchmark_figures_are_the_recorded_run():
    figures = json.loads((ROOT / "BENCHMARKS.json").read_text())
    assert figures_block(figures) in (ROOT / "docs" / "benchmarks.md").read_text(), "run: python -m bench.docs"
    assert readme_block(figures) in (ROOT / "README.md").read_text(), "run: python -m bench.docs"


def test_the_docs_state_no_suite_times_by_hand():
    """How long the suite takes is what CI measures: a time written down goes stale."""
    for page in PAGES:
        assert not re.search(r"\babout \d+ (minutes|seconds)\b", page.read_text()), page.name


def test_the_rules_page_has_every_shipped_ruleset():
    shipped = sorted(path.stem for path in (ROOT / "scorekeeper" / "rules" / "data").glob("*.toml"))
    rules = (ROOT / "docs" / "rules.md").read_text()
    assert sorted(re.findall(r"^## `([a-z-]+)`", rules, re.M)) == shipped


def shown_commands() -> list[str]:
    """Every command line the docs show in a shell block."""
    found = []
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(), re.S):
            for line in block.splitlines():
                command = line.split("#", 1)[0].strip()
                if command:
                    found.append(command)
    return found


def test_every_script_shown_exists():
    scripts = {command.split()[0] for command in shown_commands() if command.startswith("scripts/")}
    assert scripts >= {"scripts/run", "scripts/test", "scripts/bench"}
    for script in scripts:
        assert (ROOT / script).exists() and (ROOT / script).stat().st_mode & 0o111, script


def scorekeeper_lines() -> list[list[str]]:
    lines = []
    for command in shown_commands():
        words = shlex.split(command.replace("…", "").replace("|", " "))
        if words and words[0] in ("scorekeeper", ".venv/bin/scorekeeper"):
            lines.append(words[1:])
    return lines


def test_every_scorekeeper_command_shown_exists_with_its_options():
    runner = CliRunner()
    lines = scorekeeper_lines()
    assert len(lines) >= 4
    for words in lines:
        names = [w for w in words if not w.startswith(("-", "[")) and w.isidentifier() or w == "init-db"]
        options = [w.strip("[]") for w in words if w.strip("[").startswith("--")]
        group_options = [o for o in options if o == "--instance"]
        own = [o for o in options if o not in group_options]
        help_text = runner.invoke(scorekeeper_command, ["--help"]).output
        for option in group_options:
            assert option in help_text
        sub = next((w for w in names if w in scorekeeper_command.commands), None)
        if sub is None:
            continue
        answer = runner.invoke(scorekeeper_command, [sub, "--help"])
        assert answer.exit_code == 0, (sub, answer.output)
        for option in own:
            assert option in answer.output, (sub, option)


def mutation_sentence(report: dict[str, Any]) -> str:
    """The figures of the latest mutation run as docs/development.md states them."""
    return (
        f"The latest run (MUTATION.md) is over `rules/`, `commands/` and `store/` as at commit {report['commit']}: "
        f"{report['total'] + report['not_run']:,} mutants, {report['not_run']:,} not run; {report['killed']:,} killed "
        f"({report['score']:.1%}), {report['equivalent']:,} survivors equivalent with their reason, "
        f"{report['score_of_the_rest']:.1%} of the rest killed"
    )


def test_the_mutation_figures_are_the_recorded_run():
    report = json.loads((ROOT / "MUTATION.json").read_text(encoding="utf-8"))
    text = " ".join((ROOT / "docs" / "development.md").read_text(encoding="utf-8").split())
    assert mutation_sentence(report) in text
    by_time_limit = report["killed by time limit"]
    assert f"{by_time_limit} of the kills are by the time limit" in text
    assert f"without them {(report['killed'] - by_time_limit) / report['total']:.1%} are killed" in text
    assert f"The report states the smallest budget, {report['test_budget_s']:g} s, as its floor" in text
