"""Worker processes that never outlive the process that started them.

Both pools of Velvet — ``velvet sim``'s games and the server's bot and hint searches —
start their workers with :func:`die_with_parent`, so no orphan keeps searching or
playing after its parent is killed, even by kill -9.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PARENT_POLL = 0.5
"""Seconds between a worker's checks that its parent is still alive."""


def die_with_parent(parent: int) -> None:
    """In a worker: end when process ``parent`` ends, even by kill -9.

    On Linux the kernel sends SIGKILL at the parent's death (PR_SET_PDEATHSIG); everywhere
    a daemon thread also watches for the worker being re-parented. Ctrl-C at the terminal
    is left to the parent, which keeps what is finished and stops its workers itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the hook was set
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="velvet-parent-watch", daemon=True).start()


def new_pool(
    workers: int, initializer: Any = None, initargs: tuple[Any, ...] = ()
) -> ProcessPoolExecutor:
    """``workers`` spawned processes that die with this one; ``initializer(*initargs)``
    runs in each after :func:`die_with_parent`."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer, initargs),
    )


def _start_worker(parent: int, initializer: Any, initargs: tuple[Any, ...]) -> None:
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def stop_pool(pool: ProcessPoolExecutor, wait: float = 2.0) -> None:
    """Stop ``pool`` now: queued work is dropped and its processes are killed (a search
    under way is of no use to anyone once its server stops), then reaped."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in procs:
        if process.is_alive():
            process.kill()
    for process in procs:
        process.join(wait)
