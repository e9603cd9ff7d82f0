"""House rules made in the app: a ruleset saved from the form, checked by the one reader, kept as a
new version (a game already started keeps the version it started with)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..reads.catalog import Catalog, kept_ruleset
from ..rules.names import look_alike_key
from ..rules.rulesets import RulesetError, read_ruleset, ruleset_document
from ..rules.setup import GameError, check_visible
from ..store import Store
from ..store.rulesets import document_text
from .locks import Lock, game_lock, night_lock

HOUSE_SOURCE = "house rules"  # how the reader names the form in a refusal


class HouseRulesetRefused(ValueError):
    """A save the house rules cannot take (a shipped ruleset, a name taken): the field and why."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{HOUSE_SOURCE}: {field}: {problem}")


def house_id(name: str, taken: set[str]) -> str:
    """An id for a new house ruleset, from its name ("Ten Pennies, our way" → ten-pennies-our-way)."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "house-rules"
    found, number = stem, 2
    while found in taken:
        found, number = f"{stem}-{number}", number + 1
    return found


def canonical(document: dict[str, Any], ruleset_id: str) -> dict[str, Any]:
    """A form's document as the reader reads it ({} where the reader refuses it)."""
    try:
        return ruleset_document(read_ruleset({**document, "id": ruleset_id}, HOUSE_SOURCE))
    except RulesetError:
        return {}


def looks_like(one: str, other: str) -> bool:
    """Two names a table could take for one another: the same after compatibility normalisation
    (full-width letters, a non-breaking space), case folding and Unicode's confusables (a Cyrillic е)."""
    return look_alike_key(" ".join(one.split())) == look_alike_key(" ".join(other.split()))


def name_taken(name: str, other: str) -> str:
    if name == other:
        return f"{name!r} is the name of another ruleset: pick another"
    return f"{name!r} looks like {other!r}, the name of another ruleset: pick another"


def shown_name(name: str) -> None:
    """A name that shows what it is: no control, zero-width or direction character, none blank-looking."""
    try:
        check_visible(unicodedata.normalize("NFC", name), "the name")
    except GameError as error:
        raise HouseRulesetRefused("name", str(error).removeprefix("the name ")) from None


@dataclass(frozen=True)
class SaveHouseRuleset:
    """Save a house ruleset: a new one (``ruleset_id`` None: its id made from its name) or the next
    version of one made here. Returns (its id, its version). The shipped rulesets and the files in
    instance/rulesets/ are never overwritten."""

    document: dict[str, Any]
    ruleset_id: str | None = None
    seen_version: int | None = None  # the version the form was drawn from (None: as it is now)

    def lock(self, store: Store) -> Lock | None:
        return None  # the runner asks ``locks``

    def locks(self, store: Store) -> list[Lock]:
        """A game begun keeps its version, but a locked night's next game starts with the rules its
        games play, and a locked game's rematch with its own: changing those rules is the locked
        night's (or game's) scorekeeper's, with its PIN (issue 58: a penny a card became 100 from a
        phone that never typed the PIN)."""
        if self.ruleset_id is None:
            return []
        nights, games = store.locked_players_of(self.ruleset_id)
        found = [night_lock(night) for night in nights] + [game_lock(store, game) for game in games]
        return [lock for lock in found if lock is not None]

    def apply(self, store: Store, catalog: Catalog) -> tuple[str, int]:
        ruleset_id = self.ruleset_id
        if ruleset_id is None:
            taken = set(catalog.rulesets) | store.ruleset_ids()
            ruleset_id = house_id(str(self.document.get("name", "")), taken)
        elif ruleset_id not in catalog.house:
            raise HouseRulesetRefused("id", f"{ruleset_id!r} is not a house ruleset made here: make one from it")
        else:
            self.check_not_overtaken(store, ruleset_id)
        document = {**self.document, "id": ruleset_id}
        ruleset = read_ruleset(document, HOUSE_SOURCE)  # raises RulesetError, naming the field
        shown_name(ruleset.name)
        # The house rulesets as the store holds them in this transaction (a second phone may have saved
        # one since this page's catalog was read).
        for row in store.house_rulesets():
            other_name = kept_ruleset(row["document"]).name
            if row["ruleset"] == ruleset_id or not looks_like(other_name, ruleset.name):
                continue
            if self.ruleset_id is None and row["document"] == document_text(canonical(self.document, row["ruleset"])):
                return row["ruleset"], row["version"]  # the same new ruleset saved again: a second tap, Back
            raise HouseRulesetRefused("name", name_taken(ruleset.name, other_name))
        for other in catalog.rulesets.values():
            if other.id != ruleset_id and other.id not in catalog.house and looks_like(other.name, ruleset.name):
                raise HouseRulesetRefused("name", name_taken(ruleset.name, other.name))
        # Kept as the reader reads it (as a game started under it keeps it: one document, one version).
        return ruleset_id, store.save_house_ruleset(ruleset_id, ruleset_document(ruleset))

    def check_not_overtaken(self, store: Store, ruleset_id: str) -> None:
        """An edit made against an older version is refused, as a round is: never a silent undoing of
        what another phone saved meanwhile."""
        latest = store.latest_house_version(ruleset_id)
        if self.seen_version is not None and latest is not None and latest != self.seen_version:
            raise HouseRulesetRefused(
                "version",
                f"these rules were saved on another device meanwhile (now version {latest}, this form was "
                f"version {self.seen_version}): look at them, then change them again",
            )


__all__ = ["HOUSE_SOURCE", "HouseRulesetRefused", "RulesetError", "SaveHouseRuleset", "house_id"]


@dataclass(frozen=True)
class KeepVersions:
    """At start-up: keep the version of every ruleset read from a file (a new one when its file or the
    release changed), read the house rulesets made in the app, and pin the games from before versions
    were kept to the versions kept now."""

    def lock(self, store: Store) -> Lock | None:
        return None

    def apply(self, store: Store, catalog: Catalog) -> None:
        for ruleset_id, ruleset in list(catalog.rulesets.items()):
            catalog.versions[ruleset_id] = store.keep_ruleset(ruleset_id, ruleset_document(ruleset))
        catalog.refresh_house(store)
        store.pin_unpinned_games(catalog.versions)
