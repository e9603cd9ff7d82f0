"""The commands, one set for both spellings: ``scorekeeper COMMAND`` (the console command an install
gives) and ``flask --app scorekeeper COMMAND``: init-db, serve, backup, restore, export, import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from ..commands import TRUSTED, Answered, run
from ..commands.deleting import BringBack, DeleteGame, DeleteNight
from ..commands.derived import ImportRefused, import_dump
from ..commands.host import ClearPin, MergePlayers, RenamePlayer
from ..commands.runner import Command
from ..reads.catalog import Catalog
from ..rules.setup import GameError
from ..rules.wording import plural
from ..store import NotFound, Store, exchange, set_mirror
from ..store import backups as backups_folder
from ..store.deleted import KEPT_DAYS
from ..store.mirror import MIRROR_NAME
from . import serving

T = TypeVar("T")
CONFIGURED_MIRROR = "\0config"  # --from-mirror without a folder: the MIRROR of config.py


def live_store() -> Store:
    return Store(current_app.config["DATABASE"])


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database schema."""
    store = live_store()
    store.migrate()
    store.close()
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


@click.command("serve")
@click.option("--network", is_flag=True, help="Serve to the local network too (phones on the same Wi-Fi).")
@click.option("--port", default=serving.DEFAULT_PORT, show_default=True, help="Port to listen on.")
@click.option(
    "--mirror",
    type=click.Path(file_okay=False),
    help="Keep a copy of the database in this folder on another disk (as MIRROR in config.py).",
)
@with_appcontext
def serve_command(network: bool, port: int, mirror: str | None) -> None:
    """Serve the app with waitress (127.0.0.1 unless --network), after a backup of the database."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if mirror:
        app.config["MIRROR"] = mirror
        set_mirror(app, mirror)
    serving.serve(app, port, network)


@click.command("export")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def export_command(path: str) -> None:
    """Write every night and game to PATH as JSON (re-importable)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(exchange.export_text(live_store()))
    click.echo(f"Exported to {path}")


@click.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@with_appcontext
def import_command(path: str) -> None:
    """Import an export into this database: all of it, or nothing."""
    catalog: Catalog = current_app.extensions["rulesets"]
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        game_ids = import_dump(live_store(), catalog, data)
    except (ImportRefused, ValueError, RecursionError) as error:  # json's errors are ValueErrors
        raise click.ClickException(f"nothing was imported: {error}") from None
    click.echo(f"Imported {plural(len(game_ids), 'game')} from {path}")


@click.command("backup")
@click.argument("path", required=False, type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup_command(path: str | None) -> None:
    """Back up the database (safe while the app runs): into the backups folder, or to PATH."""
    if path:
        try:
            backups_folder.backup_to(live_store(), Path(path), Path(current_app.config["DATABASE"]))
        except backups_folder.BackupFailed as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"Backed up to {path}")
        return
    try:
        made = backups_folder.make_backup(live_store(), current_app.config["BACKUPS_DIR"], "by-hand")
    except backups_folder.BackupFailed as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Backed up to {made.path}")


@click.command("restore")
@click.argument("name", required=False)
@click.option("--yes", is_flag=True, help="Restore without asking.")
@click.option(
    "--from-mirror",
    "mirror",
    is_flag=False,
    flag_value=CONFIGURED_MIRROR,
    metavar="[DIR]",
    help="Put back the mirror copy: the one in DIR, or in the MIRROR folder of config.py.",
)
@with_appcontext
def restore_command(name: str | None, yes: bool, mirror: str | None) -> None:
    """List the backups, or put backup NAME in place of the database (after backing up the database)."""
    folder = current_app.config["BACKUPS_DIR"]
    if not (name or mirror):
        list_backups(folder)
        return
    # Held while the database is replaced: no server starts on it half-way.
    lock = serving.take_lock(current_app.config["DATABASE"])
    if lock is None:
        pid = serving.serving_pid(current_app.config["DATABASE"])
        raise click.ClickException(f"a Scorekeeper server is serving this database (process {pid}): stop it first")
    with lock:
        if mirror:
            restore_from_mirror(mirror, yes)
        else:
            restore_backup(folder, name or "", yes)


def restore_backup(folder: str, name: str, yes: bool) -> None:
    try:
        chosen = backups_folder.find_backup(folder, name)  # before asking: a name that is not there
        if not yes:
            click.confirm(f"Replace the database with {name}? (the database is backed up first)", abort=True)
        done = backups_folder.restore_backup(current_app.config["DATABASE"], folder, chosen)
    except (backups_folder.NoSuchBackup, backups_folder.BackupFailed) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Restored {done.chosen.name} (made {done.chosen.made_at:%Y-%m-%d %H:%M}).")
    said_what_was_before(done)


def restore_from_mirror(folder: str, yes: bool) -> None:
    """The mirror copy back in place, after saying what it holds beside what the live database holds
    (a copy older than the database it replaces is said so before anything is asked)."""
    if folder == CONFIGURED_MIRROR:
        folder = current_app.config["MIRROR"] or ""
    if not folder:
        raise click.ClickException(
            "no MIRROR folder is set in config.py: name the folder, "
            "`scorekeeper restore --from-mirror /media/usb/scorekeeper`"
        )
    source = Path(folder) / MIRROR_NAME
    try:
        found = backups_folder.contents(source)
    except backups_folder.BackupFailed as error:
        raise click.ClickException(f"no mirror copy to restore in {folder}: {error}") from None
    click.echo(f"The mirror copy {source} holds {found}.")
    database = Path(current_app.config["DATABASE"])
    live = live_contents(database)
    if live is not None:
        click.echo(f"The database it replaces holds {live}.")
        if (live.last_write or "") > (found.last_write or "") or live.games > found.games:
            click.echo("The database is newer than the mirror copy: restoring would take those games back.")
    if not yes:
        click.confirm(f"Replace the database with the mirror copy {source}?", abort=True)
    try:
        done = backups_folder.restore_file(database, current_app.config["BACKUPS_DIR"], source)
    except backups_folder.BackupFailed as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Restored the mirror copy {source} (made {done.chosen.made_at:%Y-%m-%d %H:%M}).")
    said_what_was_before(done)


def live_contents(database: Path) -> backups_folder.Contents | None:
    """What the live database holds; None where there is none (lost with its disk) or it is unreadable."""
    if not database.exists():
        return None
    try:
        return backups_folder.contents(database)
    except backups_folder.BackupFailed:
        return None


def said_what_was_before(done: backups_folder.Restored) -> None:
    if done.safety is None and done.set_aside is None:
        click.echo("There was no database before it.")
    elif done.safety:
        click.echo(f"What was there before is kept as {done.safety.name}: restore that to undo this.")
    else:
        click.echo(f"What was there before was too damaged to back up: it is kept as {done.set_aside}.")
    click.echo("Restart the server if it is running, so every page reads the restored games.")


def list_backups(folder: str) -> None:
    found = backups_folder.list_backups(folder)
    set_aside = backups_folder.set_aside_files(folder)
    if not found and not set_aside:
        click.echo(f"No backups in {folder} yet.")
        return
    click.echo(f"Backups in {folder}, newest first (restore one with `scorekeeper restore NAME`):")
    for backup in [*found, *set_aside]:
        click.echo(f"  {backup.name}   {backup.made_at:%Y-%m-%d %H:%M}, {backup.why}")


@click.group("pin")
def pin_group() -> None:
    """A forgotten PIN: list what is locked, and take a PIN off (at this machine only)."""


@pin_group.command("reset")
@click.argument("kind", required=False, type=click.Choice(["night", "game"]))
@click.argument("row_id", required=False, type=int, metavar="ID")
@with_appcontext
def pin_reset_command(kind: str | None, row_id: int | None) -> None:
    """List the locked nights and games, or take the PIN off night ID or game ID (after a backup)."""
    store = live_store()
    if kind is None or row_id is None:
        list_locked(store)
        return
    backed_up_before_a_change(store)
    try:
        cleared = at_the_machine(store, ClearPin(kind, row_id))
    except NotFound as error:
        raise click.ClickException(f"{error}: `scorekeeper pin reset` lists what is locked") from None
    if not cleared:
        raise click.ClickException(
            f"{kind} {row_id} has no PIN of its own: `scorekeeper pin reset` lists what is locked"
        )
    click.echo(
        f"The PIN of {kind} {row_id} is taken off: its scores can be entered on any phone again, and the next "
        "game started with a PIN locks it anew."
    )


@click.group("player")
def player_group() -> None:
    """Put a player's name right, or make two players who are one person one (after a backup)."""


@player_group.command("rename")
@click.argument("name")
@click.argument("new_name")
@with_appcontext
def player_rename_command(name: str, new_name: str) -> None:
    """Rename player NAME to NEW_NAME on the leaderboard, their page and their records."""
    store = live_store()
    player = known_player(store, name)
    backed_up_before_a_change(store)
    renamed = host_change(store, RenamePlayer(player, new_name))
    click.echo(f"{name!r} is now {renamed!r} (the scorepads keep the names as they were entered).")


@player_group.command("merge")
@click.argument("name")
@click.argument("into")
@with_appcontext
def player_merge_command(name: str, into: str) -> None:
    """Make player NAME one with player INTO: NAME's games, records and rating go to INTO."""
    store = live_store()
    gone, kept = known_player(store, name), known_player(store, into)
    backed_up_before_a_change(store)
    host_change(store, MergePlayers(gone, kept))
    click.echo(f"{name!r} is one with {into!r} now: every game of {name!r} counts for {into!r}.")


@click.command("delete")
@click.argument("kind", type=click.Choice(["night", "game"]))
@click.argument("row_id", type=int, metavar="ID")
@with_appcontext
def delete_command(kind: str, row_id: int) -> None:
    """Delete night ID (with its games) or game ID, as if never played; `bring-back` undoes it."""
    store = live_store()
    backed_up_before_a_change(store)
    command = DeleteNight(row_id) if kind == "night" else DeleteGame(row_id)
    try:
        kept = at_the_machine(store, command)
    except NotFound as error:
        raise click.ClickException(f"nothing was deleted: {error}") from None
    click.echo(
        f"Deleted {kind} {row_id}: the records are as if it had never been played. "
        f"`scorekeeper bring-back {kept}` brings it back (for {KEPT_DAYS} days at least)."
    )


@click.command("bring-back")
@click.argument("deleted_id", required=False, type=int, metavar="[ID]")
@with_appcontext
def bring_back_command(deleted_id: int | None) -> None:
    """List the deleted games and nights, or bring deleted ID back."""
    store = live_store()
    if deleted_id is None:
        kept = store.deleted()
        if not kept:
            click.echo("Nothing deleted is kept.")
            return
        click.echo("Deleted, newest first (bring one back with `scorekeeper bring-back ID`):")
        for row in kept:
            what = f"{row['kind']} {row['object_id']}: {row['label']}"
            click.echo(f"  {row['id']}   {what} (deleted {row['deleted_at'][:10]})")
        return
    try:
        kind, object_id = at_the_machine(store, BringBack(deleted_id))
    except (NotFound, ImportRefused) as error:
        raise click.ClickException(f"nothing was brought back: {error}") from None
    click.echo(f"Brought back as {kind} {object_id}, with its records.")


@click.command("unit")
@click.option("--households", is_flag=True, help="The template: an instance per household, each its folder and port.")
def unit_command(households: bool) -> None:
    """Print the systemd unit that serves Scorekeeper for good (`scorekeeper unit | sudo tee
    /etc/systemd/system/scorekeeper.service`): the one in contrib/, in the wheel too."""
    name = "scorekeeper@.service" if households else "scorekeeper.service"
    click.echo(contrib_folder().joinpath(name).read_text(encoding="utf-8"), nl=False)


def contrib_folder() -> Path:
    """contrib/: in the package when installed from the wheel, else at the checkout's top."""
    installed = Path(__file__).resolve().parent / "contrib"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[1] / "contrib"


def known_player(store: Store, name: str) -> int:
    found = store.player_id(name)
    if found is None:
        raise click.ClickException(f"no player called {name!r} has played here")
    return found


def at_the_machine(store: Store, command: Command[T]) -> T:
    """A command run by who has the server's files: every lock is open to them."""
    done = run(store, current_app.extensions["rulesets"], command, TRUSTED)
    assert not isinstance(done, Answered)  # no entry key: never answered from before
    return done


def host_change(store: Store, command: Command[T]) -> T:
    try:
        return at_the_machine(store, command)
    except GameError as error:
        raise click.ClickException(f"nothing was changed: {error}") from None


def list_locked(store: Store) -> None:
    locked = store.locked()
    if not locked:
        click.echo("Nothing is locked: no night or game has a PIN.")
        return
    click.echo("Locked (take a PIN off with `scorekeeper pin reset night ID` or `scorekeeper pin reset game ID`):")
    for row in locked:
        started = row["created_at"][:16].replace("T", " ")
        if row["kind"] == "night":
            games = row["games"].split(",") if row["games"] else []
            what = f"{row['name'] or 'a night'}, started {started} UTC, {plural(len(games), 'game')}"
        else:
            what = f"{row['name']}: {row['games']}, started {started} UTC"
        click.echo(f"  {row['kind']} {row['id']}   {what}")


def backed_up_before_a_change(store: Store) -> None:
    """A change made at the machine is undone by restoring the backup made just before it."""
    try:
        made = backups_folder.make_backup(store, current_app.config["BACKUPS_DIR"], "before-change")
    except backups_folder.BackupFailed as error:
        raise click.ClickException(f"nothing was changed: {error}") from None
    click.echo(f"Backed up first: {made.name} (`scorekeeper restore {made.name}` undoes this).")


COMMANDS = [
    init_db_command,
    serve_command,
    backup_command,
    restore_command,
    export_command,
    import_command,
    pin_group,
    player_group,
    delete_command,
    bring_back_command,
    unit_command,
]


def register(app: Flask) -> None:
    """The same commands under ``flask --app scorekeeper``."""
    for command in COMMANDS:
        app.cli.add_command(command)
