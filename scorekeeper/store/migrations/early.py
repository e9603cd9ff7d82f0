"""Migrations m001–m012: games and their entries, sides, nights, share links and locks, versions and
carries, entry keys, money modes, the leaderboard per ruleset, notes and one rematch per game."""

from __future__ import annotations

from sqlite_utils import Database

from .steps import migrations


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
