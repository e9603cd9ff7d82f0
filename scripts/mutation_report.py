"""MUTATION.md and MUTATION.json from the last `mutmut run` (scripts/mutate runs both).

Each mutant's verdict is read from mutmut's own results (mutants/**/*.meta); a survivor is named by
the file and line of the source it changes, with the line before and after, so a reader can judge it
without mutmut. The git tree (or blob) id of each mutated path says which code the figures are for."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
KILLED = {1, 3, 37}  # a test failed (1; 3: pytest's internal error), or a type check refused it (37)
SURVIVED = {0}
NOT_RUN = {None}
TIMEOUTS = {24, -24, 36, 152, 255}  # the mutant made a test run forever: caught, by the time limit
OUT_OF_MEMORY = {-9}  # the mutant made a test take all the memory and the system killed it: caught too


def config() -> dict[str, list[str]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["mutmut"]


def source_at_mutated_commit(source: Path) -> str:
    """The source as it was mutated (a file changed since the run began has moved its lines)."""
    shown = subprocess.run(
        ["git", "show", f"{os.environ.get('MUTATED_COMMIT', 'HEAD')}:{source.relative_to(ROOT)}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return shown.stdout if shown.returncode == 0 else source.read_text(encoding="utf-8")


def function_line(source: Path, key: str) -> int:
    """Where the mutated function starts in the real source: "x_name" or "xǁClassǁname"."""
    parts = key.split("__mutmut_")[0][1:].split("ǁ")
    wanted = key.split("__mutmut_")[0][2:] if len(parts) == 1 else parts[2]
    tree = ast.parse(source_at_mutated_commit(source))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and len(parts) > 1 and node.name == parts[1]:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == wanted:
                    return item.lineno
        if len(parts) == 1 and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == wanted:
            return node.lineno
    return 0


def from_def(lines: list[str], name: str) -> list[str]:
    """The function's lines from its ``def``, its mutmut name put back to one neutral name."""
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("def ", "async def ")):
            return [re.sub(r"__mutmut_(orig|\d+)\b", "", each).replace(name, "f") for each in lines[index:]]
    return lines


def change(mutated: Path, spans: dict[str, list[int]], key: str, source: Path) -> dict[str, object]:
    """The survivor's file:line and its one changed line, before and after."""
    text = mutated.read_text(encoding="utf-8").split("\n")
    name = key.split(".")[-1]
    base = name.split("__mutmut_")[0]
    first, last = spans[f"{base}__mutmut_orig"]
    orig = from_def(text[first - 1 : last], base)
    first, last = spans[name]
    mutant = from_def(text[first - 1 : last], base)
    start = function_line(source, name)
    for offset, (before, after) in enumerate(zip(orig, mutant, strict=False)):
        if before != after:
            return {
                "at": f"{source.relative_to(ROOT)}:{start + offset}",
                "before": before.strip(),
                "after": after.strip(),
            }
    extra = mutant[len(orig) :] or orig[len(mutant) :]
    return {"at": f"{source.relative_to(ROOT)}:{start}", "before": "", "after": " ".join(e.strip() for e in extra)}


def mutant_digests(mutated: Path) -> dict[str, str]:
    """Each mutant of a mutated file by what it is: a digest of its file's path and its function's text
    under one neutral name. The same digest names the same mutant in another checkout or run, whatever
    number mutmut gave it there (numbers move when coverage or the function's neighbours change)."""
    spans_file = mutated.with_suffix(mutated.suffix + ".spans")
    if not spans_file.exists():
        return {}
    spans = json.loads(spans_file.read_text(encoding="utf-8"))["spans"]
    text = mutated.read_text(encoding="utf-8").split("\n")
    module = ".".join(mutated.relative_to(MUTANTS).with_suffix("").parts)
    digests = {}
    for name, (first, last) in spans.items():
        if name.endswith("__mutmut_orig"):
            continue
        body = "\n".join(from_def(text[first - 1 : last], name.split("__mutmut_")[0]))
        digest = hashlib.sha256(f"{mutated.relative_to(MUTANTS)}\n{body}".encode()).hexdigest()[:20]
        digests[f"{module}.{name}".replace(".__init__.", ".")] = digest
    return digests


def verdicts_of_the_run() -> dict[str, int]:
    """Every mutant run so far, by digest, with mutmut's exit code: MUTATION.json keeps them so that a
    run in a fresh checkout (scripts/mutmut_budgeted.py) need not run again a mutant of unchanged code."""
    verdicts = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        digests = mutant_digests(meta.with_suffix(""))
        for key, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items():
            # A time limit depends on the machine and what else ran beside it: those run again each time.
            if code is not None and code not in TIMEOUTS and key in digests:
                verdicts[digests[key]] = code
    return dict(sorted(verdicts.items()))


def seed_from_earlier_runs(report: Path) -> int:
    """Count as killed each mutant not yet run that an earlier run's report (by digest) holds as killed.

    A survivor runs again: a test added since may kill it."""
    if not report.exists():
        return 0
    known: dict[str, int] = json.loads(report.read_text(encoding="utf-8")).get("verdicts", {})
    seeded = 0
    for meta_file in sorted(MUTANTS.rglob("*.py.meta")):
        digests = mutant_digests(meta_file.with_suffix(""))
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        for key, code in meta["exit_code_by_key"].items():
            if code is None and digests.get(key) in known and known[digests[key]] not in SURVIVED:
                meta["exit_code_by_key"][key] = known[digests[key]]
                seeded += 1
        meta_file.write_text(json.dumps(meta), encoding="utf-8")
    return seeded


def equivalents() -> list[dict[str, Any]]:
    """The survivors known not to change behaviour, each with its reason (mutation_equivalents.toml)."""
    data = tomllib.loads((ROOT / "scripts" / "mutation_equivalents.toml").read_text(encoding="utf-8"))
    return list(data["equivalent"])


SQL_WORDS = re.compile(r"\b(select|update|insert|delete|pragma|where|from|set)\b", re.IGNORECASE)
SQL_CASE = (
    "SQL in other letters: SQLite reads its keywords, pragmas and the names of tables and columns alike in any case"
)


def in_sql_case_only(survivor: dict[str, object]) -> bool:
    """A mutant that only changes the case of letters in an SQL statement (or a table's name)."""
    before, after = str(survivor["before"]), str(survivor["after"])
    path = str(survivor["at"]).split(":")[0]
    return (
        before != after
        and before.lower() == after.lower()
        and (bool(SQL_WORDS.search(before)) or path.startswith("scorekeeper/store/"))
    )


CAST_ONLY = "cast() only tells the type checker what a value is: at run time it hands the value back as it is"


def in_cast_type_only(survivor: dict[str, object]) -> bool:
    """A mutant that only changes the type given to typing.cast (to None)."""
    before, after = str(survivor["before"]), str(survivor["after"])
    return "cast(" in before and re.sub(r"\bcast\((?:\[[^\]]*\]|[^(),\[])+,", "cast(None,", before) == after


def reason(survivor: dict[str, object], known: list[dict[str, Any]]) -> str:
    """Why a survivor cannot change behaviour, if it is a known one; "" for one to kill."""
    path = str(survivor["at"]).split(":")[0]
    if in_sql_case_only(survivor):
        return SQL_CASE
    if in_cast_type_only(survivor):
        return CAST_ONLY
    for entry in known:
        if entry["path"] != path or not any(after in str(survivor["after"]) for after in entry["after"]):
            continue
        # A line only removed reads as what is left after it: its "before" says which line it was.
        if all(before in str(survivor["before"]) for before in entry.get("before", [])):
            return str(entry["why"])
    return ""


# The commit whose code was mutated: HEAD, unless the run began at an earlier one (MUTATED_COMMIT=…).
MUTATED = os.environ.get("MUTATED_COMMIT", "HEAD")


def tree_ids(globs: list[str]) -> dict[str, str]:
    """The git object id of each mutated path at the mutated commit (a folder's tree, a file's blob)."""
    ids = {}
    for pattern in globs:
        path = pattern.rstrip("*").rstrip("/")
        found = subprocess.run(["git", "rev-parse", f"{MUTATED}:{path}"], cwd=ROOT, capture_output=True, text=True)
        ids[path] = found.stdout.strip()
    return ids


def main() -> int:
    settings = config()
    results: Counter[str] = Counter()
    by_area: dict[str, Counter[str]] = {}
    survivors, not_run = [], 0
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        mutated = meta.with_suffix("")
        source = ROOT / mutated.relative_to(MUTANTS)
        spans = (
            json.loads(meta.with_suffix(".spans").read_text(encoding="utf-8"))["spans"]
            if meta.with_suffix(".spans").exists()
            else {}
        )
        area = by_area.setdefault(str(mutated.relative_to(MUTANTS).parent).split("/migrations")[0], Counter())
        for key, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items():
            area["not run" if code in NOT_RUN else "survived" if code in SURVIVED else "run"] += 1
            if code in NOT_RUN:
                not_run += 1
            elif code in KILLED or code in TIMEOUTS or code in OUT_OF_MEMORY:
                results["killed"] += 1
                results["by time limit"] += code in TIMEOUTS
                results["out of memory"] += code in OUT_OF_MEMORY
            elif code in SURVIVED:
                results["survived"] += 1
                survivors.append({"mutant": key, **change(mutated, spans, key, source)})
            else:
                results[f"exit {code}"] += 1
    known = equivalents()
    for survivor in survivors:
        survivor["why"] = reason(survivor, known)
    equivalent = sum(1 for survivor in survivors if survivor["why"])
    caught_without_a_failure = {key: results.pop(key, 0) for key in ("by time limit", "out of memory")}
    total = sum(results.values())
    killed = results["killed"]
    report = {
        "tool": "mutmut "
        + subprocess.run([sys.executable, "-m", "pip", "show", "mutmut"], capture_output=True, text=True)
        .stdout.split("Version: ")[-1]
        .split("\n")[0],
        "modules": settings["only_mutate"],
        "tests": " ".join(settings.get("pytest_add_cli_args", [])),
        "test_budget_s": test_budget(),
        "killed": killed,
        **{f"killed {key}": count for key, count in caught_without_a_failure.items()},
        "total": total,
        "not_run": not_run,
        "score": round(killed / total, 4) if total else 0,
        "equivalent": equivalent,  # survivors that cannot change behaviour (listed with the reason)
        "score_of_the_rest": round(killed / (total - equivalent), 4) if total > equivalent else 0,
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", MUTATED], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
        "trees": tree_ids(settings["only_mutate"]),
        "by_folder": {name: dict(sorted(counts.items())) for name, counts in sorted(by_area.items())},
        "survivors": sorted(survivors, key=lambda s: str(s["at"])),
        "verdicts": verdicts_of_the_run(),
    }
    (ROOT / "MUTATION.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_markdown(report)
    print(f"Killed {killed} of {total} ({report['score']:.1%}); {len(survivors)} survivors in MUTATION.md")
    return 0


def test_budget() -> float | None:
    """The budget each mutant's tests ran under (scripts/mutmut_budgeted.py); None: every test reaching it."""
    written = MUTANTS / "mutmut-budget.json"
    return float(json.loads(written.read_text(encoding="utf-8"))["budget_s"]) if written.exists() else None


def write_markdown(report: dict[str, Any]) -> None:
    """MUTATION.md: MUTATION.json for a reader."""
    killed, total, not_run = report["killed"], report["total"], report["not_run"]
    lines = [
        "# Mutation testing",
        "",
        f"`scripts/mutate` ({report['tool']}) over {', '.join(f'`{m}`' for m in report['modules'])} as at "
        f"commit {report['commit']}, against",
        f"`pytest {report['tests']}`"
        + (
            f" (each mutant against the tests that reach its function, quickest first, {budget:g} s of their measured"
            " time or more, or all of them: a mutant that survives might still die to a slower test)"
            if (budget := report.get("test_budget_s"))
            else ""
        )
        + f". Killed {killed} of {total} mutants: **{report['score']:.1%}**"
        + (f" ({not_run} not run)." if not_run else "."),
        f"{report['equivalent']} survivors cannot change behaviour (the reason is beside each); of the other "
        f"mutants the tests killed **{report['score_of_the_rest']:.1%}**.",
        "",
        "By folder: "
        + "; ".join(
            f"`{name}` {counts.get('run', 0) + counts.get('survived', 0)} run ({counts.get('survived', 0)} survived)"
            + (f", {counts['not run']} not run" if counts.get("not run") else "")
            for name, counts in report["by_folder"].items()
        )
        + ".",
        "",
        "A mutant counts as killed when a test fails, or it makes a test run forever (stopped by the time",
        f"limit: {report['killed by time limit']}) or take all the memory (killed by the system: "
        f"{report['killed out of memory']}). Every survivor, by the line it changes:",
        "",
        "| Where | Before | After | Why it cannot change behaviour (blank: not known) |",
        "|---|---|---|---|",
    ]
    for s in report["survivors"]:
        before, after = (str(s[k]).replace("|", "\\|")[:90] for k in ("before", "after"))
        lines.append(f"| {s['at']} | `{before}` | `{after}` | {s['why']} |")
    (ROOT / "MUTATION.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
