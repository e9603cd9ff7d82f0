"""The rulesets the app offers: the built-in ones shipped with the rules package, any house-rules
files a table drops into ``instance/rulesets/``, and the house rulesets made in the app (kept in the
store, read again whenever one is saved).

A bad house file does not stop the app: it is left out and its error shown on the new-game page.
Each ruleset's current version is kept in the store: a game keeps the version it started with.
"""

from __future__ import annotations

import functools
import json
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..rules.rulesets import Ruleset, RulesetError, parse_ruleset, read_ruleset
from ..store import Store


class UnknownRuleset(LookupError):
    def __init__(self, ruleset_id: str) -> None:
        super().__init__(f"there is no ruleset {ruleset_id!r}")


@functools.lru_cache(maxsize=64)
def kept_ruleset(document: str) -> Ruleset:
    """A kept ruleset document (JSON) read once per text: the same few documents serve every game."""
    return read_ruleset(json.loads(document), "a kept ruleset")


@dataclass
class Catalog:
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # house files that were refused, and why
    builtin: set[str] = field(default_factory=set)  # shipped with the app: never overwritten
    house: set[str] = field(default_factory=set)  # made in the app (kept in the store only)
    versions: dict[str, int] = field(default_factory=dict)  # each ruleset's current kept version
    house_mark: tuple[int, int] | None = None  # the store's house rulesets as last read
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def get(self, ruleset_id: str) -> Ruleset:
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            raise UnknownRuleset(ruleset_id) from None

    def grouped(self) -> dict[str, list[Ruleset]]:
        """The rulesets by the group a new-game list shows them in (issue 61): the shipped ones by
        family and language, in BUILTIN_ORDER; house rules and rule files after them."""
        groups: dict[str, list[Ruleset]] = {}
        for ruleset in self.rulesets.values():
            if ruleset.id in self.house:
                group = HOUSE_GROUP
            else:
                group = BUILTIN_GROUPS.get(ruleset.id, OTHER_GROUP) if ruleset.id in self.builtin else OTHER_GROUP
            groups.setdefault(group, []).append(ruleset)
        return groups

    def add(self, text: str, source: str, builtin: bool) -> None:
        try:
            ruleset = parse_ruleset(text, source)
        except RulesetError as error:
            if builtin:
                raise
            self.problems.append(str(error))
            return
        if not builtin and ruleset.id in self.rulesets:
            self.problems.append(f"{source}: id: {ruleset.id!r} is already a ruleset; pick another id")
            return
        self.rulesets[ruleset.id] = ruleset
        if builtin:
            self.builtin.add(ruleset.id)

    def refresh_house(self, store: Store) -> None:
        """Read the house rulesets again if one was saved since they were read (one small query)."""
        mark = store.house_rulesets_mark()
        if mark == self.house_mark:
            return
        with self.lock:
            for row in store.house_rulesets():
                ruleset_id = row["ruleset"]
                if ruleset_id in self.rulesets and ruleset_id not in self.house:
                    continue  # a file or a shipped ruleset of that id came first
                self.rulesets[ruleset_id] = kept_ruleset(row["document"])
                self.versions[ruleset_id] = row["version"]
                self.house.add(ruleset_id)
            self.house_mark = mark


# The family's chief game first: it is what the new-game form offers by default.
BUILTIN_ORDER = [
    "ten-pennies",
    "ten-pennies-pcio",
    "ten-card-rummy",
    "pennies-from-heaven",
    "liverpool-rummy",
    "carioca",
    "shanghai-rummy",
    "continental",
]


# The groups a new-game list shows (issue 61): a family of games, and the language its table plays in.
BUILTIN_GROUPS = {
    "ten-pennies": "Ten Pennies and its cousins",
    "ten-pennies-pcio": "Ten Pennies and its cousins",
    "ten-card-rummy": "Ten Pennies and its cousins",
    "pennies-from-heaven": "Ten Pennies and its cousins",
    "liverpool-rummy": "Contract rummy",
    "shanghai-rummy": "Contract rummy",
    "carioca": "Contract rummy in Spanish: Carioca, Continental",
    "continental": "Contract rummy in Spanish: Carioca, Continental",
}
HOUSE_GROUP = "House rules"
OTHER_GROUP = "Rule files"


def _builtin_rank(name: str) -> tuple[int, str]:
    stem = name.removesuffix(".toml")
    return (BUILTIN_ORDER.index(stem) if stem in BUILTIN_ORDER else len(BUILTIN_ORDER), stem)


def load_catalog(house_dir: Path | None) -> Catalog:
    catalog = Catalog()
    data = resources.files("scorekeeper.rules") / "data"
    for entry in sorted(data.iterdir(), key=lambda e: _builtin_rank(e.name)):
        if entry.name.endswith(".toml"):
            catalog.add(entry.read_text(encoding="utf-8"), entry.name, builtin=True)
    if house_dir is not None and house_dir.is_dir():
        for path in sorted(house_dir.glob("*.toml")):
            source = f"rulesets/{path.name}"
            text = _house_text(path, source, catalog.problems)
            if text is None:
                continue
            try:
                catalog.add(text, source, builtin=False)
            except RecursionError:
                catalog.problems.append(f"{source}: nested too deeply to be a ruleset")
    return catalog


MAX_HOUSE_FILE_BYTES = 64 * 1024  # a ruleset file is a page of settings


def _house_text(path: Path, source: str, problems: list[str]) -> str | None:
    """A house file's text, or None with the reason kept in ``problems`` (a file that cannot be
    read must not stop the app: the table plays with the other rulesets)."""
    try:
        if path.stat().st_size > MAX_HOUSE_FILE_BYTES:
            problems.append(f"{source}: larger than {MAX_HOUSE_FILE_BYTES // 1024} KiB: not a ruleset file")
            return None
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        byte = error.object[error.start]
        problems.append(f"{source}: not UTF-8 text (byte {byte:#04x} at {error.start}): save it as UTF-8")
    except OSError as error:
        problems.append(f"{source}: cannot be read ({error.strerror or error})")
    return None
