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
    "velvet/adapters/encoding.py",
)
"""The hot path of a VS decision and of an observation (docs/rl.md, "Compiled build")."""


def ext_modules() -> list[Any]:
    if os.environ.get("VELVET_COMPILE", "") != "1":
        return []
    from mypyc.build import mypycify

    return list(
        mypycify(
            [os.path.join("src", path) for path in COMPILED],
            opt_level="3",
            group_name="velvet_native",
        )
    )


setup(ext_modules=ext_modules())
