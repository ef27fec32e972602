"""Drive the real ``velvet`` command in a pseudo-terminal of 80 x 24 (pexpect).

Everything the program writes is kept; ``lines()`` strips the terminal's escape
sequences so tests can check what a player reads: no line wider than the
terminal, no raw id or Python repr.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect

WIDTH, HEIGHT = 80, 24
SRC = Path(__file__).resolve().parents[2] / "src"
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][A-Z0-9]|[=>])")
RAW = re.compile(r"player=|card=|Event\(|\[\[|\{'|\w\(\w+=|Traceback|<velvet\.| at 0x|\b0\d\d\b")
"""What a person should never read: debug forms, reprs, tracebacks."""
PROMPT = r"Player [12]>"
"""A prompt; the line editor draws it again when a line is accepted, so wait for
something the answer prints (``NEXT`` for a move) before expecting the next one."""
NEXT = "your choices"
"""Printed once for each new decision."""


class Term:
    """One ``velvet`` process in a pseudo-terminal."""

    def __init__(self, *args: str, data: Path, timeout: float = 30) -> None:
        data.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        for key in ("COLUMNS", "LINES"):
            env.pop(key, None)
        env |= {
            "PYTHONPATH": str(SRC),
            "VELVET_DATA_DIR": str(data),
            "TERM": "xterm-256color",
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "NO_COLOR": "1",
        }
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "velvet.cli", *args],
            env=env,
            dimensions=(HEIGHT, WIDTH),
            encoding="utf-8",
            echo=False,
            timeout=timeout,
            cwd=str(data),  # a stray answer can only write files there
        )
        self.out = ""

    def expect(self, pattern: str | list[str], timeout: float | None = None) -> int:
        """Wait for ``pattern``; ``timeout`` seconds, or the terminal's own (30 s) when None
        (pexpect reads None as 'wait for ever', -1 as its default)."""
        index = self.child.expect(pattern, timeout=-1 if timeout is None else timeout)
        after = self.child.after
        self.out += str(self.child.before) + (after if isinstance(after, str) else "")
        return int(index)

    def send(self, text: str) -> None:
        self.child.send(text)

    def line(self, text: str) -> None:
        self.child.send(text + "\r")

    def interrupt(self) -> None:
        self.child.sendcontrol("c")

    def finish(self) -> int:
        self.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus or 0)

    def text(self) -> str:
        return ANSI.sub("", self.out).replace("\r\n", "\n")

    def lines(self) -> list[str]:
        return [line.rstrip() for line in re.split(r"\r?\n|\r", ANSI.sub("", self.out))]

    def printed_lines(self) -> list[str]:
        """The lines printed, without what the line editor draws while a person types
        (between its bracketed-paste switches; the terminal wraps the typed text)."""
        printed = re.sub(r"\x1b\[\?2004h.*?(\x1b\[\?2004l|$)", "\n", self.out, flags=re.S)
        return [line.rstrip() for line in re.split(r"\r?\n|\r", ANSI.sub("", printed))]

    def check_screen(self) -> None:
        """No printed line wider than the terminal, no raw id or repr anywhere."""
        lines = self.lines()
        wide = [line for line in self.printed_lines() if len(line) > WIDTH]
        assert not wide, f"lines wider than {WIDTH}: {wide[:3]}"
        raw = [line for line in lines if RAW.search(line)]
        assert not raw, f"raw ids or reprs on screen: {raw[:3]}"

    def last_choice(self) -> int:
        """The highest choice number of the list shown last."""
        text = self.text()
        start = text.rfind("your choices")
        paged = re.findall(r"Choices \d+-\d+ of (\d+)", text[start:])
        if paged:
            return int(paged[-1])
        numbers = re.findall(r"^\s*(?:[a-z]+\s+)?(\d+)\s{2}", text[start:], re.M)
        return max((int(n) for n in numbers), default=1)
