"""The fast path (``encode_state``) gives exactly the encoding of the seat's view.

Every adapter encodes observations with ``encode_state(state, seat)``, which reads the
state's fields instead of building ``view(seat)`` first. These tests walk many seeded
random games of both games and compare, at every position and for every seat, the fast
vector with ``encode(state.view(seat), seat)`` element for element.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from tests.adapters.conftest import rebuilt
from velvet.adapters._engine import ConfigError, State, default_config, load_game
from velvet.adapters.encoding import Encoder, encoder_for
from velvet.p5.encoder import P5_STATE_FIELDS, P5Encoder
from velvet.vs.encoder import VS_STATE_FIELDS, VsEncoder


def positions(game_name: str, players: int, games: int, every: int) -> list[State[Any]]:
    """Every ``every``-th position of ``games`` seeded random games, ends included."""
    game = load_game(game_name)
    config = default_config(game, players)
    out: list[State[Any]] = []
    for seed in range(games):
        state = game.new_state(config, seed)
        rng = random.Random(seed)
        k = 0
        while not state.is_terminal() and k < 3000:
            if k % every == 0:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            k += 1
        out.append(state)
    return out


def assert_same(encoder: Encoder, state: State[Any], seat: int) -> None:
    slow = encoder.encode(state.view(seat), seat)
    fast = encoder.encode_state(state, seat)
    assert fast.dtype == slow.dtype == np.float32
    assert fast.shape == slow.shape == (encoder.size,)
    differ = np.flatnonzero(fast != slow)
    assert differ.size == 0, f"seat {seat}: entries {differ[:10]} differ"


def test_vs_fast_encoding_equals_the_encoded_view_over_many_positions() -> None:
    states = positions("vs", 2, games=40, every=3)
    assert len(states) > 1500
    encoder = encoder_for(states[0].game)
    assert isinstance(encoder, VsEncoder)
    kinds = set()
    for state in states:
        for seat in (0, 1):
            assert_same(encoder, state, seat)
        view = state.view(0)
        kinds.add(view["frames"][-1][0] if view["frames"] else view["step"])
        if view["skill"] is not None:
            kinds.add("skill")
    # The walk reached pay frames, declared skills and the end, not only plain steps.
    assert {"pay", "skill", "over"} <= kinds


def test_vs_fast_encoding_hides_a_private_decklist_as_the_view_does() -> None:
    game = load_game("vs")
    encoder = encoder_for(game)
    assert isinstance(encoder, VsEncoder)
    for state in positions("vs", 2, games=4, every=7):
        data = copy.deepcopy(state.to_json())
        data["open_decklists"] = [False, False]
        private = rebuilt(state, data)
        assert private.view(0)["decklists"][1] is None
        for seat in (0, 1):
            assert_same(encoder, private, seat)
            opponent = encoder.offsets["opponent_unseen"]
            block = encoder.encode_state(private, seat)[opponent : opponent + encoder.n]
            assert not block.any()


@pytest.mark.parametrize("players", [1, 2])
def test_p5_fast_encoding_equals_the_encoded_view_over_many_positions(players: int) -> None:
    states = positions("p5", players, games=8, every=5)
    assert len(states) > 300
    encoder = encoder_for(states[0].game, players)
    assert isinstance(encoder, P5Encoder)
    kinds = set()
    for state in states:
        for seat in range(players):
            assert_same(encoder, state, seat)
        kinds.add(state.view(0)["decision"]["kind"])
    assert {"main", "fight", "over"} <= kinds
    if players == 2:
        assert "order" in kinds


def test_p5_fast_encoding_of_the_boss_and_many_revealed_shadows() -> None:
    # Random play seldom raises the alert to the boss: set it, and more shadows than
    # the encoding lists one by one (the rest are summed into the last slot).
    encoder = encoder_for(load_game("p5"), 2)
    assert isinstance(encoder, P5Encoder)
    for state in positions("p5", 2, games=3, every=20):
        data = copy.deepcopy(state.to_json())
        data["alert"] = 4
        data["boss_rem"] = [2, 1, 0, 3]
        deck = data["shadow_deck"]
        while len(data["rev"]) < 6 and deck:
            data["rev"].append(deck.pop())
            data["rem"].append([1, 0, 2, 1])
        boss = rebuilt(state, data)
        assert boss.view(0)["palace"]["boss"] is not None
        assert len(boss.view(0)["palace"]["shadows"]) == 6
        for seat in (0, 1):
            assert_same(encoder, boss, seat)


def test_p5_fast_encoding_names_a_seat_that_is_not_there() -> None:
    state = positions("p5", 1, games=1, every=1000)[0]
    encoder = encoder_for(state.game, 1)
    assert isinstance(encoder, P5Encoder)
    with pytest.raises(ConfigError, match="no player 3"):
        encoder.encode_state(state, 3)


def test_the_fields_the_fast_path_reads_exist_on_the_states() -> None:
    # A rename in the engine's state shows here, by name, before any vector differs.
    for game_name, fields in (("vs", VS_STATE_FIELDS), ("p5", P5_STATE_FIELDS)):
        state = positions(game_name, 2, games=1, every=1000)[0]
        missing = [f for f in fields if not hasattr(state, f)]
        assert not missing, f"{game_name} state lacks {missing}"


def test_vs_discard_piles_changed_in_place_are_encoded_afresh() -> None:
    # The VS encoder keeps the last vector of each seat and the parts it came from: a
    # pile changed in place (the same list, other cards) must be rewritten.
    encoder = encoder_for(load_game("vs"))
    assert isinstance(encoder, VsEncoder)
    state: Any = next(
        s
        for s in positions("vs", 2, games=4, every=5)
        if len(s.disc[0]) >= 2  # type: ignore[attr-defined]
    )
    for seat in (0, 1):
        assert_same(encoder, state, seat)
    pile = state.disc[0]
    pile.reverse()  # same cards, other order: the same counts
    for seat in (0, 1):
        assert_same(encoder, state, seat)
    moved = pile.pop()
    state.hand[0].append(moved)  # a card back to the hand: the pile is shorter now
    for seat in (0, 1):
        assert_same(encoder, state, seat)
    pile.append(state.hand[0].pop(0))  # and another card onto it: the same length again
    for seat in (0, 1):
        assert_same(encoder, state, seat)


def test_vs_encoder_in_play_order_after_every_step_for_both_seats() -> None:
    # How the envs use it: one encoder, the same state object moved on step by step, so
    # the kept discard-pile indices are hit again and again and must still be right.
    game = load_game("vs")
    encoder = encoder_for(game)
    config = default_config(game, 2)
    steps = 0
    for seed in range(100, 120):
        state = game.new_state(config, seed)
        rng = random.Random(seed)
        while True:
            for seat in (0, 1):
                assert_same(encoder, state, seat)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 2000


@pytest.mark.parametrize("game_name", ["vs", "p5"])
def test_fast_encoding_of_positions_in_any_order(game_name: str) -> None:
    # The encoders keep what they gave last and rewrite only what changed: positions of
    # other games, shuffled, and the same position twice in a row must all come out right.
    states = positions(game_name, 2, games=6, every=4)
    random.Random(7).shuffle(states)
    encoder = encoder_for(states[0].game, 2)
    for state in states[:400]:
        for seat in (1, 0, 0):
            assert_same(encoder, state, seat)


def test_vs_frame_kinds_with_equal_fields_are_told_apart() -> None:
    # A search frame and a recover frame of the same player and kind are equal tuples;
    # the kept top frame must be compared by kind too.
    from velvet.vs.state import RecoverFrame, SearchFrame

    encoder = encoder_for(load_game("vs"))
    assert isinstance(encoder, VsEncoder)
    state: Any = positions("vs", 2, games=1, every=1000)[0].clone()
    state.frames = [SearchFrame(0, 1)]
    for seat in (0, 1):
        assert_same(encoder, state, seat)
    state.frames = [RecoverFrame(0, 1)]
    assert state.frames[0] == SearchFrame(0, 1)
    for seat in (0, 1):
        assert_same(encoder, state, seat)


def test_vs_new_decklists_start_the_kept_vector_afresh() -> None:
    # A state of another deal (other decklists) must not reuse the counts of the last.
    game = load_game("vs")
    encoder = encoder_for(game)
    first = game.new_state(default_config(game, 2), 1)
    data = copy.deepcopy(first.to_json())
    data["open_decklists"] = [True, False]
    private = rebuilt(first, data)
    for state in (first, private, first):
        for seat in (0, 1):
            assert_same(encoder, state, seat)


@pytest.mark.parametrize("game_name", ["vs", "p5"])
def test_copied_and_pickled_encoders_encode_alike(game_name: str) -> None:
    # An env (and its encoder) may be deep-copied or pickled after use: the copy must not
    # keep a vector that no longer shares the buffer it writes to.
    import pickle

    states = positions(game_name, 2, games=2, every=3)
    encoder = encoder_for(states[0].game, 2)
    for state in states[:20]:
        encoder.encode_state(state, 0)
    for other in (copy.deepcopy(encoder), pickle.loads(pickle.dumps(encoder))):
        for state in states[20:80]:
            for seat in (0, 1):
                assert_same(other, state, seat)


@pytest.mark.parametrize("game_name", ["vs", "p5"])
def test_encoding_into_a_given_row_writes_the_same_vector_and_keeps_nothing_of_it(
    game_name: str,
) -> None:
    # The vector env writes each observation straight into its batch row: the row must
    # hold the encoded view, and a caller who writes into the row afterwards must not
    # change what the encoder gives next.
    states = positions(game_name, 2, games=2, every=7)
    encoder = encoder_for(states[0].game, 2)
    batch = np.full((2, encoder.size), 9.0, np.float32)
    for state in states[:120]:
        for seat in (0, 1):
            row = batch[seat]
            assert encoder.encode_state(state, seat, row) is row
            assert np.array_equal(row, encoder.encode(state.view(seat), seat))
            row[:] = -1.0
            assert np.array_equal(
                encoder.encode_state(state, seat), encoder.encode(state.view(seat), seat)
            )
