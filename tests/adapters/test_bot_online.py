"""External agents against a running server: ``velvet bot play`` joins a room's seat by its
invite, through the reference client, and plays it with an agent that sees only what the
seat's messages carry; the server runs no external code
(tests/server/test_no_external_agents.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from tests.server.conftest import LiveServer, sqlite_url
from velvet.bot.play import Played, play_seat
from velvet.cli import main
from velvet.engine.record import GameRecord
from velvet.games import get_game
from velvet.server.app import Settings

ROOT = Path(__file__).resolve().parents[2]


def _play(
    tmp_path: Path, agent: str, seats: list[str], rate: float = 20.0
) -> tuple[Played, dict[str, Any], list[str]]:
    """A VS room with ``seats`` on a live server (``rate``: the messages a socket may send a
    second); ``agent`` plays its human seat to the end."""
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0, rate=rate)
    with LiveServer(settings) as server:
        room = httpx.post(f"{server.url}/api/rooms", json={"game": "vs", "seats": seats}).json()
        (invite,) = room["invites"]
        lines: list[str] = []
        played = asyncio.run(
            play_seat(invite["url"], agent, seed=7, idle=60, keep_views=True, say=lines.append)
        )
        info = httpx.get(f"{server.url}/api/rooms/{room['room']}").json()
    return played, info, lines


@pytest.mark.parametrize("rate", [20.0, 2.0])  # 2: the rate limit refuses moves, sent again
def test_an_agent_plays_a_vs_game_against_a_server_bot_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rate: float
) -> None:
    monkeypatch.chdir(ROOT)  # examples/ is imported from the current folder, as documented
    agent = "examples.bench_agent:RandomAgent"
    played, info, lines = _play(tmp_path, agent, ["human", "greedy"], rate)
    assert played.error is None and played.forfeit is None, (played.error, lines)
    assert played.seat == 0 and played.game == "vs"
    assert info["status"] == "over"
    assert played.result is not None and played.record is not None
    record = GameRecord.from_json(played.record)
    # the record replays, and seat 1's moves in it are exactly the agent's, each chosen from
    # the view the server sent that seat: the engine's view(0) at that decision
    game = get_game("vs")
    state = game.new_state(record.config, record.seed)
    mine: list[str] = []
    views: list[Any] = []
    for text in record.actions:
        if state.current_player == 0:
            mine.append(text)
            views.append(json.loads(json.dumps(state.view(0))))
        state.apply(game.parse_action(text))
    assert state.is_terminal()
    assert mine == played.moves and len(mine) > 0
    assert played.views == views
    assert ("rate_limited" in "\n".join(lines)) == (rate < 3)


def test_an_agent_that_answers_an_illegal_move_forfeits_and_its_seat_resigns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tmp_path / "cheat_agent.py"
    agent.write_text(
        "class Teleport:\n    def choose(self, view, legal):\n        return 'teleport'\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    played, info, lines = _play(tmp_path, "cheat_agent:Teleport", ["human", "greedy"])
    assert played.forfeit is not None and "illegal move 'teleport'" in played.forfeit
    assert played.moves == [] and played.error is None
    assert info["status"] == "over" and played.record is not None
    record = GameRecord.from_json(played.record)
    game = get_game("vs")
    state = game.new_state(record.config, record.seed)
    for text in record.actions:  # the server bot's moves only: seat 1 resigned at its first
        assert state.current_player == 1
        state.apply(game.parse_action(text))
    assert state.current_player == 0 and not state.is_terminal()
    assert played.result is not None and played.result["returns"] == [0.0, 1.0]
    assert any("forfeit" in line and "resigning" in line for line in lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["x", "--agent", "m:C"], "not an invite link: 'x'"),
        (["http://h/join/R#t", "--agent", "greedy"], "agent 'greedy': give module.path"),
        (["http://h/join/R", "--agent", "m:C"], "has no #TOKEN"),
        (["http://h/join/R#t", "--agent", "m:C", "--idle", "0"], "--idle must be between"),
    ],
)
def test_bot_play_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["bot", "play", *args])
    assert result.exit_code == 2
    assert message in result.output
