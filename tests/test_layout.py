"""The architecture the README's layout section states, checked on the source (issue 39): a pure rules
engine, writes opened only by the commands and the store, no import circle, small modules."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

# mutmut runs the tests against its rewritten copy of the package (every function a trampoline and
# its mutants): that copy's layout is not ours.
pytestmark = pytest.mark.skipif("MUTANT_UNDER_TEST" in os.environ, reason="the package is mutmut's copy")

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
MODULE_LINES = 400
# What the rules engine may not use: a web framework, a database, a PDF renderer, files, processes.
NOT_IN_RULES = {"flask", "werkzeug", "sqlite3", "sqlite_utils", "weasyprint", "os", "io", "pathlib", "subprocess"}


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports by its import statements (relative ones resolved)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            source = ".".join(part for part in (base, node.module or "") if part)
            # "from . import loading" imports the module loading, not the package's own names
            found.update(f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names)
    return {module for module in found if module in known and module != name}


def test_no_module_outside_the_rules_is_over_400_lines():
    outside = [path for path in PACKAGE.rglob("*.py") if "rules" not in path.relative_to(PACKAGE).parts]
    lines = {str(path.relative_to(PACKAGE)): len(path.read_text().splitlines()) for path in outside}
    assert {name: count for name, count in lines.items() if count > MODULE_LINES} == {}


def test_the_rules_engine_is_pure():
    for path in (PACKAGE / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            assert not {name.split(".")[0] for name in names} & NOT_IN_RULES, f"{path.name} imports {names}"


def test_only_the_commands_and_the_store_open_a_write_transaction():
    writers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "writing":
                writers.add(path.relative_to(PACKAGE).parts[0])
    assert writers <= {"commands", "store"}, writers


def store_writes() -> set[str]:
    """The store's functions and methods that open a write transaction (or a savepoint in one)."""
    writes = set()
    for path in (PACKAGE / "store").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name != "writing":
                if any(isinstance(inner, ast.Attribute) and inner.attr == "writing" for inner in ast.walk(node)):
                    writes.add(node.name)
    return writes


def test_only_the_commands_ask_the_store_to_write():
    """A view that calls a store write directly skips the runner (its lock, entry key, version):
    leaving a player out of the rating did, as did keeping the rulesets' versions at start-up."""
    writes = store_writes()
    assert {"set_rated", "keep_ratings", "create_game", "keep_ruleset"} <= writes
    callers = set()
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] in {"commands", "store"}:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in writes:
                callers.add(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.func.attr}")
    assert callers == set()


def test_no_import_circle():
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    circles = []

    def visit(name: str, trail: list[str], done: set[str]) -> None:
        if name in trail:
            circles.append(trail[trail.index(name) :] + [name])
            return
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, [*trail, name], done)
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        visit(name, [], done)
    assert circles == []


# The layers, lowest first (docs/development.md, "Layout"): a module may import its own layer and the
# layers below it, never one above. The blueprints share a layer (printing serves the others' PDFs).
LAYERS: list[set[str]] = [
    {"rules"},
    {"store"},
    {"reads"},
    {"commands"},
    {"web"},
    {"api", "errors", "games", "help", "homescreen", "live", "melds", "nights", "players", "printing", "rulesets"},
    {"host"},
    {"__init__", "console"},
]
# The package root holds the app factory and the console command; every other module sits in its layer.
ROOT_MODULES = {"__init__", "console"}


def layer_of(name: str) -> int:
    """The layer of a module by its dotted name (``scorekeeper`` alone is the app factory's)."""
    parts = name.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    return next(index for index, layer in enumerate(LAYERS) if top in layer)


def test_the_package_root_holds_only_the_app_factory_and_the_console_command():
    loose = {path.stem for path in PACKAGE.glob("*.py")}
    assert loose - ROOT_MODULES == set()


def test_every_package_is_in_a_layer_and_says_what_it_holds():
    packages = {path.parent for path in PACKAGE.glob("*/__init__.py")}
    for package in packages:
        assert any(package.name in layer for layer in LAYERS), f"{package.name}/ is in no layer"
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
        assert docstring and len(docstring.split()) >= 12, f"{package.name}/__init__.py says too little of it"


def test_no_module_imports_a_layer_above_its_own():
    known = modules()
    upward = sorted(
        f"{name} imports {other}"
        for name, path in known.items()
        for other in imported(name, path, known)
        if layer_of(other) > layer_of(name)
    )
    assert upward == []


def test_the_layer_rule_catches_an_import_upward():
    """The check above, shown a store module that imports a read model and a rule that imports the web."""
    assert layer_of("scorekeeper.reads.loading") > layer_of("scorekeeper.store.games")
    assert layer_of("scorekeeper.web.forms") > layer_of("scorekeeper.rules.game")
    assert layer_of("scorekeeper.host.cli") > layer_of("scorekeeper.games.pages")
    assert layer_of("scorekeeper") == layer_of("scorekeeper.console") == len(LAYERS) - 1


def test_the_development_guide_draws_these_layers():
    text = (PACKAGE.parent / "docs" / "development.md").read_text(encoding="utf-8")
    drawing = text.split("<!-- layers: highest first -->")[1].split("<!-- /layers -->")[0]
    drawn = []
    for line in drawing.strip().strip("`").strip().splitlines():
        names = {word.rstrip("/") for word in line.split() if word.endswith("/") or word in ROOT_MODULES}
        if line[:1].strip() and names:
            drawn.append(names)
    assert drawn == LAYERS[::-1]


def handlers_of(path: Path, exception: str) -> list[ast.ExceptHandler]:
    """The ``except`` clauses of a module that catch ``exception`` (alone or in a tuple)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if any(isinstance(name, ast.Name) and name.id == exception for name in caught):
                found.append(node)
    return found


def test_already_recorded_is_decided_by_the_commands_alone():
    """A round recorded since a form was drawn is the runner's to say (``refuse_stale``): a view that
    looks at the rounds again after a stale refusal decides it a second time (issue 59: the round
    form's view did, beside commands/games.py)."""
    second_looks = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] in {"commands", "rules"}:
            continue
        for handler in handlers_of(path, "StaleWrite"):
            names = {node.attr for node in ast.walk(handler) if isinstance(node, ast.Attribute)}
            if names & {"current_round", "rounds", "round_count"}:
                second_looks.append(f"{path.relative_to(PACKAGE)}:{handler.lineno}")
        raised = [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Raise)]
        for node in raised:
            if "AlreadyRecorded" in ast.unparse(node):
                second_looks.append(f"{path.relative_to(PACKAGE)}:{node.lineno} raises AlreadyRecorded")
    assert second_looks == []


VIEW_LINES = 30
ROUTE_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}


def views() -> dict[str, int]:
    """Every view of the blueprints (a function under a route decorator) and its length in lines."""
    blueprints = next(layer for layer in LAYERS if "games" in layer)
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] not in blueprints:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ROUTE_DECORATORS
                for d in node.decorator_list
            ):
                found[f"{path.relative_to(PACKAGE)}:{node.name}"] = (node.end_lineno or node.lineno) - node.lineno + 1
    return found


def test_no_view_is_over_30_lines():
    """A view parses, calls one command or read model, and renders (issue 59): what it works out
    goes into a helper or a view model beside it."""
    found = views()
    assert len(found) > 80  # the blueprints' routes were found (93 when this was written)
    assert {name: lines for name, lines in found.items() if lines > VIEW_LINES} == {}


# What decides a lock: asking whether the asker opened it, and refusing them (a page may still ask
# page_unlocked, to draw its buttons: that decides nothing).
LOCK_DECISIONS = {"refuse_unopened", "token_opens", "NeedsUnlock", "LockError", "WrongPin"}
# The pre-checks views made before the runner (issue 59), by the names they had.
OLD_PRE_CHECKS = {"require_page_unlock", "writable", "writable_night"}
# Where a lock may be decided: the commands (the runner), who asks (access), the one check before a
# marked route (the web package's own module), and the PIN page (unlocking: whether to ask for it).
DECIDES_LOCKS = {"commands", "web/access.py", "web/__init__.py", "web/unlocking.py"}


def test_no_view_checks_a_lock_before_the_runner():
    """A route that changes what its address names is marked ``changes``, and the browser's access is
    decided once, before the view, by the runner's own check: no view asks the lock itself and sends
    the browser away (issue 59: 12 such pre-checks, ``writable()`` 7 in games, ``writable_night()`` 5
    in nights, before the runner checked again)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in DECIDES_LOCKS or str(relative) in DECIDES_LOCKS:
            continue
        calls = [
            f"{node.lineno}: {node.func.id}"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in LOCK_DECISIONS | OLD_PRE_CHECKS
        ]
        raises = [
            f"{node.lineno}: {ast.unparse(node)}"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Raise)
            and node.exc is not None
            and {n.id for n in ast.walk(node.exc) if isinstance(n, ast.Name)} & LOCK_DECISIONS
        ]
        if calls or raises:
            found[str(relative)] = calls + raises
    assert found == {}


SCRIPT = PACKAGE.parent / "static" / "js"
SCRIPT_MODULE_LINES = 300


def test_the_script_is_modules_of_one_job_each_checked_by_typescript():
    """app.js was one 1,438-line file with no types (issue 59): now modules of at most 300 lines, each
    one checked by TypeScript's compiler (``// @ts-check``) and named in the development guide."""
    modules = sorted(SCRIPT.glob("*.js"))
    guide = (PACKAGE.parent / "docs" / "development.md").read_text()
    assert len(modules) >= 10
    assert {m.name: n for m in modules if (n := len(m.read_text().splitlines())) > SCRIPT_MODULE_LINES} == {}
    assert [m.name for m in modules if not m.read_text().startswith("// @ts-check\n")] == []
    assert [m.name for m in modules if m.name not in guide] == []


def function_named(path: Path, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.FunctionDef) and n.name == name)


def lines_of(node: ast.FunctionDef) -> int:
    return (node.end_lineno or node.lineno) - node.lineno + 1 + len(node.decorator_list)


def test_the_entry_forms_flow_is_the_route_and_one_render_of_an_outcome():
    """``round_entry`` (59 lines, two closures) and ``entry_page`` (65 lines, four exception types
    caught to choose what to render) were 124 lines (issue 59): now the route and one render of the
    runner's outcome, at most 40 lines together."""
    rounds = PACKAGE / "games" / "rounds.py"
    assert lines_of(function_named(rounds, "round_entry")) + lines_of(function_named(rounds, "entry_page")) <= 40
    caught = [h.lineno for h in ast.walk(ast.parse(rounds.read_text())) if isinstance(h, ast.ExceptHandler)]
    assert caught == []


def test_the_app_factory_reads_as_a_list_of_what_the_app_is_made_of():
    """``create_app`` was 98 lines (issue 59): now a list of steps, each a call named for what it adds."""
    factory = function_named(PACKAGE / "__init__.py", "create_app")
    steps = [
        node for node in factory.body if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Constant)
    ]
    assert len(steps) <= 12

    def is_a_step(node: ast.stmt) -> bool:
        if isinstance(node, ast.If):
            return all(is_a_step(inner) for inner in node.body) and not node.orelse
        value = getattr(node, "value", None)
        return isinstance(node, ast.Expr | ast.Assign | ast.Return) and isinstance(value, ast.Call | ast.Name)

    assert [ast.unparse(node) for node in steps if not is_a_step(node)] == []


TEMPLATES = PACKAGE.parent / "templates"
TEMPLATE_LINE = 160


def test_no_template_line_is_over_160_characters():
    """Templates read like the code beside them (issue 59: 60 lines over 200 characters, one of 492)."""
    long = {
        f"{path.relative_to(TEMPLATES)}:{number}": len(line)
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > TEMPLATE_LINE
    }
    assert long == {}


TEMPLATE_IFS = 12


def test_the_game_and_night_pages_branch_at_most_12_times_each_section_too():
    """Issue 59: game.html held 28 `if`s, night.html 26; their words come from their view models
    (games/page.py, nights/page.py) and each section of the page is a template of its own."""
    pages = [TEMPLATES / "game.html", TEMPLATES / "night.html", *TEMPLATES.glob("_game_*.html")]
    pages += TEMPLATES.glob("_night_*.html")
    branches = {path.name: len(re.findall(r"{%-?\s*if\s", path.read_text(encoding="utf-8"))) for path in pages}
    assert {name: count for name, count in branches.items() if count > TEMPLATE_IFS} == {}
    assert len(branches) > 2
