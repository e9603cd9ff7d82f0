"""Migrations m013 on: money in cents and payments made, money at a game's end, drafts, players'
records, the night's link, the bowl as no name, rulesets kept with games, records kept game by game."""

from __future__ import annotations

import json
import secrets

from sqlite_utils import Database

from .early import RULESET_STATS_SQL
from .steps import migrations


@migrations()
def m013_money_in_cents_and_payments_made(db: Database) -> None:
    """Money is counted in cents wherever games of different penny values meet (docs/rules.md): a game's
    result keeps its money in cents, so the leaderboard and a player's page add cents, not penny
    counts. A payment marked paid on paper is money handed over: kept in cents (who paid whom, when),
    never unmarked by a correction, a new game or a change of unit or money mode, only by an
    explicit "not paid after all" (``undone_at``)."""
    db.execute("UPDATE results SET money = money * (SELECT g.penny_cents FROM games g WHERE g.id = results.game_id)")
    db.execute("DELETE FROM ruleset_stats")
    db.execute(RULESET_STATS_SQL.format(where=""))
    db.table("payments").create(
        {
            "id": int,
            "night_id": int,
            "payer": str,
            "payee": str,
            "cents": int,
            "made_at": str,
            "undone_at": str,
            "nets": str,
        },  # the nets (JSON, cents) when it was marked: what a later correction moved
        pk="id",
        not_null={"night_id", "payer", "payee", "cents", "made_at"},
        foreign_keys=[("night_id", "nights", "id")],
    )
    db.execute("CREATE INDEX payments_by_night ON payments (night_id)")
    # Payments marked before were in the night's unit: cents where its games set different values,
    # else pennies of that one value.
    db.execute(
        """INSERT INTO payments (night_id, payer, payee, cents, made_at)
           SELECT p.night_id, p.payer, p.payee,
                  p.amount * CASE WHEN (SELECT count(DISTINCT penny_cents) FROM games WHERE night_id = p.night_id) = 1
                                  THEN (SELECT max(penny_cents) FROM games WHERE night_id = p.night_id) ELSE 1 END,
                  p.marked_at
           FROM paid_payments p ORDER BY p.marked_at"""
    )
    db.execute("DROP TABLE paid_payments")


@migrations()
def m014_money_at_the_end_of_a_game(db: Database) -> None:
    """Each seat's money (cents, a JSON list) as it stood when the game ended: a later correction
    counts as if the entry had been right all along, and the pages say which finished games' money
    moved (docs/rules.md). Games that ended before this keep their money as it stands now."""
    db.table("games").add_column("money_at_end", str)
    db.execute(
        """UPDATE games SET money_at_end = (
               SELECT json_group_array(money) FROM (
                   SELECT money FROM results WHERE game_id = games.id ORDER BY seat))
           WHERE id IN (SELECT game_id FROM results WHERE finished = 1)"""
    )


@migrations()
def m015_drop_player_stats(db: Database) -> None:
    """The all-rulesets player totals table nothing has read since m010 (the pages add up
    ruleset_stats): one home for a player's record."""
    db.execute("DROP TABLE IF EXISTS player_stats")


@migrations()
def m016_drafts(db: Database) -> None:
    """Hands players enter on their own phones for the round in play (issue 27): drafts, not
    entries — one per player and round, replaced as they type, cleared once the round is saved."""
    db.table("drafts").create(
        {"game_id": int, "round": int, "player": str, "cards": str, "points": int, "updated_at": str},
        pk=("game_id", "round", "player"),
        foreign_keys=[("game_id", "games", "id")],
    )


@migrations()
def m017_player_records(db: Database) -> None:
    """A player's record (issue 29): each result also keeps the rounds the player went out, their
    buys, the cards caught round by round, the seat's place and the day it counts on (the day its
    night began, else the game's, in the server's time zone). ``player_days`` adds up a player's
    finished games per ruleset ("" for all) and period (a day "2026-11-21", its month "2026-11" and
    its year "2026"), ``pair_days`` two players' games against each other: a page adds up a few
    periods, never games. Every game's results are worked out again by the
    engine once, at the next start (``stale_results``). ``players.rated``: 0 leaves a player out of
    the rating; ``ratings`` keeps it worked out while ``ratings_stale`` has no row."""
    results = db.table("results")
    for column, kind in (("went_out", int), ("buys", int), ("place", int), ("caught", str), ("day", str)):
        results.add_column(column, kind)
    results.create_index(["player_id", "day"])
    db.table("player_days").create(
        {
            "player_id": int,
            "ruleset": str,
            "period": str,
            "games": int,
            "wins": int,
            "rounds": int,
            "points": int,
            "money": int,
            "lowest_round": int,
            "highest_round": int,
            "went_out": int,
            "buys": int,
            "caught": str,
            "streak_first": int,
            "streak_last": int,
            "streak_longest": int,
        },
        pk=("player_id", "ruleset", "period"),
        foreign_keys=[("player_id", "players", "id")],
    )
    db.table("player_days").create_index(["ruleset", "period"])
    db.table("pair_days").create(
        {
            "player_id": int,
            "other_id": int,
            "ruleset": str,
            "period": str,
            "games": int,
            "ahead": int,
            "behind": int,
            "money": int,
        },
        pk=("player_id", "ruleset", "period", "other_id"),  # everyone a player met in a season: one range
    )
    db.table("stale_results").create({"game_id": int}, pk="game_id")
    db.execute("INSERT INTO stale_results SELECT DISTINCT game_id FROM results")
    db.table("players").add_column("rated", int, not_null_default=1)
    # The opt-in rating, kept worked out: rewritten from every finished game when a result changed.
    db.table("ratings").create({"player_id": int, "mu": float, "sigma": float, "games": int}, pk="player_id")
    db.table("ratings_stale").create({"id": int}, pk="id")
    db.execute("INSERT INTO ratings_stale (id) VALUES (1)")


@migrations()
def m018_night_share_links(db: Database) -> None:
    """One link for the evening (issue 40): a night's phones and tablet open it once and follow the
    night from game to game. Every night gets its own unguessable token."""
    db.table("nights").add_column("share_token", str)
    for (night_id,) in db.execute("SELECT id FROM nights").fetchall():
        db.execute("UPDATE nights SET share_token = ? WHERE id = ?", [secrets.token_urlsafe(16), night_id])
    db.table("nights").create_index(["share_token"], unique=True)


@migrations()
def m019_the_bowl_is_no_name(db: Database) -> None:
    """The bowl is a party of its own kind (issue 39): its key in the payments and in the nets kept
    with each is the empty name, which no player can have, so a player may be called "the bowl"."""
    for column in ("payer", "payee"):
        db.execute(f"UPDATE payments SET {column} = '' WHERE {column} = 'the bowl'")
    for payment_id, nets in db.execute("SELECT id, nets FROM payments WHERE nets IS NOT NULL").fetchall():
        kept = json.loads(nets)
        if "the bowl" in kept:
            kept[""] = kept.pop("the bowl")
            db.execute("UPDATE payments SET nets = ? WHERE id = ?", [json.dumps(kept, sort_keys=True), payment_id])


@migrations()
def m020_rulesets_kept_with_games(db: Database) -> None:
    """A game keeps the rules it was played under (issue 42): every ruleset a game was started with
    is kept as a numbered version of its document, and each game names its version. A house
    ruleset made in the app lives here only (``house``). Games from before are pinned at start-up
    to their ruleset as it is then (``pin_unpinned_games``)."""
    db.table("ruleset_versions").create(
        {"ruleset": str, "version": int, "document": str, "digest": str, "house": int, "made_at": str},
        pk=("ruleset", "version"),
        not_null={"document", "digest", "house", "made_at"},
    )
    db.table("games").add_column("ruleset_version", int)


@migrations()
def m021_records_kept_game_by_game(db: Database) -> None:
    """A player's record has one home (issues 39 and 46): the leaderboard reads each player's all-time
    tally per ruleset from ``player_days`` (period "A"), kept game by game, so ``ruleset_stats``, added
    up again from all of the players' games at every buy, goes. Whether a game is a player's latest is
    one step into ``results_in_order``. The records tables keep their rows in their key (WITHOUT
    ROWID): no second copy of every row in an index, about a third less disk for the records."""
    db.execute("DROP TABLE IF EXISTS ruleset_stats")
    db.execute("DROP INDEX IF EXISTS idx_results_player_id_day")
    db.execute("CREATE INDEX results_in_order ON results (player_id, day, game_id)")
    tally = "games INTEGER, wins INTEGER, rounds INTEGER, points INTEGER, money INTEGER, lowest_round INTEGER, "
    tally += "highest_round INTEGER, went_out INTEGER, buys INTEGER, caught TEXT, streak_first INTEGER, "
    tally += "streak_last INTEGER, streak_longest INTEGER"
    keep_in_key(
        db,
        "player_days",
        f"player_id INTEGER REFERENCES players(id), ruleset TEXT, period TEXT, {tally}",
        "player_id, ruleset, period",
    )
    keep_in_key(
        db,
        "pair_days",
        "player_id INTEGER, other_id INTEGER, ruleset TEXT, period TEXT, games INTEGER, ahead INTEGER, "
        "behind INTEGER, money INTEGER",
        "player_id, ruleset, period, other_id",
    )
    db.execute("CREATE INDEX idx_player_days_ruleset_period ON player_days (ruleset, period)")
    db.execute("CREATE INDEX player_days_all_time ON player_days (player_id, ruleset) WHERE period = 'A'")


@migrations()
def m022_rating_changes_counted(db: Database) -> None:
    """The rating is worked out again after a change (issue 39): changes are counted, and the rating
    keeps the count it was worked out at, so a game that ends while a page works the rating out leaves
    it to be worked out again (a flag cleared by that page lost the game)."""
    stale = db.execute("SELECT count(*) FROM ratings_stale").fetchone()[0]
    db.execute(
        "CREATE TABLE rating_changes (id INTEGER PRIMARY KEY CHECK (id = 1), changes INTEGER NOT NULL, "
        "rated INTEGER NOT NULL)"
    )
    db.execute("INSERT INTO rating_changes VALUES (1, ?, 0)", [1 if stale else 0])
    db.execute("DROP TABLE ratings_stale")


def keep_in_key(db: Database, table: str, columns: str, key: str) -> None:
    """``table`` made again WITHOUT ROWID with the same columns, key and rows."""
    db.execute(f"CREATE TABLE {table}_kept ({columns}, PRIMARY KEY ({key})) WITHOUT ROWID")
    db.execute(f"INSERT INTO {table}_kept SELECT * FROM {table}")
    db.execute(f"DROP TABLE {table}")
    db.execute(f"ALTER TABLE {table}_kept RENAME TO {table}")


@migrations()
def m023_deleted(db: Database) -> None:
    """Games and nights deleted by the host (issue 57), kept to be brought back: what was entered, as
    an export holds it (``dump``), with what an export leaves out (the PIN hash, a night's payments),
    and the ids of the games it holds (``game_ids``, JSON)."""
    db.execute(
        "CREATE TABLE deleted (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, object_id INTEGER NOT NULL, "
        "label TEXT NOT NULL, dump TEXT NOT NULL, kept TEXT NOT NULL, deleted_at TEXT NOT NULL, "
        "game_ids TEXT NOT NULL)"
    )
    # Entries stay append-only: only a game kept in ``deleted`` (to be brought back) loses its own.
    db.execute("DROP TRIGGER events_no_delete")
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "WHEN NOT EXISTS (SELECT 1 FROM deleted d, json_each(d.game_ids) j WHERE j.value = OLD.game_id) "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )
