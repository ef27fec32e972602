"""Velvet's build (pyproject.toml holds the project; this adds the compiled build).

With ``VELVET_COMPILE=1`` (build_backend/velvet_build.py), the modules in
``COMPILED`` are compiled with mypyc into C extensions that sit beside their
sources and are imported in their place; everything else stays Python.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

COMPILED = (
    "velvet/engine/core.py",
    "velvet/engine/rng.py",
    "velvet/engine/rules.py",
    "velvet/vs/state.py",
    "velvet/vs/effects.py",
    "velvet/vs/flow.py",
    "velvet/p5/state.py",
    "velvet/p5/effects.py",
    "velvet/p5/flow.py",
    "velvet/vs/encoder.py",
    "velvet/p5/encoder.py",
)
"""The hot path of a decision of either game and of an observation (docs/rl.md, "The
compiled build"); the actions stay Python (compiled frozen dataclasses do not pickle)."""


def compiled_build() -> dict[str, Any]:
    """setup()'s extra arguments: none for the pure build; for the compiled one, the
    extensions, built in the fresh folder the backend made (``VELVET_COMPILE_SCRATCH``)."""
    if os.environ.get("VELVET_COMPILE", "") != "1":
        return {}
    from mypyc.build import mypycify

    scratch = os.environ.get("VELVET_COMPILE_SCRATCH") or "build"
    modules = mypycify(
        [os.path.join("src", path) for path in COMPILED],
        opt_level="3",
        group_name="velvet_native",
        target_dir=os.path.join(scratch, "c"),
    )
    return {
        "ext_modules": list(modules),
        "options": {"build": {"build_base": os.path.join(scratch, "build")}},
    }


setup(**compiled_build())
