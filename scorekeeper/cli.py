"""The commands, one set for both spellings: ``scorekeeper COMMAND`` (the console command an install
gives) and ``flask --app scorekeeper COMMAND``: init-db, serve, backup, restore, export, import."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from . import serving
from .catalog import Catalog
from .commands.derived import ImportRefused, import_dump
from .store import Store, exchange, set_mirror
from .store import backups as backups_folder
from .store.mirror import MIRROR_NAME

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
    click.echo(f"Imported {len(game_ids)} games from {path}")


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


COMMANDS = [init_db_command, serve_command, backup_command, restore_command, export_command, import_command]


def register(app: Flask) -> None:
    """The same commands under ``flask --app scorekeeper``."""
    for command in COMMANDS:
        app.cli.add_command(command)
