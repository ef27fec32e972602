"""Velvet's build backend: setuptools, plus the compiled build on request.

``VELVET_COMPILE=1 pip install '.[rl]'`` compiles the engine's hot modules with mypyc
(``setup.py`` lists them; docs/rl.md says what it gains); without it the build is
setuptools' own, pure Python. The compiled build needs mypy (which carries mypyc) and,
so that mypy can type the modules it compiles, Velvet's own dependencies and numpy in
the build environment: this backend asks pip for them only when compiling.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the rest of PEP 517/660, as is)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

COMPILE_VARIABLE = "VELVET_COMPILE"
MYPY = "mypy==2.4.1"
NUMPY = "numpy==2.4.6"


def compiling() -> bool:
    value = os.environ.get(COMPILE_VARIABLE, "")
    if value not in ("", "0", "1"):
        raise ValueError(
            f"{COMPILE_VARIABLE} must be 1 (compile) or 0 (pure Python), not {value!r}"
        )
    return value == "1"


def _project_dependencies() -> list[str]:
    with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
        deps: list[str] = tomllib.load(f)["project"]["dependencies"]
    return deps


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    if not compiling():
        pure: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
        return pure
    # setuptools runs setup.py to list its needs; it must not compile before mypy is there.
    os.environ[COMPILE_VARIABLE] = "0"
    try:
        needs: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    finally:
        os.environ[COMPILE_VARIABLE] = "1"
    return [*needs, MYPY, NUMPY, *_project_dependencies()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _refuse_editable()
    needs: list[str] = _setuptools.get_requires_for_build_editable(config_settings)
    return needs


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
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
