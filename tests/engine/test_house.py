"""One house: front ends find a game only through its spec. Ratchets that may only shrink.

* **Game names outside the game packages.** Every line of ``src/velvet`` outside
  ``velvet.p5`` and ``velvet.vs`` that names a built-in game: a string (not a docstring)
  holding the word ``p5`` or ``vs`` (``"p5"``, ``game.name == "vs"``, ``"velvet.p5.cards"``;
  not the English ``f"{a} vs {b}"``), an import of ``velvet.p5`` / ``velvet.vs`` (except by
  one of that game's plug-ins, which the import contract lets import it), or a function or
  class named for one (``def p5_summary``). Comments do not count.
  ``type: ignore[attr-defined]`` comments in ``src`` (reaching a game's internals through
  ``Game[Any]``) are counted per file too.
* **The import contract.** Modules of the front-end packages (``FRONT_ENDS``) import
  ``velvet.p5.*`` / ``velvet.vs.*`` only when the module is one of that game's plug-ins:
  a module its ``GameSpec`` names by import path (``renderer="velvet.ui.p5_render"``,
  ``evaluator="velvet.bots.heuristics:p5_evaluator"`` ...: ``GameSpec.plugin_paths()``).
* **The browser client.** Lines of ``web/static/*.js`` naming a game, outside the board
  modules a spec names (``GameSpec.board``): the client finds a game's board, style sheet,
  options and bots through ``GET /api/games`` (``catalog.js``).

Today's counts are the allowlists below. A count above its entry fails (add a GameSpec
facet instead); a count below it fails too, so the entry is lowered and cannot grow back.
``python3 tests/engine/test_house.py`` prints the current counts.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = SRC / "velvet"
GAMES = ("p5", "vs")
GAME_PACKAGES = tuple(f"velvet.{g}" for g in GAMES)
FRONT_ENDS = (
    "velvet.adapters",
    "velvet.printing",
    "velvet.sim",
    "velvet.bots",
    "velvet.server",
    "velvet.ui",
    "velvet.cli",
)
WORD = re.compile(r"(?<![A-Za-z0-9])(p5|vs)(?![A-Za-z0-9])")
VERSUS = re.compile(r"(?:^ |\) )vs(?: |$)")
"""``f"{a} vs {b}"``, ``"(seat 1) vs "``: the English word in a pairing, not the game."""
IGNORE = re.compile(r"type:\s*ignore\[[^\]]*\battr-defined\b")

# Lines naming a game, per file (src/velvet/...). May only shrink.
NAMED: dict[str, int] = {
    "adapters/gym_env.py": 2,
    "adapters/pettingzoo_env.py": 10,
    "bots/heuristics.py": 3,
    "bots/hints.py": 1,
    "games.py": 1,
    "printing/sheets.py": 1,
    "printing/summary.py": 2,
}
# `type: ignore[attr-defined]` comments per file (src/velvet/...). May only shrink.
IGNORES: dict[str, int] = {
    "adapters/_engine.py": 1,
    "printing/sheets.py": 1,
}
# (front-end module, game module it imports) pairs breaking the import contract. May only shrink.
IMPORTS: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def in_game_package(path: Path) -> bool:
    name = module_name(path)
    return any(name == g or name.startswith(g + ".") for g in GAME_PACKAGES)


def docstrings(tree: ast.AST) -> set[int]:
    """The ``id`` of every docstring constant in ``tree``."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            first = body[0].value if body and isinstance(body[0], ast.Expr) else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(id(first))
        # a string right after an assignment documents that name (attribute docstring)
        if hasattr(node, "body") and isinstance(node.body, list):
            for before, after in zip(node.body, node.body[1:], strict=False):
                if (
                    isinstance(before, ast.Assign | ast.AnnAssign)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    found.add(id(after.value))
    return found


def imports(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """``(line, module)`` for every import in ``tree`` (``from velvet.p5 import cards``:
    ``velvet.p5`` and ``velvet.p5.cards``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                parent = parent[: len(parent) - node.level + (1 if is_package else 0)]
                base = ".".join([*parent, base] if base else parent)
            found.append((node.lineno, base))
            if base in ("velvet", *GAME_PACKAGES):  # names taken may be modules
                found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def game_of(imported: str) -> str | None:
    for game, package in zip(GAMES, GAME_PACKAGES, strict=True):
        if imported == package or imported.startswith(package + "."):
            return game
    return None


def named_lines(
    path: Path, module: str | None = None, plugins: dict[str, set[str]] | None = None
) -> dict[int, str]:
    """Line -> why, for each line of ``path`` that names a game (see the module docstring);
    a plug-in's imports of its own game (``plugins``: game -> its plug-in modules) do not."""
    text = path.read_text()
    tree = ast.parse(text, str(path))
    skip = docstrings(tree)
    lines: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words = WORD.finditer(node.value)
            if any(
                not VERSUS.search(node.value[max(0, m.start() - 3) : m.end() + 1]) for m in words
            ):
                lines.setdefault(node.lineno, f"the string {node.value[:40]!r}")
        elif isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ) and WORD.search(node.name.replace("_", " ")):
            lines.setdefault(node.lineno, f"the name {node.name}")
    module = module or module_name(path)
    for line, imported in imports(tree, module, path.name == "__init__.py"):
        game = game_of(imported)
        if game and module not in (plugins or {}).get(game, ()):
            lines.setdefault(line, f"an import of {imported}")
    return lines


def attr_ignores(path: Path) -> list[int]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return [t.start[0] for t in tokens if t.type == tokenize.COMMENT and IGNORE.search(t.string)]


def plugin_modules() -> dict[str, set[str]]:
    """Game -> the modules its spec names as plug-ins (``GameSpec.plugin_paths``)."""
    from velvet.games import get_spec

    return {
        game: {path.partition(":")[0] for path in get_spec(game).plugin_paths().values()}
        for game in GAMES
    }


def contract_breaks() -> dict[tuple[str, str], int]:
    """(front-end module, imported game module) -> first line, for imports the contract
    forbids: a game's internals imported by a module that is not one of its plug-ins."""
    plugins = plugin_modules()
    found: dict[tuple[str, str], int] = {}
    for path in sources():
        module = module_name(path)
        if not any(module == f or module.startswith(f + ".") for f in FRONT_ENDS):
            continue
        tree = ast.parse(path.read_text(), str(path))
        for line, imported in imports(tree, module, path.name == "__init__.py"):
            game = game_of(imported)
            if game is None or module in plugins[game]:
                continue
            found.setdefault((module, imported), line)
    return found


def measure() -> tuple[dict[str, dict[int, str]], dict[str, list[int]]]:
    named: dict[str, dict[int, str]] = {}
    ignores: dict[str, list[int]] = {}
    plugins = plugin_modules()
    for path in sources():
        key = path.relative_to(PACKAGE).as_posix()
        if not in_game_package(path):
            lines = named_lines(path, plugins=plugins)
            if lines:
                named[key] = lines
        found = attr_ignores(path)
        if found:
            ignores[key] = found
    return named, ignores


HOW = (
    "A front end must find a game only through its GameSpec. Instead of naming the game, "
    "add a facet to velvet.engine.spec.GameSpec (a value, or the import path "
    "'package.module:function' of a plug-in, as renderer and evaluator are), set it in each "
    "game's spec.py (velvet/p5/spec.py, velvet/vs/spec.py), and read it from the spec "
    "(velvet.games.get_spec(name), velvet.engine.spec.resolve(path, what)); "
    "docs/engine.md 'Plugging in a game: the facets' lists the facets there are."
)


def _ratchet(
    what: str, found: Counter[str], allowed: dict[str, int], detail: dict[str, str]
) -> None:
    grown = {k: n for k, n in found.items() if n > allowed.get(k, 0)}
    shrunk = {k: n for k, n in allowed.items() if found.get(k, 0) < n}
    problems: list[str] = []
    for key, n in sorted(grown.items()):
        problems.append(
            f"src/velvet/{key}: {n} {what} (allowlist: {allowed.get(key, 0)}): {detail[key]}"
        )
    if grown:
        problems.append(HOW)
    for key, n in sorted(shrunk.items()):
        problems.append(
            f"src/velvet/{key}: {found.get(key, 0)} {what}, fewer than the allowlist's {n}: "
            f"well done, lower its entry in tests/engine/test_house.py to {found.get(key, 0)} "
            "(remove it at 0) so it cannot grow back"
        )
    assert not problems, "\n".join(problems)


def test_no_front_end_names_a_game_beyond_the_allowlist() -> None:
    named, _ = measure()
    found = Counter({key: len(lines) for key, lines in named.items()})
    detail = {
        key: "; ".join(f"line {n}: {why}" for n, why in sorted(lines.items()))
        for key, lines in named.items()
    }
    _ratchet("line(s) naming p5 or vs", found, NAMED, detail)


def test_type_ignore_attr_defined_only_shrinks() -> None:
    _, ignores = measure()
    found = Counter({key: len(lines) for key, lines in ignores.items()})
    detail = {
        key: "lines "
        + ", ".join(map(str, lines))
        + " reach attributes Game[Any] / State[Any] do not declare"
        for key, lines in ignores.items()
    }
    _ratchet("`type: ignore[attr-defined]`", found, IGNORES, detail)


def test_front_ends_import_a_game_only_through_its_plug_ins() -> None:
    breaks = contract_breaks()
    new = sorted(set(breaks) - IMPORTS)
    gone = sorted(IMPORTS - set(breaks))
    problems = [
        f"{module} (line {breaks[(module, imported)]}) imports {imported}, a game's internals, "
        "and is not one of that game's plug-ins (GameSpec.plugin_paths())"
        for module, imported in new
    ]
    if new:
        problems.append(
            "Reach the game through its spec instead (velvet.games.get_spec(name), then a "
            "facet), or make the module a plug-in the spec names by import path. " + HOW
        )
    problems += [
        f"{module} no longer breaks the contract with {imported} (it imports it no more, or "
        "is now one of that game's plug-ins): remove the pair from IMPORTS in "
        "tests/engine/test_house.py so it cannot come back"
        for module, imported in gone
    ]
    assert not problems, "\n".join(problems)


def test_every_plug_in_facet_is_listed_and_each_built_in_one_loads() -> None:
    """The import contract trusts PLUGIN_FACETS: a facet naming a module must be in it."""
    import dataclasses

    from velvet.engine.spec import PLUGIN_FACETS, GameSpec, resolve
    from velvet.games import get_spec

    optional_text = {f.name for f in dataclasses.fields(GameSpec) if f.type == "str | None"}
    # turns_key names a column; board a file of the browser client (not an import path)
    assert optional_text - {"turns_key", "board"} == set(PLUGIN_FACETS)
    for game in GAMES:
        for facet, path in get_spec(game).plugin_paths().items():
            assert resolve(path, f"{game} {facet}") is not None


def test_the_scanner_sees_each_kind_of_naming(tmp_path: Path) -> None:
    """The ratchet's reader itself: each kind of naming counts, docstrings and comments not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""About p5 and vs: a docstring."""\n'
        "from velvet.p5 import cards\n"  # 2
        "import velvet.vs.game\n"  # 3
        "# p5 in a comment\n"
        "def p5_summary(game):\n"  # 5
        '    """The p5 summary."""\n'
        '    return game.name == "vs"\n'  # 7
        'PATH = "velvet.ui.p5_render"\n'  # 8
        'TEXT = f"versus, p55, vsx, avs, {a} vs {b} (seat 1) vs {c}"\n'
        "x = 1  # type: ignore[attr-defined]\n"  # 10
    )
    assert sorted(named_lines(sample, "velvet.sample")) == [2, 3, 5, 7, 8]
    plugin = {"p5": {"velvet.sample"}}
    assert sorted(named_lines(sample, "velvet.sample", plugin)) == [3, 5, 7, 8]
    assert attr_ignores(sample) == [10]


# The browser client (web/static/*.js) outside the board modules the specs name
# (GameSpec.board): lines naming a game, per file. May only shrink. cards.js draws each
# card kind's face (a registry keyed "vs:persona" ...); look.js points motion at boards.
STATIC = PACKAGE / "web" / "static"
JS_NAMED: dict[str, int] = {"web/static/cards.js": 23, "web/static/look.js": 6}
JS_COMMENT = re.compile(r"(?:^|\s)//.*$")


def js_named_lines(path: Path) -> dict[int, str]:
    """Lines of a JS file whose code (comments left out) names a built-in game."""
    found: dict[int, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = JS_COMMENT.sub("", line)
        if WORD.search(code):
            found[number] = code.strip()[:80]
    return found


def test_the_browser_client_names_a_game_only_in_its_board_modules() -> None:
    from velvet.games import game_names, get_spec

    boards = {get_spec(name).board for name in game_names()} - {None}
    assert boards, "no game names a browser board module (GameSpec.board)"
    found: Counter[str] = Counter()
    detail: dict[str, str] = {}
    for path in sorted(STATIC.glob("*.js")):
        if path.name in boards:
            continue
        lines = js_named_lines(path)
        if lines:
            key = f"web/static/{path.name}"
            found[key] = len(lines)
            detail[key] = "; ".join(f"line {n}: {t}" for n, t in sorted(lines.items()))
    _ratchet("line(s) naming p5 or vs", found, JS_NAMED, detail)


def test_the_js_scanner_counts_code_not_comments(tmp_path: Path) -> None:
    sample = tmp_path / "sample.js"
    sample.write_text(
        "// the p5 board\n"
        'const BOARDS = { vs: "./vs.js" };\n'  # 2
        "const url = 'http://x/'; // p5\n"
        "if (game === 'p5') draw(); // vs\n"  # 4
    )
    assert sorted(js_named_lines(sample)) == [2, 4]


if __name__ == "__main__":
    sys.path.insert(0, str(SRC))
    named_now, ignores_now = measure()
    for key, lines in sorted(named_now.items()):
        print(f"named   {len(lines):3}  {key}")
    print(f"named   {sum(map(len, named_now.values())):3}  lines in {len(named_now)} files")
    for key, found_lines in sorted(ignores_now.items()):
        print(f"ignores {len(found_lines):3}  {key}")
    for (module, imported), line in sorted(contract_breaks().items()):
        print(f"import  {module}:{line} -> {imported}")
