"""Worker processes that never outlive the process that started them.

Both pools of Velvet — ``velvet sim``'s games and the server's bot and hint searches —
start their workers with :func:`die_with_parent`, so no orphan keeps searching or
playing after its parent is killed, even by kill -9.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

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
