"""Every error code the server sends is one of ``ErrorCode``, and docs/protocol.md's
"Error codes" table lists exactly those: read from the source (every ``code="..."``,
``problem("...")``, ``SeatRefused("...")``, ``AccountError("...")``, ``_Refused("...")``,
``_problem("...")`` and ``ErrorCode``-typed name), so a new free-string code fails here.
HTTP bodies are made only by velvet.server.problems, and the codes the clients look for
(the browser's ``code === "..."``, ``velvet join``'s fatal ones) are codes too."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

from velvet.server.protocol import ErrorCode, ErrorMsg

ROOT = Path(__file__).parents[2]
SOURCES = sorted((ROOT / "src/velvet").rglob("*.py"))
CALLS_WITH_CODE_FIRST = {
    "SeatRefused",
    "_problem",
    "AccountError",
    "_Refused",
    "problem",
    "problem_body",
    "problem_bytes",
}
SERVERS = [p for p in SOURCES if p.parent.name in ("server", "learn")]
"""The modules that answer HTTP requests (their bodies come from velvet.server.problems)."""


def _strings(node: ast.AST) -> list[str]:
    """The string constants a value may be (``a if c else b`` gives both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    return []


def sent_codes(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "code":
                    found.update(_strings(keyword.value))
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in CALLS_WITH_CODE_FIRST and node.args:
                found.update(_strings(node.args[0]))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "error":
                    found.update(_strings(value))
        elif (
            isinstance(node, ast.AnnAssign)
            and "ErrorCode" in ast.unparse(node.annotation)
            and node.value is not None
        ):
            found.update(_strings(node.value))
    return found


def test_every_code_the_server_sends_is_an_error_code() -> None:
    codes = set(get_args(ErrorCode))
    sent: dict[str, set[str]] = {}
    for path in SOURCES:
        for code in sent_codes(ast.parse(path.read_text(encoding="utf-8"))):
            sent.setdefault(code, set()).add(str(path.relative_to(ROOT)))
    stray = {code: where for code, where in sent.items() if code not in codes}
    assert not stray, f"codes sent but not in ErrorCode: {stray}"
    assert {"illegal", "hint_busy", "bad_options", "no_lesson", "invite_used"} <= set(sent)
    unused = codes - set(sent)
    assert not unused, f"ErrorCode names codes nothing sends: {unused}"


def test_the_scan_finds_a_free_string_code() -> None:
    tree = ast.parse(
        'ErrorMsg(code="made_up", message="x")\n'
        'JSONResponse({"error": "also_made_up", "message": "y"})\n'
        'kind: ErrorCode = "a" if x else "b"\n'
    )
    assert sent_codes(tree) == {"made_up", "also_made_up", "a", "b"}


def test_the_protocol_page_lists_every_code_once() -> None:
    page = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    section = page.split("\n## Error codes\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert sorted(listed) == sorted(get_args(ErrorCode))
    assert len(listed) == len(set(listed))


def test_an_error_message_refuses_a_code_not_in_the_list() -> None:
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        ErrorMsg(code="made_up", message="x")


def error_dicts(tree: ast.AST) -> list[int]:
    """Lines of dict displays with an ``"error"`` key: an HTTP body made by hand."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        and any(isinstance(k, ast.Constant) and k.value == "error" for k in node.keys)
    ]


def test_http_error_bodies_are_made_in_one_place() -> None:
    made_by_hand = {
        str(path.relative_to(ROOT)): lines
        for path in SERVERS
        if path.name != "problems.py"
        and (lines := error_dicts(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not made_by_hand, f"use velvet.server.problems.problem(): {made_by_hand}"
    assert error_dicts(ast.parse('JSONResponse({"error": "x", "message": "y"})')) == [1]


def test_the_codes_the_clients_look_for_are_error_codes() -> None:
    from velvet.server.client import FATAL

    codes = set(get_args(ErrorCode))
    scripts = sorted((ROOT / "src/velvet/web/static").rglob("*.js"))
    looked_for = {
        code: str(path.relative_to(ROOT))
        for path in scripts
        for code in re.findall(
            r"""\b(?:code|error)\s*[!=]==?\s*["']([a-z_]+)["']""",
            path.read_text(encoding="utf-8"),
        )
    }
    assert {"stale", "no_room", "hint_stale"} <= set(looked_for)  # the scan reads the pages
    unknown = {code: where for code, where in looked_for.items() if code not in codes}
    assert not unknown, f"the browser looks for codes the server never sends: {unknown}"
    assert set(FATAL) <= codes


def test_the_codes_are_listed_once_in_the_source() -> None:
    """No second ``Literal`` of error codes: a module that names codes imports ErrorCode."""
    codes = set(get_args(ErrorCode))
    copies = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("Literal"):
                named = {s for e in ast.walk(node.slice) for s in _strings(e)} & codes
                if len(named) >= 2:
                    copies.append(str(path.relative_to(ROOT)))
    assert copies == ["src/velvet/server/protocol.py"], copies
