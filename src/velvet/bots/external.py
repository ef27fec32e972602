"""External agents in the arena: a Python class (``module:Class``) or a program (``cmd:...``).

:func:`make_entrant` reads a ``--bot`` spec: ``cmd:COMMAND`` runs COMMAND (split as a
shell would, run without one) and talks JSON lines with it over stdin/stdout;
``module.path:ClassName`` imports a class written to :mod:`velvet.bot` (the current
folder first); anything else is a built-in bot (:func:`velvet.bots.make_bot`).

Both are :class:`~velvet.bots.base.Bot` s, so ``play_game`` hands them ``view(seat)``
and the legal actions and nothing else; they pass on a JSON copy of the view and the
actions' texts. A misbehaving agent raises :class:`Forfeit` (the game is lost by that
seat; ``velvet.sim.run`` records it so, and the arena counts and shows it).

The program's protocol, one JSON object a line (docs/bench.md): Velvet sends
``{"v": 1, "type": "decide", "game": G, "seat": S, "seed": N, "view": {...}, "legal":
[{"text": "pass"}, ...]}`` and the program answers ``{"v": 1, "type": "move", "action":
"pass"}`` within the decision timeout; at the game's end Velvet closes the program's stdin
and waits a moment before ending it.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import selectors
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Any

from velvet.bots.base import Bot
from velvet.bots.registry import BOT_CHOICES, make_bot
from velvet.engine.core import Game
from velvet.engine.errors import ConfigError, VelvetError
from velvet.engine.rng import Rng

PROGRAM_PREFIX = "cmd:"
DECISION_TIMEOUT = 10.0
"""Seconds an external agent may take for one decision (``VELVET_BOT_TIMEOUT`` sets it)."""
MAX_LINE = 1 << 20
"""Bytes of one answer line a program may send (an action's text is short)."""
CLASS_SPEC = re.compile(
    r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$"
)
SEED_RANGE = 1 << 31


class Forfeit(VelvetError):
    """An external agent broke the rules of play: its seat loses the game."""

    def __init__(self, bot: str, reason: str, seat: int | None = None) -> None:
        super().__init__(f"{bot}: {reason}")
        self.bot = bot
        self.reason = reason
        self.seat = seat
        self.length: int | None = None
        """Actions played before the forfeit (set by the game loop)."""


def decision_timeout() -> float:
    """The per-decision timeout: ``VELVET_BOT_TIMEOUT`` seconds, else DECISION_TIMEOUT."""
    text = os.environ.get("VELVET_BOT_TIMEOUT")
    if not text:
        return DECISION_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise ConfigError(f"VELVET_BOT_TIMEOUT={text!r}: give seconds, above 0 and at most 3600")
    return value


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external agent (kept as written: class names have case)."""
    text = spec.strip()
    if text.startswith(PROGRAM_PREFIX):
        return True
    return CLASS_SPEC.match(text) is not None and text.partition(":")[0] not in BOT_CHOICES


def make_entrant(spec: str, game_name: str) -> Bot:
    """A fresh bot for ``spec``: an external agent (module docstring) or a built-in bot."""
    text = spec.strip()
    if text.startswith(PROGRAM_PREFIX):
        return ProgramBot(text, game_name)
    if is_external(text):
        return AgentBot(text, game_name, load_agent_class(text))
    return make_bot(spec, game_name)


def load_agent_class(spec: str) -> type[Any]:
    """The class of ``module.path:ClassName``; ConfigError saying what is wrong, if not."""
    module_name, _, class_name = spec.strip().partition(":")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise ConfigError(
            f"bot '{spec}': no module {error.name!r} (run from the folder that holds it, or "
            "install it)"
        ) from None
    except Exception as error:  # the agent's own module failed to import: say how
        raise ConfigError(f"bot '{spec}': importing {module_name} failed: {_line(error)}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise ConfigError(f"bot '{spec}': {module_name} has no class {class_name}")
    if not callable(getattr(found, "choose", None)):
        raise ConfigError(f"bot '{spec}': {class_name} has no choose(view, legal) method")
    return found


class _External:
    """What both kinds share: the seat, the legal texts, the answer checked."""

    seat: int | None = None

    def __init__(self, spec: str, game_name: str) -> None:
        self.name = spec
        self.game_name = game_name
        self.timeout = decision_timeout()
        self.seed: int | None = None

    def _texts(self, legal: Sequence[Any]) -> dict[str, Any]:
        return {str(action): action for action in legal}

    def _pick(self, answer: Any, texts: dict[str, Any]) -> Any:
        if not isinstance(answer, str):
            raise self._forfeit(f"chose {_short(answer)}, not the text of a legal action")
        if answer not in texts:
            shown = ", ".join(list(texts)[:8]) + (" ..." if len(texts) > 8 else "")
            raise self._forfeit(f"illegal move {_short(answer)} (legal: {shown})")
        return texts[answer]

    def _forfeit(self, reason: str) -> Forfeit:
        return Forfeit(self.name, reason, self.seat)

    def _seed(self, rng: Rng) -> int:
        if self.seed is None:
            self.seed = rng.randbelow(SEED_RANGE)
        return self.seed


class AgentBot(_External):
    """A :mod:`velvet.bot` class, made once per game, called in this process."""

    def __init__(self, spec: str, game_name: str, cls: type[Any]) -> None:
        super().__init__(spec, game_name)
        try:
            self.agent = cls()
        except Exception as error:
            raise ConfigError(
                f"bot '{spec}': making {cls.__name__}() failed: {_line(error)}"
            ) from None
        self._started = False

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        texts = self._texts(legal)
        copied = json.loads(json.dumps(view))  # plain data, the agent's own copy
        seed = self._seed(rng)
        began = time.monotonic()
        try:
            if not self._started:
                self._started = True
                start = getattr(self.agent, "start", None)
                if callable(start):
                    start(self.game_name, self.seat if self.seat is not None else 0, seed)
            answer = self.agent.choose(copied, list(texts))
        except Exception as error:  # the agent's own error: the game is lost, said why
            raise self._forfeit(f"raised {_line(error)}") from None
        spent = time.monotonic() - began
        if spent > self.timeout:
            raise self._forfeit(
                f"took {spent:.1f} s for one decision (the limit is {self.timeout:g} s)"
            )
        return self._pick(answer, texts)


class ProgramBot(_External):
    """A program speaking JSON lines (module docstring); started at its first decision."""

    def __init__(self, spec: str, game_name: str) -> None:
        super().__init__(spec, game_name)
        command = spec.strip()[len(PROGRAM_PREFIX) :].strip()
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise ConfigError(f"bot '{spec}': cannot read the command ({error})") from None
        if not self.argv:
            raise ConfigError(f"bot '{spec}': give a command after cmd:, as in cmd:'python a.py'")
        if shutil.which(self.argv[0]) is None:
            raise ConfigError(f"bot '{spec}': no program {self.argv[0]!r} found")
        self.process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""

    def choose(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        texts = self._texts(legal)
        message = {
            "v": 1,
            "type": "decide",
            "game": self.game_name,
            "seat": self.seat,
            "seed": self._seed(rng),
            "view": view,
            "legal": [{"text": text} for text in texts],
        }
        process = self._started()
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps(message).encode() + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._forfeit(self._ended("before it read its decision")) from None
        line = self._read_line(process)
        try:
            answer = json.loads(line)
        except ValueError:
            raise self._forfeit(
                f"sent a line that is not JSON: {_short(line.decode(errors='replace'))}"
            ) from None
        if not isinstance(answer, dict) or answer.get("type") != "move" or "action" not in answer:
            raise self._forfeit(
                f'sent {_short(answer)}; answer {{"v": 1, "type": "move", "action": TEXT}}'
            )
        return self._pick(answer["action"], texts)

    def close(self) -> None:
        """End the program: stdin closed (its cue), a moment to exit, then killed."""
        process, self.process = self.process, None
        if process is not None:
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            try:
                process.wait(1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5.0)
            if process.stdout is not None:
                process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __del__(self) -> None:
        process = getattr(self, "process", None)
        if process is not None and process.poll() is None:
            process.kill()

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            # kept open for the program's life (closed by close()): its stderr, for a crash
            self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
            try:
                self.process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._stderr,
                )
            except OSError as error:
                raise self._forfeit(f"could not start: {error.strerror or error}") from None
        return self.process

    def _read_line(self, process: subprocess.Popen[bytes]) -> bytes:
        """The program's next line, within the timeout; a Forfeit if none comes."""
        assert process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise self._forfeit(f"gave no answer within {self.timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._forfeit(self._ended("without answering"))
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE:
                    raise self._forfeit(f"sent a line over {MAX_LINE} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.strip()

    def _ended(self, when: str) -> str:
        """Why the program stopped talking: its exit code and the end of its stderr."""
        process = self.process
        code = None
        if process is not None:
            try:
                code = process.wait(2.0)
            except subprocess.TimeoutExpired:
                code = None
        tail = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            lines = self._stderr.read().decode(errors="replace").strip().splitlines()
            tail = f"; its stderr ends: {_short(lines[-1], 200)}" if lines else ""
        how = f"exit code {code}" if code is not None else "its output closed"
        return f"crashed {when} ({how}){tail}"


def close_bots(bots: Sequence[Bot]) -> None:
    """End what the bots of a game hold (an external program), after the game."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    text = repr(text) if isinstance(value, str) else text
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}"[:300] if text else type(error).__name__
