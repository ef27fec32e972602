"""Suite-wide fixtures, and a check that the session leaves no process of its own behind."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Autosaves of interactive play go to a fresh folder, never to the user's own."""
    folder = tmp_path_factory.mktemp("velvet-data")
    monkeypatch.setenv("VELVET_DATA_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test sees English words unless it asks for another language."""
    from velvet import i18n

    monkeypatch.setenv(i18n.ENV, "en")
    monkeypatch.setattr(i18n, "_active", None)


# --- processes, read from /proc (Linux) -----------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def children() -> dict[int, int]:
    """Every live process's parent: {pid: ppid}."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and fields[0] != "Z":
                found[int(entry)] = int(fields[1])
    return found


def descendants(pid: int) -> set[int]:
    """The live processes started by ``pid``, by its children, and so on."""
    parents = children()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
    except OSError:
        return "?"


def gone(pids: set[int], within: float) -> set[int]:
    """Wait up to ``within`` seconds for ``pids`` to end; those still running."""
    deadline = time.monotonic() + within
    left = {p for p in pids if alive(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = {p for p in left if alive(p)}
    return left


def _own_tracker(pid: int) -> bool:
    """This process's own multiprocessing resource tracker: it ends when this process does
    (when nothing else holds its pipe, which the check of the other processes proves)."""
    from multiprocessing import resource_tracker

    return pid == getattr(resource_tracker._resource_tracker, "_pid", None)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Adopt the session's orphans: a process whose parent dies (a server killed by a test)
    is handed to this process instead of to init, so the check below sees it too."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            pass


def _reap() -> None:
    """Collect the exit status of adopted orphans that have ended (zombies of this process)."""
    for entry in os.listdir("/proc"):
        fields = _stat(int(entry)) if entry.isdigit() else None
        if fields is not None and fields[0] == "Z" and int(fields[1]) == os.getpid():
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(int(entry), os.WNOHANG)


LEFT_BEHIND_GRACE = 10.0
"""Seconds the session's own child processes get to end after its last test."""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session if it leaves processes of its own behind (bot and hint workers of
    servers never stopped, pools never shut down): they would run on after it."""
    if not Path("/proc/self/stat").exists():
        return
    _reap()
    ours = {p for p in descendants(os.getpid()) if not _own_tracker(p)}
    left = gone(ours, LEFT_BEHIND_GRACE)
    if not left:
        return
    lines = "\n".join(f"  {pid}: {command(pid)}" for pid in sorted(left))
    message = f"the test session left {len(left)} process(es) of its own behind:\n{lines}"
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write("\n")
        reporter.write_line(f"ERROR: {message}", red=True, bold=True)
    else:
        print(f"ERROR: {message}", file=sys.stderr)
    for pid in left:  # reported: now they end, so they do not run on after the session
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
