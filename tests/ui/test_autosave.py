"""Autosaves: one per game, never claimed when nothing was saved; the save prompt's answers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from velvet.cli import main
from velvet.engine import load_game
from velvet.games import get_game


def velvet(*args: str, input: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def slots(data: Path) -> list[Path]:
    return sorted((data / "games").glob("*.json"))


def test_no_at_the_save_prompt_saves_no_file_named_n(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for answer in ("n", "no", "N"):
        code, out = velvet("play", "p5", "--seed", "2", input=f"1\nquit\n{answer}\n")
        assert code == 0, out
        assert not Path(answer).exists()
        assert "Saved to" not in out
    assert list(tmp_path.iterdir()) == []


def test_yes_at_the_save_prompt_asks_for_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = velvet("play", "p5", "--seed", "2", input="1\nquit\ny\nmine.json\n")
    assert code == 0, out
    assert not Path("y").exists()
    assert "Saved to mine.json" in out
    record, _ = load_game(Path("mine.json"), get_game)
    assert len(record.actions) == 1


def test_quitting_before_the_first_move_claims_no_autosave(_data_dir: Path) -> None:
    code, out = velvet("play", "p5", "--seed", "2", input="quit\n\n")
    assert code == 0, out
    assert "stays in" not in out
    assert "no move was made, so there is no autosave" in out
    assert slots(_data_dir) == []


def test_every_game_has_its_own_autosave_and_resume_takes_the_last_played(
    _data_dir: Path,
) -> None:
    velvet("play", "p5", "--seed", "2", input="1\n1\nquit\n\n")
    velvet("play", "vs", "--seed", "5", input="1\nquit\n\n")
    (p5,) = (_data_dir / "games").glob("p5-*.json")
    (vs,) = (_data_dir / "games").glob("vs-*.json")
    os.utime(p5, (1_000_000, 1_000_000))  # the P5 game was played long before
    # another game does not overwrite the first one's autosave
    assert len(load_game(p5, get_game)[0].actions) == 2
    code, out = velvet("resume", "--list")
    assert code == 0, out
    assert out.index(str(vs)) < out.index(str(p5))
    assert "vs, 1 actions" in out and "p5, 2 actions" in out
    code, out = velvet("resume", input="quit\n\n")
    assert code == 0, out
    assert f"Resuming the last game played: {vs}" in out
    # resuming keeps writing to the game's own slot
    code, out = velvet("resume", str(p5), input="1\nquit\n\n")
    assert code == 0, out
    assert slots(_data_dir) == sorted([p5, vs])
    assert len(load_game(p5, get_game)[0].actions) == 3
    assert f"The game stays in {p5}" in " ".join(out.split())


def test_a_game_played_to_its_end_leaves_no_autosave(tmp_path: Path) -> None:
    from rich.console import Console

    from tests.engine.toygame import RaceGame
    from velvet.bots.base import RandomBot
    from velvet.engine import GameRecord
    from velvet.ui.terminal import Session

    game = RaceGame()
    console = Console(record=True, width=80, force_terminal=False)
    lines = iter(["roll"] * 500)
    play = Session(
        game,
        GameRecord.start(game, {}, 4),
        game.new_state({}, 4),
        [None, RandomBot()],
        console,
        lambda prompt: next(lines) if "Save" not in prompt else "",
        autosave=tmp_path / "games" / "race.json",
    )
    written: list[bool] = []
    real = play.save_autosave

    def counting() -> None:
        real()
        written.append((tmp_path / "games" / "race.json").exists())

    play.save_autosave = counting  # type: ignore[method-assign]
    assert play.run().is_terminal()
    assert written and all(written)  # it was there during the game
    assert "Game over" in console.export_text()
    assert not (tmp_path / "games" / "race.json").exists()


def test_resume_with_no_game_says_where_it_looked(_data_dir: Path) -> None:
    code, out = velvet("resume")
    assert code != 0
    assert "no game to resume" in out
