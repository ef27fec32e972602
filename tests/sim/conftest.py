"""Make the toy games in tests/bots importable (also by workers) as ``velvet_toys``."""

import sys
from pathlib import Path

_TOYS = str(Path(__file__).resolve().parent.parent / "bots")
if _TOYS not in sys.path:
    sys.path.insert(0, _TOYS)
