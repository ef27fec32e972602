"""External agents in the arena: a velvet.bot class or a JSON-lines program is rated beside
the built-in bots; one that misbehaves loses the game by forfeit, and the arena says why."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from velvet.bots.external import AgentBot, Forfeit, ProgramBot, make_entrant
from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.games import get_game, get_spec
from velvet.sim.arena import ArenaOptions, bot_folder, run_arena
from velvet.sim.run import play_row

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bench_agent.py"

AGENTS = '''
import time
from velvet.bot import Agent

class First(Agent):
    def choose(self, view, legal):
        return legal[0]

class Last:
    """No base class: any class with choose(view, legal) will do."""
    def choose(self, view, legal):
        return legal[-1]

class Raises(Agent):
    def choose(self, view, legal):
        raise KeyError("hand")

class Illegal(Agent):
    def choose(self, view, legal):
        return "teleport"

class Slow(Agent):
    def choose(self, view, legal):
        time.sleep(0.4)
        return legal[0]
'''

PROGRAMS = {
    "bad_json": "import sys\nfor line in sys.stdin:\n    print('{not json', flush=True)\n",
    "illegal": (
        "import json, sys\nfor line in sys.stdin:\n"
        "    print(json.dumps({'v': 1, 'type': 'move', 'action': 'teleport'}), flush=True)\n"
    ),
    "crash": (
        "import sys\nsys.stdin.readline()\nsys.stderr.write('boom: out of ideas\\n')\nsys.exit(3)\n"
    ),
    "silent": "import sys, time\nsys.stdin.readline()\ntime.sleep(30)\n",
    "wrong_shape": "import sys\nfor line in sys.stdin:\n    print('[1, 2]', flush=True)\n",
}


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package ``ext_agents`` of agent classes in the current folder, and programs."""
    package = tmp_path / "ext_agents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mine.py").write_text(AGENTS)
    for name, code in PROGRAMS.items():
        (tmp_path / f"{name}.py").write_text(code)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def one_game(seats: list[str], game: str = "vs") -> dict[str, Any]:
    sim_game = get_spec(game)
    loaded = sim_game.load(())
    players = 2 if game == "vs" else 1
    return play_row(sim_game, loaded, sim_game.config_for(loaded, players, {}), seats, 0, 0)


def test_a_class_agent_and_a_program_are_rated_beside_a_built_in_bot(
    agents: Path, tmp_path: Path
) -> None:
    program = f"cmd:{sys.executable} {EXAMPLE}"
    out = tmp_path / "arena"
    result = run_arena(
        "vs",
        ["ext_agents.mine:First", program, "random"],
        out,
        ArenaOptions(n_games=2, workers=1),
    )
    text = "\n".join(result.lines)
    bots = [row["bot"] for row in result.data["ratings"]["bots"]]
    assert bots == ["ext_agents.mine:First", program, "random"]  # case kept, every one rated
    assert all(row["games"] == 4 and not row["errors"] for row in result.data["pairings"])
    assert "forfeit" not in text
    assert (out / f"{bot_folder('ext_agents.mine:First')}--random").is_dir()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("bad_json", "sent a line that is not JSON: '{not json'"),
        ("illegal", "illegal move 'teleport' (legal: "),
        ("crash", "crashed without answering (exit code 3); its stderr ends: 'boom: out of ideas'"),
        ("wrong_shape", 'sent [1, 2]; answer {"v": 1, "type": "move", "action": TEXT}'),
    ],
)
def test_a_misbehaving_program_loses_by_forfeit_and_says_why(
    agents: Path, name: str, words: str
) -> None:
    spec = f"cmd:{sys.executable} {name}.py"
    for seat in (0, 1):
        seats = [spec, "random"] if seat == 0 else ["random", spec]
        row = one_game(seats)
        assert row["error"] is None
        assert row["outcome"].startswith(f"forfeit by seat {seat + 1} ({spec}): ")
        assert words in row["outcome"]
        assert row[f"return_{seat}"] == 0.0 and row[f"return_{1 - seat}"] == 1.0
        assert row["winner"] == 1 - seat


def test_a_silent_program_forfeits_at_the_decision_timeout(
    agents: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VELVET_BOT_TIMEOUT", "0.5")
    row = one_game([f"cmd:{sys.executable} silent.py", "random"])
    assert "gave no answer within 0.5 s" in row["outcome"] and row["return_0"] == 0.0
    monkeypatch.setenv("VELVET_BOT_TIMEOUT", "0.2")
    row = one_game(["ext_agents.mine:Slow", "random"])
    assert "took 0.4 s for one decision (the limit is 0.2 s)" in row["outcome"]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ext_agents.mine:Raises", "raised KeyError: 'hand'"),
        ("ext_agents.mine:Illegal", "illegal move 'teleport'"),
    ],
)
def test_a_misbehaving_class_loses_by_forfeit(agents: Path, spec: str, words: str) -> None:
    row = one_game(["random", spec])
    assert row["outcome"].startswith(f"forfeit by seat 2 ({spec}): ") and words in row["outcome"]
    assert (row["return_0"], row["return_1"]) == (1.0, 0.0)


def test_a_co_op_forfeit_loses_for_every_seat(agents: Path) -> None:
    row = one_game(["ext_agents.mine:Illegal"], game="p5")
    assert row["outcome"].startswith("forfeit by seat 1") and row["return_0"] == 0.0


def test_the_arena_counts_forfeits_as_losses_and_lists_them(agents: Path, tmp_path: Path) -> None:
    spec = f"cmd:{sys.executable} illegal.py"
    result = run_arena("vs", ["random", spec], tmp_path / "arena", ArenaOptions(n_games=2))
    (pairing,) = result.data["pairings"]
    assert pairing["games"] == 4 and pairing["a_wins"] == 4 and pairing["errors"] == 0
    assert len(pairing["forfeits"]) == 4
    text = "\n".join(result.lines)
    assert "4 games lost by forfeit (scored as losses):" in text
    assert "illegal move 'teleport'" in text
    # a sweep is +inf Elo for the winner (the JSON holds null for an infinite bound)
    assert f"random vs {spec}: 4-0-0 of 4, 100.0%, +inf [" in text
    assert pairing["elo_paired"][0] is None


def test_a_finished_program_is_ended(agents: Path) -> None:
    bot = make_entrant(f"cmd:{sys.executable} {EXAMPLE}", "vs")
    assert isinstance(bot, ProgramBot)
    game = get_game("vs")
    state = game.new_state(get_spec("vs").config_for(game, 2, {}), 1)
    bot.seat = state.current_player
    action = bot.choose(game, state.view(bot.seat), state.legal_actions(), Rng(1))
    assert action in state.legal_actions()
    process = bot.process
    assert process is not None and process.poll() is None
    bot.close()
    assert process.poll() is not None and bot.process is None


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ext_agents.nothing:First", "no module 'ext_agents.nothing'"),
        ("ext_agents.mine:Missing", "ext_agents.mine has no class Missing"),
        ("cmd:", "give a command after cmd:"),
        ("cmd:no-such-program-xyz --go", "no program 'no-such-program-xyz' found"),
        ("cmd:python3 'unclosed", "cannot read the command"),
    ],
)
def test_bad_agent_specs_get_one_line_errors(agents: Path, spec: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words) as error:
        make_entrant(spec, "vs")
    assert "\n" not in str(error.value)
    with pytest.raises(ConfigError, match=words):
        run_arena("vs", [spec, "random"], agents / "out", ArenaOptions(n_games=1))
    assert not (agents / "out").exists()


def test_built_in_specs_still_mean_built_in_bots(agents: Path) -> None:
    assert not isinstance(make_entrant("greedy", "vs"), AgentBot | ProgramBot)
    assert not isinstance(make_entrant("mcts:20", "vs"), AgentBot | ProgramBot)
    assert isinstance(make_entrant("ext_agents.mine:Last", "vs"), AgentBot)
    assert issubclass(Forfeit, Exception)
