"""The compiled build (``VELVET_COMPILE=1``, docs/rl.md) plays exactly as the pure one.

The build backend's hooks are checked directly (fast). Then the real thing, once per
run: a wheel built through the backend with mypyc, as ``VELVET_COMPILE=1 pip install
'.[rl]'`` builds it in a fresh venv (in a venv holding only what the backend asks pip
for, linked from this environment's installs, so that this test needs no network), put
ahead of this environment's packages, must import its compiled modules, play the same
200 games per game to the same digests as this (pure) install, and pass the engine, game
and adapter tests.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tomllib
import venv
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

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
    # velvet.adapters (gym_env) imports it; pip fills the build environment before it installs
    # the rl extra, so in a fresh venv mypy finds only what is asked for here.
    assert "gymnasium==1.4.0" in needs
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
def compiled_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment variables under which this interpreter imports the compiled wheel
    (on PYTHONPATH, ahead of this environment's own Velvet), with every other package of
    this environment: the same for a venv, the system Python or CI's."""
    work = tmp_path_factory.mktemp("compiled")
    builder = build_environment(work / "build-env")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # As pip runs the backend (pyproject.toml's backend-path), in a venv of its own, and
    # with no project folder on sys.path (-P): mypy would search it for imports.
    build = subprocess.run(
        [str(builder), "-P", "-c", BUILD, str(work / "wheel")],
        cwd=ROOT,
        env={**env, "VELVET_COMPILE": "1", "PYTHONNOUSERSITE": "1"},
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (wheel,) = (work / "wheel").glob("velvet-*.whl")
    install = subprocess.run(
        [*PIP, "install", "--no-deps", "--target", str(work / "site"), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    yield {**env, "PYTHONPATH": str(work / "site")}


BUILD = (
    "import sys\n"
    "sys.path.insert(0, 'build_backend')\n"
    "import velvet_build\n"
    "print(velvet_build.build_wheel(sys.argv[1]))\n"
)
"""build_wheel through the backend, in the project folder, as pip calls it."""


def build_requirements() -> list[str]:
    """What pip puts into the isolated environment of a compiled build: pyproject.toml's
    build-system requirements and what the backend asks for."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        needs: list[str] = tomllib.load(f)["build-system"]["requires"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("VELVET_COMPILE", "1")
        patch.chdir(ROOT)
        return [*needs, *load_backend().get_requires_for_build_wheel()]


def build_environment(folder: Path) -> Path:
    """The Python of a new venv holding only the build requirements and what they require,
    as pip's isolated build of ``VELVET_COMPILE=1 pip install '.[rl]'`` in a fresh venv
    has them: linked from this environment's installs, so that this test needs no network.
    """
    venv.EnvBuilder(system_site_packages=False, with_pip=False, symlinks=True).create(folder)
    python = folder / "bin" / "python"
    found = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    site = Path(found.stdout.strip())
    todo = [Requirement(r) for r in build_requirements()]
    done: set[str] = set()
    while todo:
        need = todo.pop()
        name = canonicalize_name(need.name)
        if name in done:
            continue
        done.add(name)
        try:
            dist = metadata.distribution(need.name)
        except metadata.PackageNotFoundError:
            pytest.fail(f"the compiled build needs {need}, not installed here")
        assert need.specifier.contains(dist.version, prereleases=True), (
            f"the compiled build needs {need}; this environment has {dist.version}"
        )
        assert dist.files is not None, f"{need.name} lists no files (no RECORD)"
        for file in dist.files:
            if file.parts[0] == "..":  # scripts, outside site-packages
                continue
            target = site / file
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.symlink_to(Path(str(file.locate())).resolve())
        extras = {"", *need.extras}
        for line in dist.requires or ():
            sub = Requirement(line)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in extras):
                todo.append(sub)
    return python


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 900) -> str:
    """This interpreter's output, in the compiled build's environment or else with this
    checkout's pure source first on the path (whichever Velvet this environment installs)."""
    pure = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env or {**pure, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return done.stdout


@pytest.mark.slow
def test_the_compiled_build_runs_its_compiled_modules(compiled_env: dict[str, str]) -> None:
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
    lines = run("-c", code, env=compiled_env).splitlines()
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
def test_the_compiled_build_plays_the_same_games(compiled_env: dict[str, str]) -> None:
    check = ["benchmarks/playout_check.py", "digest", "--games", "200"]
    pure = run(*check)
    compiled = run(*check, env=compiled_env)
    assert "vs:" in pure and "p5:" in pure
    assert compiled == pure


@pytest.mark.slow
def test_the_compiled_build_passes_the_engine_game_and_adapter_tests(
    compiled_env: dict[str, str],
) -> None:
    deselect = [arg for test in DESELECTED for arg in ("--deselect", test)]
    out = run(
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
        env=compiled_env,
        timeout=1800,
    )
    summary = out.strip().splitlines()[-1]  # "N passed, M warnings in S s" (exit 0 checked)
    assert " passed" in summary and "failed" not in summary and "error" not in summary
