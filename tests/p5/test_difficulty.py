"""Difficulty levels (Velvet variants, ``velvet.p5.difficulty``): data, set-up, saves, help."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from velvet.cli import main
from velvet.engine import GameRecord
from velvet.engine.errors import CardDataError, ConfigError, RecordError
from velvet.engine.rng import Rng
from velvet.p5 import difficulty as D
from velvet.p5.game import P5Game
from velvet.p5.spec import DIFFICULTY_HELP, DIFFICULTY_LEVELS, SPEC
from velvet.sim.cli import option_flags
from velvet.ui.p5_render import compact, render

ROOT = Path(__file__).resolve().parents[2]

# Every state digest and every view of six seeded random games, chained, as the code
# before the difficulty levels existed played them (commit 9d6271b, with :func:`_chain`):
# (players, palace, seed) -> (actions, chain).
BEFORE = {
    (1, "kamoshida", 0): (198, "2682c9c93dd82172"),
    (1, "kamoshida", 1): (207, "5800cb3f38c79157"),
    (1, "kamoshida", 2): (188, "e4bdea8eb0c3dd68"),
    (2, "okumura", 0): (368, "dfbbed6238fbdea1"),
    (2, "okumura", 1): (346, "7fd53ee86a56efa8"),
    (2, "okumura", 2): (341, "6c9ac755aabdd176"),
}


def _chain(game: P5Game, config: dict[str, Any], seed: int) -> tuple[int, str]:
    """Play random legal moves (picked by ``Rng(1000 + seed)``); hash every state and view."""
    state = game.new_state(config, seed)
    pick = Rng(1000 + seed)
    steps = 0
    h = hashlib.sha256()
    while not state.is_terminal() and steps < 400:
        legal = state.legal_actions()
        state.apply(legal[pick.randbelow(len(legal))])
        h.update(state.digest().encode())
        h.update(json.dumps(state.view(0), sort_keys=True).encode())
        steps += 1
    return steps, h.hexdigest()[:16]


def _config(game: P5Game, level: str | None = None, players: int = 1) -> dict[str, Any]:
    config = game.default_config(players)
    if level is not None:
        config["difficulty"] = level
    return config


def _random_to_end(game: P5Game, config: dict[str, Any], seed: int) -> Any:
    state = game.new_state(config, seed)
    pick = Rng(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[pick.randbelow(len(legal))])
    return state


@pytest.mark.parametrize("how", ["no key", "standard", "spec option"])
def test_standard_plays_exactly_as_before(game: P5Game, how: str) -> None:
    assert game.at("standard") is game and game.level == "standard"
    for (players, palace, seed), expected in BEFORE.items():
        if how == "spec option":
            config = SPEC.config_for(game, players, {"palace": palace, "difficulty": "standard"})
            assert "difficulty" not in config  # the rulebook's game names no level
        else:
            config = {**game.default_config(players), "palace": palace}
            if how == "standard":
                config["difficulty"] = "standard"
        assert _chain(game, config, seed) == expected, (players, palace, seed)


def test_levels_file_help_and_docs_agree() -> None:
    levels = D.levels()
    assert tuple(levels) == D.LEVELS == DIFFICULTY_LEVELS
    assert tuple((i, D.level_text(lv)) for i, lv in levels.items()) == DIFFICULTY_HELP
    option = next(o for o in SPEC.options if o.name == "difficulty")
    assert option.choices == D.LEVELS and option.default == "standard"
    assert option.choice_help == DIFFICULTY_HELP
    docs = (ROOT / "docs" / "p5-rules.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- difficulty:begin[^>]*-->\n(.*?)\n<!-- difficulty:end -->", docs, re.S)
    assert found is not None, "docs/p5-rules.md lost its difficulty table"
    assert found.group(1) == D.docs_section(), "regenerate with velvet.p5.difficulty.docs_section"
    assert not levels["standard"].changes()
    assert all(levels[i].changes() for i in ("story", "hard", "merciless"))


def test_difficulty_file_is_not_a_card_file(game: P5Game) -> None:
    # The levels sit beside the cards, so the card set (and its hash, which every record
    # names) is what it was before they existed.
    assert game.cardset_hash() == (
        "02df33c11817976c1f4598f6d8619c5e9fd4e09586c4d41d3be263c87a5e2ea1"
    )


def test_each_level_changes_its_set_up(game: P5Game) -> None:
    levels = D.levels()
    base = game.new_state(_config(game), 4)
    base_boss = game.boss_health[base.palace]
    for ident in ("story", "hard", "merciless"):
        level = levels[ident]
        state = game.new_state(_config(game, ident), 4)
        g = state.game
        assert g is game.at(ident) and g.level == ident and g.cardset_hash() == game.cardset_hash()
        assert g.days == game.days + level.days
        assert state.alert == level.alert // 25
        more = level.gain_vec()
        assert state.fresh[0] == [b + x for b, x in zip(base.fresh[0], more, strict=True)]
        assert g.boss_health[state.palace] == tuple(
            b + x for b, x in zip(base_boss, level.boss_vec(), strict=True)
        )
        view = state.view(0)
        assert view["difficulty"] == ident and view["days"] == g.days
        assert view["palace"]["alert"] == level.alert
        # the deal is the same: a level changes numbers, not the shuffles
        assert state.shadow_deck == base.shadow_deck and state.loc_deck == base.loc_deck
    assert "difficulty" not in base.view(0)


def test_a_level_shortens_or_lengthens_the_calendar(game: P5Game) -> None:
    # rule: P5-END-2
    for ident in ("story", "standard", "hard"):
        state = _random_to_end(game, _config(game, ident), 2)
        assert state.result == -1  # random play does not win
        assert state.day == state.game.days + 1 == 28 + D.levels()[ident].days + 1
        assert f"day {state.game.days} passed" in state.outcome_text()


def test_the_boss_of_a_level_needs_more(game: P5Game) -> None:
    # rule: P5-BOSS-1
    from velvet.p5.effects import rise

    for ident in ("standard", "merciless"):
        state = game.new_state(_config(game, ident), 0)
        state.alert = 3
        rise(state, [])
        expected = [
            b + x
            for b, x in zip(
                game.boss_health[state.palace], D.levels()[ident].boss_vec(), strict=True
            )
        ]
        assert state.boss_rem == expected
        palace = state.view(0)["palace"]
        assert palace["boss"] == dict(
            zip(("stamina", "sp", "bullet", "cash"), expected, strict=True)
        )
        # the board shows what this level's boss needs in all (its card prints the rulebook's)
        if ident == "standard":
            assert "boss_health" not in palace
        else:
            assert palace["boss_health"] == palace["boss"]


def test_determinize_keeps_the_level(game: P5Game) -> None:
    state = game.new_state(_config(game, "merciless", players=2), 3)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    view = state.view(0)
    sample = game.determinize(view, 0, Rng(1))  # the rulebook's game, as a bot holds it
    assert sample.game is state.game and sample.game.days == 22
    assert sample.view(0) == view
    assert sample.legal_actions() == state.legal_actions()


def test_a_state_json_keeps_its_level_and_the_rulebook_game_adds_no_key(game: P5Game) -> None:
    # state_from_json (the OpenSpiel adapter's deserialize, a saved position) once gave the
    # rulebook's game back for every level: 28 days instead of merciless's 22.
    state = game.new_state(_config(game, "merciless"), 4)
    for _ in range(25):
        state.apply(state.legal_actions()[0])
    data = json.loads(json.dumps(state.to_json()))
    assert data["difficulty"] == "merciless"
    back = game.state_from_json(data)
    assert back.game.level == "merciless" and back.game.days == state.game.days == 22
    assert back.digest() == state.digest() and back.view(0) == state.view(0)
    plain = game.new_state(_config(game, "standard"), 4).to_json()
    assert "difficulty" not in plain  # the rulebook's states (and their digests) as before
    assert game.state_from_json(plain).game is game
    for bad in ("standard", "nightmare", 3):
        with pytest.raises(RecordError, match="difficulty"):
            game.state_from_json({**data, "difficulty": bad})
    assert game.state_from_json(data).game.level == "merciless"  # nothing changed


def test_records_keep_the_level_and_old_records_are_standard(game: P5Game, tmp_path: Path) -> None:
    from velvet.engine.record import load_game, save_game

    config = _config(game, "hard")
    state = game.new_state(config, 5)
    record = GameRecord.start(game, config, 5)
    pick = Rng(9)
    for _ in range(40):
        legal = state.legal_actions()
        action = legal[pick.randbelow(len(legal))]
        record.actions.append(str(action))
        state.apply(action)
    path = tmp_path / "hard.json"
    save_game(path, record, state)
    loaded, replayed = load_game(path, lambda name: game)
    assert loaded.config["difficulty"] == "hard"
    assert isinstance(replayed.game, P5Game) and replayed.game.level == "hard"
    assert replayed.digest() == state.digest()
    assert replayed.view(0) == state.view(0)
    old = GameRecord.start(game, game.default_config(1), 5)  # a config from before the levels
    assert old.replay(game).game is game


def test_a_bad_level_in_a_config_is_refused(game: P5Game) -> None:
    for bad in ("easy", "", 3, None):
        with pytest.raises(ConfigError) as caught:
            game.new_state({**game.default_config(1), "difficulty": bad}, 0)
        assert caught.value.option == "difficulty"
        assert "story, standard, hard, merciless" in str(caught.value)
    with pytest.raises(ConfigError, match="difficulty"):
        game.at("nightmare")


BAD_FILES = [
    ("days = 'many'", "hard", "days"),
    ("days = -40", "hard", "days"),
    ("alert = 30", "hard", "alert"),
    ("gain = { stamina = 9 }", "hard", "0..6"),
    ("gain = { mana = 1 }", "hard", "gain.mana"),
    ("speed = 2", "hard", "speed"),
]


@pytest.mark.parametrize(("line", "level", "key"), BAD_FILES)
def test_a_bad_levels_file_names_the_level_and_key(
    tmp_path: Path, line: str, level: str, key: str
) -> None:
    text = "\n".join(
        f'[[difficulty]]\nid = "{i}"\n' + (line if i == level else "") for i in D.LEVELS
    )
    path = tmp_path / "difficulty.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as caught:
        D.read_levels(path)
    message = str(caught.value)
    assert f"level '{level}'" in message and key in message, message


def test_a_levels_file_needs_every_level_and_a_plain_standard(tmp_path: Path) -> None:
    path = tmp_path / "difficulty.toml"
    path.write_text('[[difficulty]]\nid = "story"\ndays = 2\n', encoding="utf-8")
    with pytest.raises(CardDataError, match="level 'standard' is missing"):
        D.read_levels(path)
    path.write_text(
        "".join(f'[[difficulty]]\nid = "{i}"\n' for i in D.LEVELS) + "days = 1\n",
        encoding="utf-8",
    )
    assert D.read_levels(path)["merciless"].days == 1
    path.write_text(
        "".join(
            f'[[difficulty]]\nid = "{i}"\n' + ("days = 1\n" if i == "standard" else "")
            for i in D.LEVELS
        ),
        encoding="utf-8",
    )
    with pytest.raises(CardDataError, match=r"level 'standard'.*changes nothing"):
        D.read_levels(path)
    path.write_text('[[difficulty]]\nid = "nightmare"\n', encoding="utf-8")
    with pytest.raises(CardDataError, match="level 'nightmare': field 'id'"):
        D.read_levels(path)
    path.write_text('[[level]]\nid = "story"\n', encoding="utf-8")
    with pytest.raises(CardDataError, match="unknown section"):
        D.read_levels(path)


def test_play_help_lists_every_level_in_a_line() -> None:
    result = CliRunner().invoke(
        main, ["play", "p5", "--help"], terminal_width=200, max_content_width=200
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for ident, text in DIFFICULTY_HELP:
        assert any(re.fullmatch(rf"\s+{ident}\s+{re.escape(text)}", ln) for ln in lines), ident
    bad = CliRunner().invoke(main, ["play", "p5", "--difficulty", "easy", "--seat", "random"])
    assert bad.exit_code == 2 and "easy" in bad.output


def test_sim_takes_the_level_as_a_flag(tmp_path: Path) -> None:
    own = {"--games", "--seat", "--option", "--deck"}
    assert option_flags("p5", ["--difficulty", "hard", "--games", "1"], own) == [
        "--option",
        "difficulty=hard",
        "--games",
        "1",
    ]
    assert option_flags("p5", ["--difficulty=story", "--", "--palace"], own) == [
        "--option",
        "difficulty=story",
        "--",
        "--palace",
    ]
    assert option_flags("vs", ["--difficulty", "hard"], own) == ["--difficulty", "hard"]
    out = tmp_path / "run"
    result = CliRunner().invoke(
        main,
        [
            *("sim", "p5", "--games", "1", "--seat", "random", "--difficulty", "merciless"),
            *("--workers", "1", "--no-progress", "--out", str(out)),
        ],
    )
    assert result.exit_code == 0, result.output
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["config"]["difficulty"] == "merciless"
    game = SPEC.load([])
    assert isinstance(game, P5Game) and SPEC.vary is not None
    varied = SPEC.vary(game, _config(game, "hard"), Rng(3))  # --vary-setup keeps the level
    assert varied["difficulty"] == "hard" and game.new_state(varied, 0).game.days == 24


def test_the_terminal_names_a_level_in_its_header(game: P5Game) -> None:
    for ident, shown in (("hard", True), ("standard", False)):
        state = game.new_state(_config(game, ident), 0)
        view = state.view(0)
        for board in (render(view, game), compact(dict(view), game)):
            console = Console(record=True, width=100)
            console.print(board)
            head = console.export_text().splitlines()[0]
            assert ("hard difficulty" in head) is shown, head
            assert f"of {state.game.days}" in head
