"""The VS package imports downwards only: the rules can be read one layer at a time.

    state  <-  effects  <-  flow  <-  view, illegal  <-  game

``state`` holds the data, ``effects`` what cards do, ``flow`` the turn's steps,
``view`` what a seat sees, ``illegal`` why a move is refused; ``actions``, ``cards``
and ``views`` lie below them all. The import graph is read from the source with
``ast``: runtime imports only (an ``if TYPE_CHECKING:`` block is for annotations),
both those at module level and those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import velvet.vs

PACKAGE = "velvet.vs"
ROOT = Path(velvet.vs.__file__).parent
MODULES = sorted(p.stem for p in ROOT.glob("*.py") if p.stem != "__init__")

BASE = {"actions", "cards", "views"}
"""Modules below the rules: the action types, the card schema and its codes, view shapes."""
LAYERS = [{"state"}, {"effects"}, {"flow"}, {"view", "illegal"}, {"game"}]
"""The rules' layers, lowest first; a module imports only from layers below its own."""

DEFERRED = {
    ("cards", "game"): "check_card_files builds a game from custom card files",
    ("game", "decks"): "the built-in decks are read when a config asks for them",
    ("game", "words"): "card and event words are made when a front end asks",
    ("game", "position"): "a position is built when asked",
}
"""Imports inside a function that point up the graph; each waits until it is called."""


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of this package that ``node`` imports (short names)."""
    found: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith(PACKAGE + "."):
                found.add(alias.name.split(".")[2])
        return found
    module = node.module or ""
    if module == PACKAGE:  # from velvet.vs import flow, actions as A
        found |= {alias.name for alias in node.names if alias.name in MODULES}
    elif module.startswith(PACKAGE + "."):
        found.add(module.split(".")[2])
    return found


def imports(name: str) -> tuple[set[str], set[str]]:
    """(module-level, inside functions) runtime imports of ``velvet.vs.<name>``."""
    tree = ast.parse((ROOT / f"{name}.py").read_text(encoding="utf-8"))
    top: set[str] = set()
    deferred: set[str] = set()

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    walk(other, in_function)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                (deferred if in_function else top).update(_targets(child) - {name})
            inner = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            walk(child, inner)

    walk(tree, False)
    return top, deferred


GRAPH = {name: imports(name) for name in MODULES}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``edges`` as a path of module names, or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return None

    for node in sorted(edges):
        found = visit(node)
        if found:
            return found
    return None


def test_the_graph_is_read() -> None:
    # The reader sees real imports: flow's effects, game's rules, a TYPE_CHECKING one left out.
    assert "effects" in GRAPH["flow"][0] and "state" in GRAPH["flow"][0]
    assert {"flow", "illegal", "view", "state"} <= GRAPH["game"][0]
    assert "game" not in GRAPH["flow"][0] | GRAPH["flow"][1]
    assert "words" in GRAPH["game"][1]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_module_level_imports_have_no_cycle() -> None:
    found = cycle({name: top for name, (top, _) in GRAPH.items()})
    assert found is None, " -> ".join(found)


def test_all_runtime_imports_have_no_cycle_but_the_deferred_ones() -> None:
    edges = {name: top | deferred for name, (top, deferred) in GRAPH.items()}
    for (a, b), why in DEFERRED.items():
        assert b in GRAPH[a][1] and b not in GRAPH[a][0], f"{a} -> {b} ({why}) is gone or top"
        edges[a].discard(b)
    found = cycle(edges)
    assert found is None, " -> ".join(found)


def test_the_rules_import_downwards_only() -> None:
    below = set(BASE)
    for layer in LAYERS:
        for name in layer:
            top, deferred = GRAPH[name]
            used = top | (deferred - {b for a, b in DEFERRED if a == name})
            assert used <= below, f"{name} imports {sorted(used - below)}"
        below |= layer
    for name in BASE:
        top, _ = GRAPH[name]
        assert top <= BASE, f"{name} imports {sorted(top - BASE)}"


def test_state_imports_no_rules() -> None:
    top, deferred = GRAPH["state"]
    assert not (top | deferred) & {"flow", "effects", "view", "illegal", "game", "words"}
