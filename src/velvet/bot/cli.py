"""The ``velvet bot`` commands (registered by velvet.cli): external agents online."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click

from velvet.engine.errors import ConfigError

NEEDS_EXTRA = "playing online needs the server extra: pip install -e '.[server]'"


@click.group("bot")
def bot_command() -> None:
    """External agents (velvet.bot): play a seat of a running velvet serve."""


@bot_command.command("play")
@click.argument("url", metavar="URL")
@click.option(
    "--agent",
    required=True,
    metavar="AGENT",
    help="module.path:ClassName (a velvet.bot Agent; the current folder is searched first) "
    "or cmd:'PROGRAM' (JSON lines, docs/bench.md).",
)
@click.option("--seed", type=int, default=0, help="Seed of the agent's own randomness.")
@click.option(
    "--idle",
    type=float,
    default=300.0,
    help="Seconds to wait for the server's next message before giving up.",
)
@click.option(
    "--record",
    "record_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the game's record (JSON, for velvet replay) here at the end.",
)
def play_command(url: str, agent: str, seed: int, idle: float, record_file: Path | None) -> None:
    """Play the seat of invite URL (http://HOST/join/ROOM#TOKEN) with AGENT to the end.

    The agent runs on this machine and sees only what the seat's messages carry: its
    view and the legal actions' texts. A forfeit (an illegal answer, an exception, no
    answer in time) resigns the game. Exit status 0 when the game ended, 1 after a
    forfeit, 2 when it could not be played.

    \b
    Example (a room with a greedy bot in seat 2; its invite opens seat 1):
        velvet bot play 'http://127.0.0.1:8000/join/ROOM#TOKEN' \\
            --agent examples.bench_agent:RandomAgent
    """
    try:
        from velvet.bot.play import check_agent, play_seat
        from velvet.server.client import checked_invite
    except ImportError as error:
        raise ConfigError(f"{NEEDS_EXTRA} ({error.name} is missing)") from None
    checked_invite(url)
    if not 0 < idle <= 86_400:
        raise ConfigError(f"--idle must be between 0 and 86400 seconds, not {idle:g}")
    check_agent(agent)
    played = asyncio.run(play_seat(url, agent, seed=seed, idle=idle, say=click.echo))
    if played.error is not None:
        raise ConfigError(f"the game was not played to its end: {played.error}")
    if record_file is not None and played.record is not None:
        try:
            record_file.write_text(json.dumps(played.record), encoding="utf-8")
        except OSError as error:
            raise ConfigError(f"cannot write {record_file}: {error.strerror}") from None
        click.echo(f"record in {record_file}")
    sys.exit(1 if played.forfeit else 0)
