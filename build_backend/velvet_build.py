"""Velvet's build backend: setuptools, plus the compiled build on request.

``VELVET_COMPILE=1 pip install '.[rl]'`` compiles the engine's hot modules with mypyc
(``setup.py`` lists them; docs/rl.md says what it gains); without it the build is
setuptools' own, pure Python. The compiled build needs mypy (which carries mypyc) and,
so that mypy can type the modules it compiles, everything they import in the build
environment: Velvet's own dependencies and, of the ``rl`` extra, numpy and gymnasium.
pip installs the build environment before the project's own dependencies, so in a fresh
venv nothing else is there. This backend asks pip for them only when compiling.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the rest of PEP 517/660, as is)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
)

COMPILE_VARIABLE = "VELVET_COMPILE"
SCRATCH_VARIABLE = "VELVET_COMPILE_SCRATCH"
"""Set by :func:`build_wheel` for setup.py: a fresh folder (relative to the project) for
this build's C and objects."""
MYPY = "mypy==2.4.1"
TYPED_FROM_RL = ("numpy", "gymnasium")
"""The ``rl`` extra's packages that mypy must find to type the compiled modules, pinned as
that extra pins them: the observation encoders (velvet.vs.encoder, velvet.p5.encoder)
import numpy; gymnasium was read with velvet.adapters when the encoders lived there, and
is kept so that a compiled adapter module types. The others (torch, stable-baselines3,
...) are not imported by anything mypy reads there."""


def compiling() -> bool:
    value = os.environ.get(COMPILE_VARIABLE, "")
    if value not in ("", "0", "1"):
        raise ValueError(
            f"{COMPILE_VARIABLE} must be 1 (compile) or 0 (pure Python), not {value!r}"
        )
    return value == "1"


def compile_requirements() -> list[str]:
    """What the compiled build needs beyond setuptools: mypy, Velvet's own dependencies and
    the ``rl`` extra's :data:`TYPED_FROM_RL`, with pyproject.toml's pins."""
    with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
        project: dict[str, Any] = tomllib.load(f)["project"]
    deps: list[str] = project["dependencies"]
    rl: list[str] = project["optional-dependencies"]["rl"]
    pins = {re.split(r"[\s\[<>=!~;]", pin, maxsplit=1)[0].lower(): pin for pin in rl}
    missing = [name for name in TYPED_FROM_RL if name not in pins]
    if missing:
        raise SystemExit(f"pyproject.toml's rl extra names no {', '.join(missing)}")
    return [MYPY, *(pins[name] for name in TYPED_FROM_RL), *deps]


@contextmanager
def _setting(name: str, value: str) -> Iterator[None]:
    """``os.environ[name] = value`` for the block (setuptools runs setup.py in-process)."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ[name]
        else:
            os.environ[name] = before


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    compile_too = compiling()
    # setuptools runs setup.py to list its needs; it must not compile before mypy is there.
    with _setting(COMPILE_VARIABLE, "0"):
        needs: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    return [*needs, *compile_requirements()] if compile_too else needs


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    compiling()  # a bad value fails here, before anything is built
    # The metadata is the same for both builds: mypyc runs once, in build_wheel.
    with _setting(COMPILE_VARIABLE, "0"):
        name: str = _setuptools.prepare_metadata_for_build_wheel(
            metadata_directory, config_settings
        )
    return name


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _refuse_editable()
    needs: list[str] = _setuptools.get_requires_for_build_editable(config_settings)
    return needs


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    if not compiling():
        pure: str = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
        return pure
    # A fresh folder per compiled build: a build/ left by an earlier build (another module
    # list, another source) would otherwise put its stale extensions into this wheel.
    # Inside the project, as setuptools takes sources by relative paths only.
    os.makedirs("build", exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="velvet-compile-", dir="build") as scratch,
        _setting(SCRATCH_VARIABLE, os.path.relpath(scratch)),
    ):
        name: str = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    return name


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _refuse_editable()
    name: str = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    return name


def _refuse_editable() -> None:
    if compiling():
        raise SystemExit(
            f"{COMPILE_VARIABLE}=1 cannot make an editable install: compiled modules would "
            "shadow the sources you edit. Install the compiled build without -e "
            f"({COMPILE_VARIABLE}=1 pip install '.[rl]'), or unset {COMPILE_VARIABLE}."
        )
