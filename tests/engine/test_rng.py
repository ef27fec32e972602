"""The seeded RNG: determinism, scripting, cloning and serialisation."""

from __future__ import annotations

import pytest

from velvet.engine import RecordError, Rng
from velvet.engine.rng import ScriptError


def test_same_seed_same_sequence() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.randbelow(1000) for _ in range(50)] == [b.randbelow(1000) for _ in range(50)]


def test_different_seeds_differ() -> None:
    a, b = Rng(1), Rng(2)
    assert [a.randbelow(1 << 30) for _ in range(5)] != [b.randbelow(1 << 30) for _ in range(5)]


def test_randbelow_is_roughly_uniform() -> None:
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randbelow(6)] += 1
    assert all(9_400 < c < 10_600 for c in counts), counts


def test_scripted_outcomes_come_first_then_the_stream_resumes() -> None:
    rng, plain = Rng(5), Rng(5)
    rng.script([3, 0, 5])
    assert [rng.randbelow(6) for _ in range(3)] == [3, 0, 5]
    assert rng.randbelow(1000) == plain.randbelow(1000)


def test_script_out_of_range_is_an_error() -> None:
    rng = Rng(0, script=[6])
    with pytest.raises(ScriptError, match="outside"):
        rng.randbelow(6)


def test_shuffle_is_a_permutation_and_scriptable() -> None:
    items = list(range(10))
    Rng(3).shuffle(items)
    assert sorted(items) == list(range(10))
    rigged = [1, 2, 3]
    # Fisher-Yates draws j for i = 2 then i = 1; (2, 1) keeps the order.
    Rng(0, script=[2, 1]).shuffle(rigged)
    assert rigged == [1, 2, 3]


def test_clone_is_independent_and_equal() -> None:
    rng = Rng(9, script=[1])
    twin = rng.clone()
    assert twin == rng
    assert rng.randbelow(6) == twin.randbelow(6) == 1
    rng.randbelow(6)
    assert twin != rng


def test_json_round_trip() -> None:
    rng = Rng(11, script=[2, 4])
    rng.randbelow(10)
    back = Rng.from_json(rng.to_json())
    assert back == rng
    assert back.randbelow(10**6) == rng.randbelow(10**6)


@pytest.mark.parametrize("bad", [None, [], {"state": "x"}, {"state": 1, "script": ["a"]}])
def test_from_json_rejects_corrupt_data(bad: object) -> None:
    with pytest.raises(RecordError, match="rng"):
        Rng.from_json(bad)
