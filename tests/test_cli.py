"""The `velvet` command end to end, through click's test runner."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import velvet.cli
import velvet.p5.cards
from velvet.cli import main
from velvet.engine import GameRecord
from velvet.games import get_game, get_spec
from velvet.vs.decks import default_deck_path


def run(*args: str, input: str | None = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["play"],
        ["play", "p5"],
        ["play", "vs"],
        ["cards", "list"],
        ["cards", "check"],
        ["deck", "check"],
        ["replay"],
        ["resume"],
    ],
)
def test_every_command_has_help(args: list[str]) -> None:
    code, out = run(*args, "--help")
    assert code == 0
    assert "Usage:" in out


@pytest.mark.parametrize("game", ["p5", "vs"])
def test_bots_play_a_whole_game_and_the_record_replays(game: str, tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    seats = ["--seat", "random"] * (2 if game == "vs" else 1)
    code, out = run("play", game, "--seed", "5", *seats, input=f"{record}\n")
    assert code == 0, out
    assert "Game over" in out
    data = json.loads(record.read_text())
    final = GameRecord.from_json(data).replay(get_game(game))
    assert final.is_terminal()
    code, out = run("replay", str(record))
    assert code == 0, out
    assert final.outcome_text() in out


@pytest.mark.parametrize("game", ["p5", "vs"])
def test_a_hidden_seed_is_hashed_during_play_and_shown_at_the_end(
    game: str, tmp_path: Path
) -> None:
    """Both games hide something (a hand, the face-down shadow deck, future dice)."""
    record = tmp_path / "record.json"
    seats = ["--seat", "random"] * (2 if game == "vs" else 1)
    code, out = run("play", game, "--seed", "5", *seats, input=f"{record}\n")
    assert code == 0, out
    during, after = out.split("Game over", 1)
    assert hashlib.sha256(b"5").hexdigest() in during
    assert not re.search(r"seed 5\b", during, re.IGNORECASE)
    assert re.search(r"seed 5\b", after)
    assert json.loads(record.read_text())["seed"] == 5


def test_an_open_game_announces_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_spec("p5")
    monkeypatch.setitem(
        velvet.cli.play.commands,
        "p5",
        velvet.cli.play_command(dataclasses.replace(spec, hidden_information=False)),
    )
    code, out = run("play", "p5", "--seed", "5", input="quit\n\n")
    assert code == 0, out
    assert "Seed 5" in out.split("Leaving", 1)[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "p5", "--thief", "nobody"], "unknown thief 'nobody'"),
        (["play", "p5", "--persona", "nobody"], "unknown persona 'nobody'"),
        (["play", "p5", "--palace", "nowhere"], "unknown palace 'nowhere'"),
        (["play", "p5", "--thief", "joker", "--thief", "skull"], "2 --thief options for 1"),
        (["play", "p5", "--seat", "genius"], "genius"),
        (["play", "vs", "--deck", "/no/such/deck.toml"], "no such deck file"),
        (["play", "vs", "--player-card", "p9"], "p9"),
        (["resume", "/no/such/save.json"], "no such file"),
        (["replay", "/no/such/record.json"], "no such file"),
        (["cards", "check", "/no/such/cards.toml"], "no such file"),
        (["cards", "list", "--kind", "dragon"], "no cards of kind 'dragon'"),
    ],
)
def test_bad_input_is_one_line_with_status_2(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[-1].startswith("error: "), out
    assert message in lines[-1]
    assert "Traceback" not in out


def test_a_corrupt_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    code, _ = run("play", "p5", "--seed", "2", input=f"save {save}\nquit\n\n")
    assert code == 0
    data = json.loads(save.read_text())
    data["record"]["seed"] = 3
    save.write_text(json.dumps(data))
    code, out = run("resume", str(save))
    assert code == 2
    assert "corrupt save" in out


def test_save_and_resume_continue_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    code, out = run("play", "p5", "--seed", "4", input=f"1\nsave {save}\nquit\n\n")
    assert code == 0, out
    code, out = run("resume", str(save), "--seat", "random", input="\n")
    assert code == 0, out
    assert "Game over" in out


@pytest.mark.parametrize("game", ["p5", "vs"])
def test_cards_list_prints_the_set(game: str) -> None:
    code, out = run("cards", "list", "--game", game)
    assert code == 0
    assert ("Joker" if game == "p5" else "Arsène") in out


@pytest.mark.parametrize(("game", "doc"), [("p5", "p5-cards.md"), ("vs", "vs-cards.md")])
def test_docs_card_lists_are_generated_from_the_data(game: str, doc: str) -> None:
    code, out = run("cards", "list", "--game", game, "--markdown")
    assert code == 0
    expected = (Path(__file__).resolve().parents[1] / "docs" / doc).read_text(encoding="utf-8")
    assert out == expected, f"docs/{doc} is stale: velvet cards list --game {game} --markdown"


def test_cards_check_names_file_card_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[thief]]\nid = "x"\n')
    code, out = run("cards", "check", str(bad))
    assert code == 2
    assert f"{bad}: card 'x': field 'name'" in out


def test_cards_check_reads_the_builtin_p5_folder_as_cards() -> None:
    # The folder holds only card files (difficulty levels live in data/levels/), and the count
    # is of the files read, not of the paths given.
    folder = Path(velvet.p5.cards.DATA_DIR)
    code, out = run("cards", "check", str(folder))
    assert code == 0, out
    assert f"ok: {len(list(folder.glob('*.toml')))} file(s);" in out


def test_deck_check_accepts_the_default_decks() -> None:
    paths = [str(default_deck_path(card)) for card in ("p5", "p4", "p3")]
    code, out = run("deck", "check", *paths)
    assert code == 0, out
    assert out.count("40 cards") == 3


def test_an_illegal_move_at_the_prompt_names_its_rule() -> None:
    code, out = run("play", "p5", "--seed", "1", input="visit nowhere\nbanana\nquit\n\n")
    assert code == 0
    assert "error: " in out and "P5-" in out
    assert "Traceback" not in out


def play_toy(*args: str, input: str = "") -> tuple[int, str]:
    """``velvet play race``: the toy game's command, built from its spec like p5's and vs's."""
    toy = velvet.cli.play_command(get_spec("tests.engine.toygame:SPEC"))
    result = CliRunner().invoke(
        velvet.cli.VelvetGroup(commands={"race": toy}), ["race", *args], input=input
    )
    return result.exit_code, result.output


def test_play_from_a_position_file_in_toml_or_json(tmp_path: Path) -> None:
    toml = tmp_path / "endgame.toml"
    toml.write_text("scores = [9, 4]\nto_move = 1\nseed = 2\n")
    code, out = play_toy("--position", str(toml), "--seat", "random", "--seat", "random")
    assert code == 0, out
    assert f"Position from {toml}" in " ".join(out.split()) and "Game over" in out
    as_json = tmp_path / "endgame.json"
    as_json.write_text(json.dumps({"scores": [9, 4], "to_move": 2}))
    code, out = play_toy("--position", str(as_json), input="1\nquit\n")
    assert code == 0, out
    assert "Player 2: your choices" in out  # the position's player moves first


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [
        (None, ".toml", "no such position file"),
        ("scores = [9,", ".toml", "not valid TOML"),
        ("{", ".json", "not valid JSON"),
        ("[1, 2]", ".json", "a position is a table"),
        ('{"scores": [99, 0]}', ".json", "scores must be two numbers"),
        ('{"nonsense": 1}', ".json", "unknown position key(s): nonsense"),
    ],
)
def test_a_bad_position_file_is_one_line_naming_the_file(
    tmp_path: Path, content: str | None, suffix: str, message: str
) -> None:
    path = tmp_path / f"pos{suffix}"
    if content is not None:
        path.write_text(content)
    code, out = play_toy("--position", str(path))
    assert code == 2, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[-1].startswith(f"error: {path}: ") and message in lines[-1], out


@pytest.mark.parametrize("game", ["p5", "vs"])
def test_play_position_errors_name_the_file_for_the_real_games(game: str, tmp_path: Path) -> None:
    path = tmp_path / "nonsense.toml"
    path.write_text("no_such_key = 1\n")
    code, out = run("play", game, "--position", str(path))
    assert code == 2, out
    assert out.strip().splitlines()[-1].startswith(f"error: {path}: ")


def test_replay_of_an_unfinished_vs_game_asks_whose_view(tmp_path: Path) -> None:
    game = get_game("vs")
    record = GameRecord.start(game, game.default_config(), 4)
    state = game.new_state(record.config, record.seed)
    for _ in range(3):
        action = state.legal_actions()[0]
        state.apply(action)
        record.actions.append(str(action))
    path = tmp_path / "half.json"
    path.write_text(json.dumps(record.to_json()))
    code, out = run("replay", str(path))
    assert code == 2 and "error: this game is not over" in out and "--view" in out
    code, out = run("replay", str(path), "--view", "2")
    assert code == 0, out
    assert "Player 2 (you)" in out and "Player 1 (you)" not in out


def test_help_shows_every_command_description_whole_without_loading_the_lab() -> None:
    code, out = run("--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "and save the results." in flat and "of `velvet sim` results." in flat
    assert "...\n" not in out.split("Commands:")[1]  # click cuts long ones with "..."
    code, out = run("play", "--help")
    assert "28 days to sweep a palace and beat its boss." in " ".join(out.split())


def test_play_runs_without_the_lab_packages(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "for name in ('pyarrow', 'matplotlib', 'ray', 'reportlab', 'fastapi', 'sqlalchemy'):\n"
        "    sys.modules[name] = None  # as if not installed\n"
        "from velvet.cli import main\n"
        "main(['play', 'vs', '--seat', 'random', '--seat', 'random', '--seed', '2'])\n"
    )
    src = Path(velvet.cli.__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", script],
        input="\n",
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "VELVET_DATA_DIR": str(tmp_path), "PATH": ""},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout


@pytest.mark.parametrize(
    ("command", "blocked", "extra"),
    [
        (["print", "p5", "--out", "x.pdf"], "reportlab", "print"),
        (["serve"], "fastapi", "server"),
    ],
)
def test_a_command_without_its_extra_names_the_extra(
    tmp_path: Path, command: list[str], blocked: str, extra: str
) -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        f"sys.modules[{blocked!r}] = None  # as if not installed\n"
        "from velvet.cli import main\n"
        f"main({command!r})\n"
    )
    src = Path(velvet.cli.__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(src), "VELVET_DATA_DIR": str(tmp_path), "PATH": ""},
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "pip install" in lines[0] and f"[{extra}]" in lines[0], done.stderr
    assert not list(tmp_path.glob("*.pdf"))


def test_python_dash_m_runs_the_same_command_line() -> None:
    import os
    import subprocess
    import sys

    # The same 80x24 for both, whatever the terminal that runs the tests: a table's width
    # follows COLUMNS or else the terminal the child inherits on stdin.
    size = {"COLUMNS": "80", "LINES": "24"}
    out = subprocess.run(
        [sys.executable, "-m", "velvet", "cards", "list", "--game", "vs"],
        stdin=subprocess.DEVNULL,
        env={**os.environ, **size},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    same = CliRunner().invoke(main, ["cards", "list", "--game", "vs"], env=size)
    assert same.exit_code == 0, same.output
    assert out.stdout == same.output
    assert max(map(len, out.stdout.splitlines())) <= 80
