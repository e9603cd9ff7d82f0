"""The schema, one sqlite-utils migration at a time (never edit an applied one: add another)."""

from __future__ import annotations

import json
import secrets

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")


@migrations()
def m001_games_and_events(db: Database) -> None:
    db.table("players").create({"id": int, "name": str, "name_key": str}, pk="id", not_null={"name", "name_key"})
    db.table("players").create_index(["name_key"], unique=True)
    db.table("games").create(
        {
            "id": int,
            "ruleset": str,
            "created_at": str,
            "first_dealer": int,
            "penny_cents": int,
            "carry_in": int,
        },
        pk="id",
        not_null={"ruleset", "created_at", "first_dealer", "penny_cents", "carry_in"},
    )
    db.table("game_players").create(
        {"game_id": int, "seat": int, "name": str, "player_id": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null={"name", "player_id"},
    )
    db.table("game_players").create_index(["player_id"])
    # Append-only: rows are inserted, never updated or deleted.
    db.table("events").create(
        {"id": int, "game_id": int, "kind": str, "payload": str, "created_at": str},
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "kind", "payload", "created_at"},
    )
    db.table("events").create_index(["game_id", "id"])
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER events_no_{action.lower()} BEFORE {action} ON events "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
        )


@migrations()
def m002_sides(db: Database) -> None:
    """Games played by sides (Pennies From Heaven): the side each seat plays for."""
    db.table("game_players").add_column("side", int)
    db.execute("UPDATE game_players SET side = seat")


@migrations()
def m003_nights_and_results(db: Database) -> None:
    """Nights group games; ``results`` is each seat's game derived by the engine (for history and
    the leaderboard without replaying every game), rewritten with every entry of that game."""
    db.table("nights").create(
        {"id": int, "name": str, "created_at": str, "closed_at": str}, pk="id", not_null={"created_at"}
    )
    db.table("games").add_column("night_id", int, fk="nights", fk_col="id")
    db.table("games").create_index(["night_id"])
    db.table("results").create(
        {
            "game_id": int,
            "seat": int,
            "player_id": int,
            "rounds": int,
            "points": int,
            "won": int,
            "finished": int,
            "money": int,
            "best_round": int,
            "worst_round": int,
        },
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db.table("results").create_index(["player_id", "game_id"])


@migrations()
def m004_share_links_and_locks(db: Database) -> None:
    """Each game gets an unguessable share token; a game may carry a hashed scorekeeper PIN;
    failed PIN attempts are counted per game and client to slow down guessing."""
    import secrets

    db.table("games").add_column("share_token", str)
    db.table("games").add_column("pin_hash", str)
    for row in list(db.query("SELECT id FROM games")):
        db.execute("UPDATE games SET share_token = ? WHERE id = ?", [secrets.token_urlsafe(16), row["id"]])
    db.table("games").create_index(["share_token"], unique=True)
    db.table("pin_failures").create(
        {"game_id": int, "client": str, "failures": int, "blocked_until": float}, pk=("game_id", "client")
    )


@migrations()
def m005_player_stats(db: Database) -> None:
    """Each player's totals over finished games, kept current with every entry, so the
    leaderboard reads one row per player instead of aggregating every result."""
    db.table("player_stats").create(
        {
            "player_id": int,
            "games": int,
            "wins": int,
            "points": int,
            "rounds": int,
            "money": int,
            "best_low": int,
            "best_high": int,
            "worst_low": int,
            "worst_high": int,
        },
        pk="player_id",
        foreign_keys=[("player_id", "players", "id")],
    )
    db.execute(STATS_SQL.format(where=""))


@migrations()
def m006_versions_and_stored_carry(db: Database) -> None:
    """A game's version becomes a stored revision (bumped by each event and each change of the
    carry it receives), and each game keeps its carry-in, so loading a game of a night no longer
    replays the games before it. Nights listed in ``stale_nights`` have their carries worked out
    by the engine at start-up (here: every night that has games)."""
    db.table("games").add_column("revision", int, not_null_default=0)
    db.execute("UPDATE games SET revision = (SELECT count(*) FROM events e WHERE e.game_id = games.id)")
    db.table("stale_nights").create({"night_id": int}, pk="night_id")
    db.execute("INSERT INTO stale_nights SELECT DISTINCT night_id FROM games WHERE night_id IS NOT NULL")


@migrations()
def m007_entry_keys(db: Database) -> None:
    """Each entry sent with a key (a form's entry key, an API client's Idempotency-Key) is recorded
    once: a repeat of the key gets the first answer back instead of a second entry."""
    db.table("entry_keys").create(
        {"key": str, "game_id": int, "digest": str, "status": int, "body": str, "created_at": str},
        pk="key",
        not_null={"digest", "status", "body", "created_at"},
    )


@migrations()
def m008_night_locks_and_generations(db: Database) -> None:
    """A PIN can lock a night (every game in it, and adding games to it); "Lock again" bumps a
    lock's generation, ending every unlock given before; PIN tries are counted per lock, whoever
    tries. A night that already holds locked games takes the PIN of its first locked game."""
    db.table("nights").add_column("pin_hash", str)
    db.table("nights").add_column("lock_generation", int, not_null_default=0)
    db.table("games").add_column("lock_generation", int, not_null_default=0)
    db.execute(
        """UPDATE nights SET pin_hash = (SELECT g.pin_hash FROM games g WHERE g.night_id = nights.id
                                         AND g.pin_hash IS NOT NULL ORDER BY g.id LIMIT 1)"""
    )
    db.table("pin_tries").create({"lock": str, "tries": int, "blocked_until": float}, pk="lock")


@migrations()
def m009_money_mode_and_paid_payments(db: Database) -> None:
    """A night is played with pennies on the table (bowls paid out at the table: nothing owed at the
    end) or on paper (settled at the end, each payment marked paid as it is made)."""
    db.table("nights").add_column("money", str, not_null_default="table")
    db.table("paid_payments").create(
        {"night_id": int, "payer": str, "payee": str, "amount": int, "marked_at": str},
        pk=("night_id", "payer", "payee", "amount"),
    )


@migrations()
def m010_stats_per_ruleset(db: Database) -> None:
    """The leaderboard per game: points per round are never averaged across rulesets (a Pennies From
    Heaven hand is worth thousands, and there the highest total wins)."""
    db.table("ruleset_stats").create(
        {
            "player_id": int,
            "ruleset": str,
            "games": int,
            "wins": int,
            "points": int,
            "rounds": int,
            "money": int,
            "best_low": int,
            "best_high": int,
            "worst_low": int,
            "worst_high": int,
        },
        pk=("player_id", "ruleset"),
        foreign_keys=[("player_id", "players", "id")],
    )
    db.execute(RULESET_STATS_SQL.format(where=""))


@migrations()
def m011_notes(db: Database) -> None:
    """A note on a game and on a night (who hosted, which house rule was in force). Editing one
    counts in ``notes_edits``, not in the game's version: a note is no entry, so it must not make
    a round form open on another device stale; the live views poll both."""
    for table in ("games", "nights"):
        db.table(table).add_column("notes", str, not_null_default="")
        db.table(table).add_column("notes_edits", int, not_null_default=0)


@migrations()
def m012_one_rematch_per_game(db: Database) -> None:
    """A rematch made twice from the same finished game is one game (docs/rules.md): the schema keeps at
    most one game a rematch of each game, whatever the timing of the taps."""
    db.table("games").add_column("rematch_of", int)
    db.execute("CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL")


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


STATS_SQL = """
INSERT OR REPLACE INTO player_stats
SELECT player_id, count(*), sum(won), sum(points), sum(rounds), sum(money),
       min(best_round), max(best_round), min(worst_round), max(worst_round)
FROM results WHERE finished = 1 {where} GROUP BY player_id
"""

RULESET_STATS_SQL = """
INSERT OR REPLACE INTO ruleset_stats
SELECT r.player_id, g.ruleset, count(*), sum(r.won), sum(r.points), sum(r.rounds), sum(r.money),
       min(r.best_round), max(r.best_round), min(r.worst_round), max(r.worst_round)
FROM results r JOIN games g ON g.id = r.game_id WHERE r.finished = 1 {where} GROUP BY r.player_id, g.ruleset
"""
