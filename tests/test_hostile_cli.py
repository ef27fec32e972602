"""Each hole found by trying Velvet as a hostile user would, kept closed.

End to end through the ``velvet`` command: every bad file, path or option is one
line ``error: …`` with exit status 2; the prompt survives odd lines; games are
autosaved and resumed; files are written safely; workers die with their parent.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from velvet.cli import main
from velvet.engine import GameRecord, RecordError, load_game, save_game
from velvet.engine.files import MAX_DEPTH, parse_json, write_atomic
from velvet.games import get_game
from velvet.sim.results import load_results
from velvet.sim.run import run_sim

ROOT = Path(__file__).resolve().parent.parent


def velvet(*args: str, input: str | None = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def one_error(args: list[str], fragment: str) -> None:
    code, out = velvet(*args)
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 2, out
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    assert "Traceback" not in out and "bug" not in out
    assert fragment in lines[0], out


def a_save(tmp_path: Path, name: str = "p5", steps: int = 6) -> tuple[Path, dict[str, object]]:
    game = get_game(name)
    config = game.default_config()
    state = game.new_state(config, 11)
    record = GameRecord.start(game, config, 11)
    for _ in range(steps):
        action = state.legal_actions()[0]
        state.apply(action)
        record.actions.append(str(action))
    path = tmp_path / f"{name}-save.json"
    save_game(path, record, state)
    return path, json.loads(path.read_text())


# ------------------------------------------------------------------ files read by commands


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("a = " + "[" * 50_000 + "]" * 50_000, "nested deeper"),
        ("a = " + "9" * 5000, "integer is too large"),
        (b'[[shadow]]\nid = "\xff"\n', "not UTF-8 text"),
        ('[set]\nmode = ["replace"]\n', "set.mode"),
        (
            '[[shadow]]\nid = "x"\nname = "X"\nhealth = { stamina = 20, sp = 20, bullet = 20,'
            ' cash = 20 }\npersona = { name = "A", type = "fire", damage = { sp = 1 },'
            ' limit = "day" }\n',
            "health counts must be 0..12",
        ),
    ],
)
def test_card_files_fail_in_one_line(tmp_path: Path, content: str | bytes, fragment: str) -> None:
    path = tmp_path / "cards.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    one_error(["cards", "check", str(path)], fragment)


def test_card_effects_nested_500_deep_fail_in_one_line(tmp_path: Path) -> None:
    effect = '{ op = "dice", then = [{ op = "gain", amount = { sp = 1 } }] }'
    for _ in range(500):
        effect = f'{{ op = "dice", then = [{effect}] }}'
    path = tmp_path / "deep.toml"
    path.write_text(f'[[location]]\nid = "deep"\nname = "Deep"\neffects = [{effect}]\n')
    one_error(["cards", "check", str(path)], "nested deeper")


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda d: d["record"]["config"].update(palace=["kamoshida"]), "wrong type"),
        (lambda d: d["record"].update(seed=10**40), "integer too large"),
        (lambda d: d["record"].update(seed=-5), "seed"),
        (lambda d: d.update(state_sha256="0" * 64), "corrupt save"),
        (lambda d: d["record"]["actions"].append("²"), "action 7"),
    ],
)
@pytest.mark.parametrize("command", ["resume", "replay"])
def test_bad_saves_fail_in_one_line_for_resume_and_replay(
    tmp_path: Path, command: str, edit: object, fragment: str
) -> None:
    path, data = a_save(tmp_path)
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))
    one_error([command, str(path)], fragment)


def test_deep_json_and_non_files_fail_in_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    one_error(["resume", str(deep)], "nested deeper")
    one_error(["replay", str(tmp_path)], "is a folder")
    one_error(["resume", "/dev/zero"], "not a regular file")
    one_error(["deck", "check", "/dev/null"], "not a regular file")
    one_error(["resume", str(tmp_path / ("x" * 300))], "file name too long")


# ------------------------------------------------------------------ options and paths


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "p5", "--players", "9"], "--players"),
        (["play", "p5", "--seed", "-5"], "--seed"),
        (["sim", "../x:Y"], "unknown game '../x:Y'"),
        (["sim", "p5", "--start", "-5"], "--start must be 0.."),
        (["sim", "p5", "--games", "0"], "--games must be a positive number"),
        (["sim", "p5", "--out", "/dev/null"], "not a folder"),
        (["sim", "p5", "--games", "zz"], "'zz' is not a valid integer"),
        (["report", "/no/such/folder"], "does not exist"),
        (["frobnicate"], "No such command"),
    ],
)
def test_options_fail_in_one_line(args: list[str], fragment: str) -> None:
    one_error(args, fragment)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "vs"
    config = get_game("vs").default_config()
    run_sim("vs", 4, ["random", "random"], config, 5, out, workers=1, progress=False, fmt="csv")
    return out


def test_sim_out_takes_only_an_empty_or_velvet_folder(tmp_path: Path, results: Path) -> None:
    (tmp_path / "mine.txt").write_text("mine")
    one_error(["sim", "vs", "--games", "1", "--out", str(tmp_path)], "holds other files")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_report_never_replaces_without_force(tmp_path: Path, results: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text("precious")
    one_error(["report", str(results), "--out", str(out)], "pass --force")
    assert out.read_text() == "precious"
    one_error(["report", str(results), "--out", "/dev/null", "--force"], "not a regular file")


def _edit_chunk(folder: Path, old: str, new: str) -> None:
    chunk = sorted((folder / "games").iterdir())[0]
    text = chunk.read_text()
    lines = text.splitlines()
    head, row = lines[0].split(","), lines[1].split(",")
    row[head.index(old)] = new
    lines[1] = ",".join(row)
    chunk.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("column", "value", "fragment"),
    [
        ("winner", "banana", "column 'winner'"),
        ("winner", "7", "column 'winner'"),
        ("seed", "abc", "column 'seed'"),
        ("length", "-3", "column 'length'"),
        ("length", "9" * 5000, "column 'length'"),
        ("return_0", "nan", "column 'return_0'"),
        ("index", "x", "column 'index'"),
    ],
)
def test_report_refuses_corrupt_rows(
    tmp_path: Path, results: Path, column: str, value: str, fragment: str
) -> None:
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(results, folder)
    _edit_chunk(folder, column, value)
    one_error(["report", str(folder), "--out", str(tmp_path / "r.html")], fragment)
    assert not (tmp_path / "r.html").exists()


def test_report_refuses_a_run_json_of_another_game(tmp_path: Path, results: Path) -> None:
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(results, folder)
    meta = json.loads((folder / "run.json").read_text())
    meta.update(game="p5", config={"players": [{}, {}]})
    (folder / "run.json").write_text(json.dumps(meta))
    with pytest.raises(RecordError, match="not a game of 'p5'"):
        load_results(folder)
    (folder / "run.json").write_bytes(b'{"game": "\xff"}')
    one_error(["report", str(folder), "--out", str(tmp_path / "r.html")], "not UTF-8")


# ------------------------------------------------------------------ the prompt and autosave


def test_odd_prompt_lines_are_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lines = ["²", "③", "[/x]", "save /", "save .", "save a\x00b", "9" * 5000, "9" * 300, "quit", ""]
    code, out = velvet("play", "p5", "--seed", "4", input="\n".join(lines) + "\n")
    assert code == 0, out
    assert out.count("type the number with the digits 0-9") == 2
    assert "cannot read action '[/x]'" in out
    assert out.count("not a file name") == 2
    assert "control characters" in out
    assert "too long" in out and "no action number 999999999999…" in out
    assert "Traceback" not in out


def test_every_action_is_autosaved_and_resume_takes_the_last_game(
    tmp_path: Path, _data_dir: Path
) -> None:
    code, out = velvet("play", "p5", "--seed", "8", input="1\n1\nquit\n\n")
    assert code == 0, out
    (autosave,) = (_data_dir / "games").glob("p5-*.json")
    record, _ = load_game(autosave, get_game)
    assert len(record.actions) == 2
    code, out = velvet("resume", input="quit\n\n")
    assert code == 0, out
    assert "Leaving the game" in out


def test_an_unexpected_error_saves_the_game_and_says_where(
    tmp_path: Path, _data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from velvet.ui import terminal

    calls = {"n": 0}
    real = terminal.Session.human_turn

    def flaky(self: terminal.Session, player: int) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise ZeroDivisionError("boom")
        real(self, player)

    monkeypatch.setattr(terminal.Session, "human_turn", flaky)
    code, out = velvet("play", "p5", "--seed", "8", input="1\n1\n")
    assert code == 2, out
    assert "unexpected ZeroDivisionError: boom" in out
    (autosave,) = (_data_dir / "games").glob("p5-*.json")
    assert f"velvet resume {autosave}" in out
    record, _ = load_game(autosave, get_game)
    assert len(record.actions) == 2


def test_save_asks_before_replacing_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mine.json").write_text("precious")
    _code, out = velvet("play", "p5", "--seed", "2", input="save mine.json\nn\nquit\n\n")
    assert "Not saved" in out
    assert Path("mine.json").read_text() == "precious"
    _code, out = velvet("play", "p5", "--seed", "2", input="save mine.json\ny\nquit\n\n")
    assert "Saved to mine.json" in out
    assert json.loads(Path("mine.json").read_text())["format"] == "velvet-save/1"


# ------------------------------------------------------------------ safe writes


def test_writes_never_follow_a_planted_symlink_nor_leave_temporary_files(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    target = tmp_path / "save.json"
    (tmp_path / "save.json.tmp").symlink_to(victim)
    write_atomic(target, b"{}", RecordError)
    assert victim.read_text() == "keep"
    assert target.read_bytes() == b"{}"
    with pytest.raises(RecordError, match="is a folder"):
        write_atomic(tmp_path, b"{}", RecordError)
    with pytest.raises(RecordError, match="exists already"):
        write_atomic(target, b"[]", RecordError, overwrite=False)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == ["save.json.tmp"]  # the planted link only


def test_nesting_up_to_the_limit_is_read_and_one_more_is_refused() -> None:
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(deep, RecordError, "f") == json.loads(deep)
    with pytest.raises(RecordError, match="nested deeper than 64"):
        parse_json("[" + deep + "]", RecordError, "f")


# ------------------------------------------------------------------ workers


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc to find workers")
def test_kill_9_of_sim_leaves_no_worker(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "velvet.cli", "sim", "p5", "--games", "100000"]
    command += ["--workers", "2", "--out", str(tmp_path / "run"), "--no-progress"]
    parent = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        workers: list[int] = []
        for _ in range(200):
            time.sleep(0.1)
            workers = _children(parent.pid)
            if len(workers) >= 2:
                break
        assert len(workers) >= 2, "the workers did not start"
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    alive = [pid for pid in workers if _alive(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, f"orphaned workers: {alive}"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
