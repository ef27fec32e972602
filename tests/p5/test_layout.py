"""The P5 package's modules import "downwards" only: no import cycle, and no rules in state.py.

The import graph is read from the source with ``ast``: every ``import`` of a
``velvet.p5`` module that runs (at module level or inside a function), leaving out
those under ``if TYPE_CHECKING:``, which only annotations use.
"""

from __future__ import annotations

import ast
from pathlib import Path

import velvet.p5

PACKAGE = "velvet.p5"
SRC = Path(velvet.p5.__file__).parent
MODULES = {f"{PACKAGE}.{p.stem}": p for p in SRC.glob("*.py") if p.stem != "__init__"}
RULES = {f"{PACKAGE}.{m}" for m in ("effects", "flow", "view", "illegal")}
LAYERS = ["state", "effects", "flow", "view", "illegal", "game"]
"""The rules' layers, lowest first; each imports only from those before it."""


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except what sits under ``if TYPE_CHECKING:``."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def runtime_imports(source: str) -> set[str]:
    """The ``velvet.p5`` modules that ``source`` imports when it runs."""
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            # ``from velvet.p5 import actions`` imports the module velvet.p5.actions
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in found if m in MODULES}


def graph() -> dict[str, set[str]]:
    return {name: runtime_imports(path.read_text()) for name, path in MODULES.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first module repeated at its end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in edges.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_the_reader_sees_what_it_should() -> None:
    """The parser itself: runtime imports count, wherever they are; annotations' do not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from velvet.p5 import actions as A\n"
        "from velvet.p5.cards import STATS\n"
        "if TYPE_CHECKING:\n"
        "    from velvet.p5.game import P5Game\n"
        "else:\n"
        "    import velvet.p5.words\n"
        "def f():\n"
        "    from velvet.p5.flow import run\n"
    )
    assert runtime_imports(source) == {
        "velvet.p5.actions",
        "velvet.p5.cards",
        "velvet.p5.words",
        "velvet.p5.flow",
    }
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_package_has_its_modules() -> None:
    for name in ("state", "effects", "flow", "view", "illegal", "game"):
        assert f"{PACKAGE}.{name}" in MODULES


def test_no_import_cycle_in_the_package() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_state_imports_no_rules() -> None:
    edges = graph()
    direct = edges[f"{PACKAGE}.state"] & RULES
    assert not direct, f"state.py imports {sorted(direct)}"
    assert not reachable(edges, f"{PACKAGE}.state") & (RULES | {f"{PACKAGE}.game"})


def test_the_rules_import_downwards() -> None:
    """state <- effects <- flow <- view/illegal <- game: no module imports a later layer."""
    edges = graph()
    for i, low in enumerate(LAYERS):
        above = {f"{PACKAGE}.{m}" for m in LAYERS[i + 1 :]}
        wrong = edges[f"{PACKAGE}.{low}"] & above
        assert not wrong, f"{low}.py imports {sorted(wrong)} from above it"


def test_the_game_binds_every_rule_of_the_state() -> None:
    """state.py delegates to the rules that game.py binds: each one is there, from its layer."""
    from velvet.p5 import game, state

    assert game.P5Game is not None
    for name in state.Rules.names():
        fn = getattr(state.RULES, name)
        assert fn.__module__ in RULES, f"{name} comes from {fn.__module__}"
