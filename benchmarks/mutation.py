"""Mutation testing of the rules modules against the rule tests (docs/mutation.md).

A small AST mutator: every comparison, arithmetic or boolean operator, ``not``,
integer or boolean constant of the rules modules is one mutation point; a seeded
sample of them is applied one at a time to a copy of ``src/``, and each game's rule
tests (golden playthroughs and random-play tests excluded) run against it. A mutant
is killed when a test fails (or the run times out); the score is the killed share
with its Wilson 95 % interval, and every survivor is listed as file:line and change.

    nice -n 10 python3 benchmarks/mutation.py --sample 150 --seed 1 --out mutation.json

Run it from the repository root; it never edits ``src/`` (mutants live in a
temporary copy, put first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar, cast

ROOT = Path(__file__).resolve().parent.parent

MODULES: dict[str, list[str]] = {
    "p5": [
        "velvet/p5/state.py",
        "velvet/p5/effects.py",
        "velvet/p5/flow.py",
        "velvet/p5/view.py",
        "velvet/p5/illegal.py",
    ],
    "vs": [
        "velvet/vs/state.py",
        "velvet/vs/effects.py",
        "velvet/vs/flow.py",
        "velvet/vs/view.py",
        "velvet/vs/illegal.py",
    ],
}
"""The rules modules of each game (paths under ``src/``)."""

TESTS: dict[str, list[str]] = {"p5": ["tests/p5"], "vs": ["tests/vs"]}
EXCLUDED = [
    "tests/p5/test_golden.py",
    "tests/vs/test_golden.py",
    "tests/p5/test_random_play.py",
    "tests/vs/test_random_games.py",
]
"""Golden playthroughs and random-play invariant runs: not rule tests."""

SWAP: dict[type[ast.AST], type[ast.AST]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.And: ast.Or,
    ast.Or: ast.And,
}
"""Operator replacements (one mutant per operator occurrence)."""

OpT = TypeVar("OpT", bound=ast.AST)


def swapped(op: OpT) -> OpT:
    """The replacement of an operator node (same node class family)."""
    return cast(OpT, SWAP[type(op)]())


class Mutator(ast.NodeTransformer):
    """Counts mutation points in a fixed order; applies the ``target``-th one if given.

    Type annotations are skipped (they are never evaluated here).
    """

    def __init__(self, target: int = -1) -> None:
        self.target = target
        self.count = 0
        self.points: list[tuple[int, str]] = []
        self.change = ""

    def _hit(self, node: ast.AST, kind: str) -> bool:
        index = self.count
        self.count += 1
        self.points.append((getattr(node, "lineno", 0), kind))
        return index == self.target

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "type_comment"):
                continue
            if isinstance(value, list):
                new: list[ast.AST] = []
                for item in value:
                    if isinstance(item, ast.AST):
                        out = self.visit(item)
                        if isinstance(out, ast.AST):
                            new.append(out)
                    else:
                        new.append(item)
                value[:] = new
            elif isinstance(value, ast.AST):
                setattr(node, name, self.visit(value))
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node  # a docstring
        return self.generic_visit(node)

    def _describe(self, before: ast.AST, after: ast.AST) -> None:
        self.change = f"{ast.unparse(before)}  ->  {ast.unparse(after)}"

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for i, op in enumerate(node.ops):
            if type(op) in SWAP and self._hit(node, "compare"):
                before = ast.Compare(node.left, list(node.ops), node.comparators)
                node.ops[i] = swapped(op)
                self._describe(before, node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if type(node.op) in SWAP and self._hit(node, "binop"):
            before = ast.BinOp(node.left, node.op, node.right)
            node.op = swapped(node.op)
            self._describe(before, node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if type(node.op) in SWAP and self._hit(node, "augassign"):
            before = ast.AugAssign(node.target, node.op, node.value)
            node.op = swapped(node.op)
            self._describe(before, node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        if self._hit(node, "boolop"):
            before = ast.BoolOp(node.op, list(node.values))
            node.op = swapped(node.op)
            self._describe(before, node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not | ast.USub) and self._hit(node, "unary"):
            self._describe(node, node.operand)
            return node.operand
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            if self._hit(node, "bool"):
                new = ast.Constant(not value)
                self._describe(node, new)
                return ast.copy_location(new, node)
        elif isinstance(value, int) and self._hit(node, "int"):
            new = ast.Constant(value + 1)
            self._describe(node, new)
            return ast.copy_location(new, node)
        return node


@dataclass
class Mutant:
    game: str
    module: str
    index: int
    line: int
    kind: str
    change: str = ""
    status: str = ""
    """"killed", "survived", "timeout" (counted as killed) or "invalid" (not counted)."""
    seconds: float = 0.0


def points(module: str) -> list[tuple[int, str]]:
    tree = ast.parse((ROOT / "src" / module).read_text())
    m = Mutator()
    m.visit(tree)
    return m.points


def mutated_source(module: str, index: int) -> tuple[str, str]:
    tree = ast.parse((ROOT / "src" / module).read_text())
    m = Mutator(index)
    tree = ast.fix_missing_locations(m.visit(tree))
    return ast.unparse(tree), m.change


def run_tests(
    game: str, pythonpath: Path, timeout: float, tests: list[str] | None = None
) -> tuple[str, float]:
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    cmd += tests or TESTS[game]
    cmd += [f"--ignore={path}" for path in EXCLUDED]
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start
    seconds = time.perf_counter() - start
    if done.returncode == 0:
        return "survived", seconds
    if done.returncode in (1, 2):  # tests failed, or collection broke on the mutant
        return "killed", seconds
    return "invalid", seconds


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sample(game: str, n: int, seed: int) -> list[Mutant]:
    every = [
        Mutant(game, module, i, line, kind)
        for module in MODULES[game]
        for i, (line, kind) in enumerate(points(module))
    ]
    rng = random.Random(f"{game}:{seed}")
    chosen = every if n <= 0 or n >= len(every) else rng.sample(every, n)
    return sorted(chosen, key=lambda m: (m.module, m.line, m.index))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=[*MODULES, "both"], default="both")
    ap.add_argument("--sample", type=int, default=150, help="mutants per game (0: all)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sample")
    ap.add_argument("--list", action="store_true", help="only count the mutation points")
    ap.add_argument("--out", type=Path, help="write every mutant and its result as JSON")
    ap.add_argument(
        "--lines",
        help="only the mutants on these lines, e.g. velvet/p5/illegal.py:47,velvet/vs/state.py:161",
    )
    ap.add_argument(
        "--mutants", help="only these mutants, as module:index (the index in --out's JSON)"
    )
    ap.add_argument("--tests", nargs="+", help="run these tests instead of the game's rule tests")
    args = ap.parse_args(argv)
    games = list(MODULES) if args.game == "both" else [args.game]
    if args.sample < 0:
        ap.error(f"--sample must be 0 or more, not {args.sample}")
    if args.list:
        for game in games:
            for module in MODULES[game]:
                print(f"{game} {module}: {len(points(module))} mutation points")
        return 0
    # a stopped run (SIGTERM) still removes its copy of src/ and its test process
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    results: list[Mutant] = []
    with tempfile.TemporaryDirectory(prefix="velvet-mutants-") as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
        for game in games:
            status, base = run_tests(game, src, 600, args.tests)
            if status != "survived":
                print(f"{game}: the rule tests fail without any mutant; fix that first")
                return 1
            timeout = 3 * base + 10
            print(f"{game}: rule tests pass in {base:.1f}s; mutant timeout {timeout:.0f}s")
            chosen = sample(game, 0 if args.lines or args.mutants else args.sample, args.seed)
            if args.mutants:
                ids = {tuple(x.rsplit(":", 1)) for x in args.mutants.split(",")}
                chosen = [m for m in chosen if (m.module, str(m.index)) in ids]
            if args.lines:
                wanted = {tuple(x.rsplit(":", 1)) for x in args.lines.split(",")}
                chosen = [m for m in chosen if (m.module, str(m.line)) in wanted]
            for m in chosen:
                original = (ROOT / "src" / m.module).read_text()
                text, m.change = mutated_source(m.module, m.index)
                (src / m.module).write_text(text)
                try:
                    m.status, m.seconds = run_tests(game, src, timeout, args.tests)
                finally:
                    (src / m.module).write_text(original)
                results.append(m)
                mark = "SURVIVED" if m.status == "survived" else m.status
                print(f"  {m.module}:{m.line} [{m.kind}] {m.change[:90]}  {mark}", flush=True)
    print()
    for game in games:
        done = [m for m in results if m.game == game and m.status != "invalid"]
        killed = sum(m.status in ("killed", "timeout") for m in done)
        lo, hi = wilson(killed, len(done))
        share = killed / len(done) if done else 0.0
        print(
            f"{game}: {killed}/{len(done)} killed = {share:.1%} "
            f"(95% interval {lo:.1%}-{hi:.1%}), seed {args.seed}"
        )
        for m in done:
            if m.status == "survived":
                print(f"  survived {m.module}:{m.line}  {m.change}")
    if args.out:
        args.out.write_text(json.dumps([asdict(m) for m in results], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
