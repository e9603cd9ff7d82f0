"""Every command of ``flask --app scorekeeper …``: init-db, serve, export, import, backup."""

from __future__ import annotations

import json

import click
from flask import Flask

from . import serving
from .catalog import Catalog
from .exports import to_json_text
from .store import Store, exchange, startup
from .table import ImportRefused, import_dump


def register(app: Flask) -> None:
    @app.cli.command("init-db")
    def init_db_command() -> None:
        """Create or upgrade the database schema."""
        store = Store(app.config["DATABASE"])
        store.migrate()
        store.close()
        click.echo(f"Database ready: {app.config['DATABASE']}")

    @app.cli.command("serve")
    @click.option("--network", is_flag=True, help="Serve to the local network too (phones on the same Wi-Fi).")
    @click.option("--port", default=serving.DEFAULT_PORT, show_default=True, help="Port to listen on.")
    def serve_command(network: bool, port: int) -> None:
        """Serve the app with waitress (127.0.0.1 unless --network)."""
        serving.serve(app, port, network)

    @app.cli.command("export")
    @click.argument("path", type=click.Path(dir_okay=False, writable=True))
    def export_command(path: str) -> None:
        """Write every night and game to PATH as JSON (re-importable)."""
        store = Store(app.config["DATABASE"])
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(to_json_text(exchange.dump(store)))
        click.echo(f"Exported to {path}")

    @app.cli.command("import")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False))
    def import_command(path: str) -> None:
        """Import an export into this database: all of it, or nothing."""
        store = Store(app.config["DATABASE"])
        catalog: Catalog = app.extensions["rulesets"]
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            game_ids = import_dump(store, catalog, data)
        except (ImportRefused, ValueError, RecursionError) as error:  # json's errors are ValueErrors
            raise click.ClickException(f"nothing was imported: {error}") from None
        click.echo(f"Imported {len(game_ids)} games from {path}")

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=False, writable=True))
    def backup_command(path: str) -> None:
        """Write a consistent copy of the live database to PATH (safe while the app runs)."""
        startup.backup(Store(app.config["DATABASE"]), path)
        click.echo(f"Backed up to {path}")
