"""Game-specific results columns and configs, as declared by each game's spec.

Columns ending in ``_<seat>`` are per seat; list values become ``;``-joined
text, which the report reads as "items" (confidants, shadows, cards). The
functions live with their game (``velvet.p5.spec``, ``velvet.vs.spec``); these
names are kept for scripts that import them from here.
"""

from __future__ import annotations

from velvet.p5.spec import make_config as p5_config
from velvet.p5.spec import summarize as summarize_p5
from velvet.p5.spec import vary as vary_p5
from velvet.vs.spec import PLAYS
from velvet.vs.spec import make_config as vs_config
from velvet.vs.spec import start as start_vs
from velvet.vs.spec import summarize as summarize_vs
from velvet.vs.spec import track as track_vs
from velvet.vs.spec import vary as vary_vs

__all__ = [
    "PLAYS",
    "p5_config",
    "start_vs",
    "summarize_p5",
    "summarize_vs",
    "track_vs",
    "vary_p5",
    "vary_vs",
    "vs_config",
]
