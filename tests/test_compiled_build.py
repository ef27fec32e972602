"""The compiled build (``VELVET_COMPILE=1``, docs/rl.md) plays exactly as the pure one.

The build backend's hooks are checked directly (fast). Then the real thing, once per
run: a wheel built through the backend with mypyc, installed in a venv beside this
environment's packages, must import its compiled modules, play the same 200 games per
game to the same digests as this (pure) install, and pass the engine, game and adapter
tests. The wheel is built without build isolation, from the mypy and numpy that the
``test`` extra installs, so that this test needs no network.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BACKEND = ROOT / "build_backend" / "velvet_build.py"
PIP = (sys.executable, "-m", "pip", "--disable-pip-version-check", "-q")

_SOURCE = (
    "reads the state class's methods' source with inspect and its __slots__, which a "
    "compiled class has not (the source is the same file in both builds; the pure run "
    "checks it)"
)
_SHORTCUT = (
    "a pure-build shortcut: compiled rules are no Python functions, so the compiled "
    "state class keeps its delegates (velvet.engine.rules.Rules.bind)"
)
DESELECTED = {
    "tests/engine/test_state_fields.py::test_vs_every_path_names_every_field": _SOURCE,
    "tests/engine/test_state_fields.py::test_p5_every_path_names_every_field": _SOURCE,
    "tests/engine/test_rules.py::"
    "test_the_two_calls_of_every_step_sit_straight_on_the_state_class[vs]": _SHORTCUT,
    "tests/engine/test_rules.py::"
    "test_the_two_calls_of_every_step_sit_straight_on_the_state_class[p5]": _SHORTCUT,
}
"""Tests of the pure build's own make-up, left out of the compiled run, with why."""


def load_backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location("velvet_build", BACKEND)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_backend_asks_for_mypyc_only_when_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = load_backend()
    monkeypatch.delenv("VELVET_COMPILE", raising=False)
    pure = backend.get_requires_for_build_wheel()
    assert not any(r.startswith("mypy") for r in pure)
    monkeypatch.setenv("VELVET_COMPILE", "1")
    needs = backend.get_requires_for_build_wheel()
    assert "mypy==2.4.1" in needs and "numpy==2.4.6" in needs
    assert "pydantic==2.14.3" in needs  # the project's own, so mypy can type what it compiles
    assert os.environ["VELVET_COMPILE"] == "1"  # restored after setuptools' own hook


def test_the_backend_refuses_a_compiled_editable_install(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = load_backend()
    monkeypatch.setenv("VELVET_COMPILE", "1")
    with pytest.raises(SystemExit, match="cannot make an editable install"):
        backend.get_requires_for_build_editable()
    monkeypatch.setenv("VELVET_COMPILE", "yes")
    with pytest.raises(ValueError, match=r"must be 1 \(compile\) or 0"):
        backend.get_requires_for_build_wheel()


@pytest.fixture(scope="module")
def compiled_python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The Python of a venv holding the compiled wheel (and this environment's packages)."""
    work = tmp_path_factory.mktemp("compiled")
    env = {**os.environ, "VELVET_COMPILE": "1"}
    build = subprocess.run(
        [*PIP, "wheel", "--no-deps", "--no-build-isolation", "-w", str(work / "wheel"), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (wheel,) = (work / "wheel").glob("velvet-*.whl")
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(work / "venv")
    python = work / "venv" / "bin" / "python"
    install = subprocess.run(
        [*PIP, "--python", str(python), "install", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    yield python


def run(python: Path | str, *args: str, timeout: float = 900) -> str:
    done = subprocess.run(
        [str(python), *args],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return done.stdout


@pytest.mark.slow
def test_the_compiled_build_runs_its_compiled_modules(compiled_python: Path) -> None:
    setup = load_setup_list()
    code = (
        "import importlib, importlib.machinery, velvet.engine\n"
        "suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)\n"
        f"for path in {setup!r}:\n"
        "    name = path.removesuffix('.py').replace('/', '.')\n"
        "    module = importlib.import_module(name)\n"
        "    print(name, module.__file__.endswith(suffixes))\n"
        "print('compiled()', velvet.engine.compiled())\n"
    )
    lines = run(compiled_python, "-c", code).splitlines()
    assert lines == [f"{p.removesuffix('.py').replace('/', '.')} True" for p in setup] + [
        "compiled() True"
    ]
    from velvet.engine import compiled

    assert not compiled()  # this test's own install is the pure one


def load_setup_list() -> tuple[str, ...]:
    """setup.py's COMPILED, read from its source without running setup()."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    (value,) = (
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets)
    )
    modules = ast.literal_eval(value)
    assert isinstance(modules, tuple) and modules
    return tuple(str(m) for m in modules)


@pytest.mark.slow
def test_the_compiled_build_plays_the_same_games(compiled_python: Path) -> None:
    check = ["benchmarks/playout_check.py", "digest", "--games", "200"]
    pure = run(sys.executable, *check)
    compiled = run(compiled_python, *check)
    assert "vs:" in pure and "p5:" in pure
    assert compiled == pure


@pytest.mark.slow
def test_the_compiled_build_passes_the_engine_game_and_adapter_tests(
    compiled_python: Path,
) -> None:
    deselect = [arg for test in DESELECTED for arg in ("--deselect", test)]
    out = run(
        compiled_python,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/engine",
        "tests/vs",
        "tests/p5",
        "tests/adapters",
        "tests/bots",
        "tests/test_conformance.py",
        *deselect,
        timeout=1800,
    )
    summary = out.strip().splitlines()[-1]  # "N passed, M warnings in S s" (exit 0 checked)
    assert " passed" in summary and "failed" not in summary and "error" not in summary
