"""The VS renderer shows the key facts of a view and never the opponent's hand."""

from __future__ import annotations

from rich.console import Console

from tests.vs.helpers import random_position
from velvet.engine.core import Event
from velvet.ui.vs_render import action_label, event_line, render
from velvet.vs.cards import card_text
from velvet.vs.game import VsGame, load_vs_game
from velvet.vs.views import VsView

G = load_vs_game()


def text_of(view: VsView, game: VsGame = G) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render(view, game))
    return console.export_text()


played = random_position


def test_render_shows_key_facts_and_own_hand_text() -> None:
    s = played(3, 25)
    for p in (0, 1):
        out = text_of(s.view(p))
        assert "HP" in out and str(s.hp[0]) in out and str(s.hp[1]) in out
        assert "main" in out and "sub 1" in out and "sub 2" in out
        assert f"{len(s.deck[0])} cards" in out and "Pending:" in out
        for c in s.hand[p]:
            assert G.all_cards[c].name in out
        assert f"Turn {s.turn_no}" in out


def test_render_never_shows_the_opponents_hand() -> None:
    checked = 0
    for seed in range(15):
        s = played(seed, seed * 3)
        for p in (0, 1):
            view = s.view(p)
            out = text_of(view)
            shown = set(view["hand"])
            for zone in view["field"]:
                for st in zone:
                    shown.update(st)
            for pile in view["discard"]:
                shown.update(pile)
            shown_text = " ".join(G.card(i).name + " " + card_text(G.card(i)) for i in shown)
            for c in s.hand[1 - p]:
                name = G.all_cards[c].name
                if name not in shown_text:
                    assert name not in out, f"opponent's {name} leaked"
                    checked += 1
    assert checked > 20


def test_render_shows_fusion_stacks_and_pending_defender() -> None:
    from tests.vs.helpers import act, position

    s = position(hands=([], ["021"]), fields=((["001", "002", "007"], (), ()), (["026"], (), ())))
    act(s, "end", "skill m 007 0")
    out = text_of(s.view(0))
    flat = " ".join(out.split())
    assert "Koropokkur" in out and "fused under it: Pixie" in flat and "under it: Arsène" in flat
    assert "declaration React window" in out and "Player 2 (defending)" in out
    assert "Makarakarn" not in out
    assert "Makarakarn" in text_of(s.view(1))


def test_event_lines_and_labels() -> None:
    assert "1 MORE!" in event_line(Event("one_more", {"player": 0}))
    assert "takes 3 damage" in event_line(
        Event("damage", {"player": 1, "amount": 3, "hp": 27, "source": "skill"})
    )
    s = played(1, 0)
    view = s.view(s.current_player)
    for action in s.legal_actions():
        assert action_label(action, view)


def test_render_and_event_lines_show_names_not_raw_ids() -> None:
    from tests.vs.helpers import act, position

    # Player 1 planned Desperado (a Support modifier); Player 2 answers with Rakukaja.
    s = position(
        hands=(["017"], ["045"]),
        fields=((["001", "008"], (), ()), (["033"], (), ())),
        hp=(20, 30),
    )
    events = act(s, "support 017", "end", "skill m 008 0", "react 045")
    for viewer in (0, 1):
        out = text_of(s.view(viewer))
        assert "[[" not in out and "card=" not in out and "player=" not in out
        assert "Desperado" in out and "Rakukaja" in out
        for ident in ("017", "045", "008", "033"):
            assert ident not in out
    for event in events:
        line = event_line(event, G)
        assert "=" not in line and line.endswith(".")
        assert "Player" in line or line.startswith("The skill"), line
    view = s.view(0)
    assert action_label(G.parse_action("pass"), view, G) == "Play no React"


def test_a_spectator_board_names_no_seat_as_you_and_shows_no_hand() -> None:
    from velvet.games import get_game
    from velvet.ui.vs_render import compact, render
    from velvet.vs.game import VsGame

    game = get_game("vs")
    assert isinstance(game, VsGame)
    state = game.new_state(game.default_config(), 2)
    for board in (compact(state.public_view(), game), render(state.public_view(), game)):
        console = Console(width=80, record=True)
        console.print(board)
        text = console.export_text()
        assert "(you)" not in text and "Your hand" not in text
        assert "Player 1" in text and "Player 2" in text


def compact_text(view: VsView, game: VsGame = G) -> str:
    from velvet.ui.vs_render import compact

    console = Console(width=80, record=True, color_system=None)
    console.print(compact(view, game))
    return " ".join(console.export_text().split())


def test_a_fused_stack_shows_the_skills_and_abilities_of_every_card_in_it() -> None:
    # rule: VS-FUSE-1  (the fused persona has every skill and ability of the whole stack)
    from tests.vs.helpers import position
    from velvet.vs.state import DECLARE

    # Koropokkur (007) fused over Pixie (002) over Arsène (001)
    s = position(fields=((["001", "002", "007"], (), ()), (["003"], (), ())), step=DECLARE)
    for shown in (compact_text(s.view(0)), " ".join(text_of(s.view(1)).split())):
        assert "Koropokkur — Weakness: fire; Skill Bufu: ice, 4 damage" in shown
        assert "fused under it: Pixie: Skill Zio: electric, 3 damage; Ability Dia:" in shown
        assert "fused under it: Arsène: Skill Cleave: physical, 3 damage; Skill Agi:" in shown


def test_a_skill_of_a_card_under_the_stack_is_not_called_their_main() -> None:
    from tests.vs.helpers import position
    from velvet.engine.core import choose_by_text
    from velvet.vs.state import DECLARE

    s = position(fields=((["001", "002", "007"], (), ()), (["003"], (), ())), step=DECLARE)
    said = [G.event_text(e) for e in s.clone().apply(choose_by_text(s, "skill m 002 0"))]
    assert said[0] == (
        "Player 1 declares Zio (electric, 3 damage) of Pixie, fused under their main Koropokkur."
    )
    top = [G.event_text(e) for e in s.apply(choose_by_text(s, "skill m 007 0"))]
    assert top[0] == "Player 1 declares Bufu (ice, 4 damage) of their main Koropokkur."


def test_the_1_more_screen_drops_the_react_modifiers_of_the_skill_before() -> None:
    # rule: VS-MORE-1  (the Skill Step starts again: the last skill's Reacts are spent)
    from tests.vs.helpers import position
    from velvet.vs.state import DECLARE

    s = position(fields=((["001"], (), ()), (["003"], (), ())), step=DECLARE, more_used=True)
    view = s.view(0)
    stale = dict(view, rmods=[[0, -2, "004"]], negated=True, skill=None)
    after = compact_text(stale)  # type: ignore[arg-type]
    assert "(1 MORE)" in after
    assert "React modifiers" not in after and "negated" not in after
    assert "React modifiers" not in " ".join(text_of(stale).split())  # type: ignore[arg-type]
    declared = dict(stale, skill=["m", "001", 0])
    assert "React modifiers: -2 (Jack Frost)" in compact_text(declared)  # type: ignore[arg-type]
