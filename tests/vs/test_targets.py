"""What each VS action acts on, as board refs (``VsGame.action_targets``, docs/web.md)."""

from __future__ import annotations

import random

import pytest

from tests.engine.toygame import RaceGame
from tests.vs.helpers import game, position
from velvet.vs import actions as A
from velvet.vs.state import DECLARE

G = game()
CARD_ACTIONS = (A.Summon, A.Fuse, A.PlaySupport, A.PlayReact, A.PayHand, A.Discard)


def _resolve(view: dict[str, object], ref: str) -> object:
    """What ``ref`` names in the deciding player's view (KeyError/IndexError if nothing)."""
    kind, *keys = ref.split(":")
    n = [int(k) for k in keys]
    if kind == "hand":
        return view["hand"][n[0]]  # type: ignore[index]
    if kind == "field":
        stack = view["field"][n[0]][n[1]]  # type: ignore[index]
        return stack[-1] if stack else None
    if kind == "stack":
        return view["field"][n[0]][n[1]][n[2]]  # type: ignore[index]
    if kind in ("deck", "discard", "player"):
        assert n[0] in (0, 1)
        return kind
    raise AssertionError(f"unknown ref kind in {ref!r}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_target_names_something_on_the_board(seed: int) -> None:
    rng = random.Random(seed)
    s = G.new_state(G.default_config(), seed)
    checked = 0
    for _ in range(300):
        if s.is_terminal():
            break
        me = s.current_player
        view = dict(s.view(me))
        for action in s.legal_actions():
            refs = G.action_targets(s, action)
            card = getattr(action, "card", None)
            if isinstance(action, CARD_ACTIONS):
                assert refs, f"{action} names a hand card but targets nothing"
                assert all(_resolve(view, r) == card for r in refs), (action, refs)
            elif isinstance(action, A.Target | A.Change | A.Promote | A.PayField):
                assert len(refs) == 1 and _resolve(view, refs[0]) is not None, (action, refs)
            elif isinstance(action, A.DeclareSkill | A.PayStack):
                assert refs and all(_resolve(view, r) == card for r in refs), (action, refs)
            elif isinstance(action, A.EndPlanning | A.NoSkill | A.Pass | A.First):
                assert refs == ()
            for ref in refs:
                _resolve(view, ref)
            checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_copies_in_hand_are_all_targets_of_one_summon() -> None:
    s = position(hands=(("006", "001", "006"), ()))
    summon = A.Summon("006")
    assert summon in s.legal_actions()
    assert G.action_targets(s, summon) == ("hand:0", "hand:2")


def test_a_skill_from_under_a_fused_persona_targets_that_card() -> None:
    s = position(fields=((("001", "002"), (), ()), (("026",), (), ())), step=DECLARE)
    skills = [a for a in s.legal_actions() if isinstance(a, A.DeclareSkill)]
    refs = {a.card: G.action_targets(s, a) for a in skills}
    assert refs["002"] == ("field:0:0",)  # the persona on top
    assert refs["001"] == ("stack:0:0:0",)  # Arsène, fused under it


def test_games_that_say_nothing_offer_buttons_only() -> None:
    toy = RaceGame()
    s = toy.new_state(toy.default_config(), 1)
    for action in s.legal_actions():
        assert toy.action_targets(s, action) == ()
        assert toy.action_note(s, action) is None
