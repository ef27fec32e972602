"""The bench's fairness certificate: an external agent sees only view(seat) and the legal
actions' texts, so the leak sweep's two states (seat 1's hidden cards swapped) look the
same to it, in this process and as a program."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.adapters.test_leaks import vs_pair
from velvet.bots import RandomBot
from velvet.bots.external import AgentBot, ProgramBot
from velvet.engine.rng import Rng
from velvet.games import get_game, get_spec
from velvet.sim.run import play_game


class Recorder:
    """Records every input it gets; plays the first legal action."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, list[str]]] = []

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        self.seen.append((view, legal))
        return legal[0]


def test_an_agent_is_given_its_seats_view_and_the_legal_texts_nothing_else() -> None:
    game = get_game("vs")
    config = get_spec("vs").config_for(game, 2, {})
    bot = AgentBot("t:Recorder", "vs", Recorder)
    expected: list[tuple[Any, list[str]]] = []

    def before(state: Any, action: Any) -> None:
        if state.current_player == 0:
            view = json.loads(json.dumps(state.view(0)))
            expected.append((view, [str(a) for a in state.legal_actions()]))

    play_game(game, config, 3, [bot, RandomBot()], on_action=before)
    agent = bot.agent
    assert isinstance(agent, Recorder)
    assert agent.seen == expected and len(expected) > 10


def test_the_leak_sweeps_states_look_alike_to_an_agent() -> None:
    state, swapped = vs_pair()
    assert state.to_json() != swapped.to_json()  # seat 1's hidden cards differ
    inputs = []
    for s in (state, swapped):
        bot = AgentBot("t:Recorder", "vs", Recorder)
        bot.seat = 0
        bot.choose(s.game, s.view(0), s.legal_actions(), Rng(0))
        inputs.append(bot.agent.seen)
    assert inputs[0] == inputs[1]


ECHO = """
import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    out.write(line)
    out.flush()
    print(json.dumps({"v": 1, "type": "move", "action": message["legal"][0]["text"]}), flush=True)
"""


def test_the_leak_sweeps_states_look_alike_to_a_program(tmp_path: Path) -> None:
    script = tmp_path / "echo.py"
    script.write_text(ECHO)
    state, swapped = vs_pair()
    messages = []
    for k, s in enumerate((state, swapped)):
        log = tmp_path / f"seen{k}.jsonl"
        bot = ProgramBot(f"cmd:{sys.executable} {script} {log}", "vs")
        bot.seat = 0
        assert bot.choose(s.game, s.view(0), s.legal_actions(), Rng(0)) == s.legal_actions()[0]
        bot.close()
        (line,) = log.read_text().splitlines()
        message = json.loads(line)
        assert message["view"] == json.loads(json.dumps(s.view(0)))
        assert [e["text"] for e in message["legal"]] == [str(a) for a in s.legal_actions()]
        messages.append(message)
    assert messages[0] == messages[1]
