"""Fuzz tally: with VELVET_FUZZ_REPORT=1, print inputs tried and outcomes per entry point."""

from __future__ import annotations

import os

import pytest

from tests.fuzz.hostile import TALLY


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not os.environ.get("VELVET_FUZZ_REPORT") or not TALLY:
        return
    entries = sorted({entry for entry, _ in TALLY})
    terminalreporter.write_line("fuzz inputs per entry point: tried / ok / clean error / crash")
    for entry in entries:
        ok, clean = TALLY[entry, "ok"], TALLY[entry, "clean error"]
        crash = TALLY[entry, "crash"]
        if TALLY[entry, "line"]:  # prompt lines: each is answered or refused in the game
            lines = TALLY[entry, "line"]
            terminalreporter.write_line(f"  {entry}: {lines} lines, {crash} crashes")
            continue
        terminalreporter.write_line(f"  {entry}: {ok + clean + crash} / {ok} / {clean} / {crash}")
