"""The ``scorekeeper`` command of an installed app: ``cli``'s commands on the app ``create_app`` makes
(kept apart from cli.py, which the app factory imports to give ``flask --app scorekeeper`` the same
commands)."""

from __future__ import annotations

import os
from pathlib import Path

import click
from flask.cli import ScriptInfo

from . import __version__, create_app
from .host.cli import COMMANDS


@click.group(help="Scorekeeper: scores, pennies and the money bowl for the penny rummy family.")
@click.version_option(__version__, prog_name="Scorekeeper", message="%(prog)s %(version)s")
@click.option(
    "--instance",
    type=click.Path(file_okay=False),
    envvar="SCOREKEEPER_INSTANCE",
    help="The folder with the database, settings, secret and backups (default: the user's data folder "
    "for an installed app, instance/ in a checkout).",
)
@click.pass_context
def main(context: click.Context, instance: str | None) -> None:
    if instance:
        os.environ["SCOREKEEPER_INSTANCE"] = str(Path(instance).resolve())
    # A restore must work on a database too damaged to start the app with.
    open_database = context.invoked_subcommand != "restore"
    context.obj = ScriptInfo(create_app=lambda: create_app(open_database=open_database))


for _command in COMMANDS:
    main.add_command(_command)
