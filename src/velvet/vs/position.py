"""Persona VS positions built by names (``VsGame.position``; format in docs/engine.md).

A position names each player's card, HP, hand, deck (top first), discard pile and
field (the main and up to two subs, each a stack listed bottom to top), the player
whose turn it is, the step, and the RNG (a seed and scripted outcomes). Cards are
named by id or by name. Every problem is a ConfigError naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from velvet.engine.errors import ConfigError
from velvet.engine.rng import Rng
from velvet.vs.cards import HP_START, Persona
from velvet.vs.decks import resolve_card

if TYPE_CHECKING:
    from velvet.vs.game import VsGame
    from velvet.vs.state import VsState

TOP_KEYS = (
    "players",
    "turn",
    "first_player",
    "turn_number",
    "step",
    "declared",
    "one_more",
    "one_more_next",
    "seed",
    "rng_script",
    "open_decklists",
)
PLAYER_KEYS = ("player_card", "hp", "hand", "deck", "discard", "main", "subs")
STEPS = ("planning", "skill", "react-declaration", "react-resolution")
"""Steps a position may start in: the Planning Step, the Skill Step before a
declaration, and the two React windows of a ``declared`` skill."""


def _fail(where: str, problem: str) -> ConfigError:
    return ConfigError(f"vs position: {where}: {problem}")


def _int(spec: Mapping[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = spec.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(key, f"must be a whole number from {low} to {high}, not {value!r}")
    return value


def _card(game: VsGame, ref: Any, where: str) -> int:
    if not isinstance(ref, str):
        raise _fail(where, f"a card is named by its id or name, not {ref!r}")
    ident = resolve_card(ref, game)
    if ident is None:
        raise _fail(where, f"no card has the id or name '{ref}'")
    return game.index[ident]


def _cards(game: VsGame, refs: Any, where: str) -> list[int]:
    if not isinstance(refs, list):
        raise _fail(where, f"must be a list of card names, not {refs!r}")
    return [_card(game, ref, f"{where}[{i}]") for i, ref in enumerate(refs)]


def _stack(game: VsGame, refs: Any, where: str) -> tuple[int, ...]:
    """A persona or a fused stack: one name, or a list from bottom to top."""
    cards = _cards(game, [refs] if isinstance(refs, str) else refs, where)
    names: set[int] = set()
    for i, c in enumerate(cards):
        if not isinstance(game.all_cards[c], Persona):
            raise _fail(f"{where}[{i}]", f"{game.all_cards[c].name} is not a persona")
        if game.name_of[c] in names:
            raise _fail(where, f"two cards named {game.all_cards[c].name} in one stack [VS-FUSE-4]")
        names.add(game.name_of[c])
    return tuple(cards)


def _player(game: VsGame, spec: Any, seat: int) -> dict[str, Any]:
    where = f"players[{seat}]"
    if not isinstance(spec, Mapping):
        raise _fail(where, "must be a table of player_card, hp, hand, deck, discard, main, subs")
    unknown = sorted(set(spec) - set(PLAYER_KEYS))
    if unknown:
        raise _fail(where, f"unknown keys {unknown}; allowed: {', '.join(PLAYER_KEYS)}")
    pc = spec.get("player_card", ("p5", "p4")[seat])
    if pc not in game.players:
        by_name = {p.name.casefold(): p.id for p in game.players.values()}
        pc = by_name.get(str(pc).casefold(), pc)
    if pc not in game.players:
        raise _fail(f"{where}.player_card", f"'{pc}' is not one of {', '.join(game.players)}")
    hp = spec.get("hp", HP_START)
    if isinstance(hp, bool) or not isinstance(hp, int) or not 1 <= hp <= HP_START:
        raise _fail(f"{where}.hp", f"must be a whole number from 1 to {HP_START}, not {hp!r}")
    main = spec.get("main", [])
    subs = spec.get("subs", [])
    if not isinstance(subs, list) or len(subs) > 2:
        raise _fail(f"{where}.subs", "must be a list of at most 2 stacks (a name or a list)")
    field = [_stack(game, main, f"{where}.main")]
    field += [_stack(game, st, f"{where}.subs[{i}]") for i, st in enumerate(subs)]
    field += [()] * (3 - len(field))
    if not field[0] and (field[1] or field[2]):
        raise _fail(f"{where}.main", "a player with a sub must have a main [VS-RULE-LOSEMAIN]")
    tops = [game.name_of[st[-1]] for st in field if st]
    if len(tops) != len(set(tops)):
        raise _fail(f"{where}", "two personas of one name on the field [VS-RULE-NAME]")
    return {
        "pc": pc,
        "hp": hp,
        "hand": _cards(game, spec.get("hand", []), f"{where}.hand"),
        # The state draws from the end of its deck list; a position lists the top first.
        "deck": _cards(game, spec.get("deck", []), f"{where}.deck")[::-1],
        "disc": _cards(game, spec.get("discard", []), f"{where}.discard"),
        "field": field,
    }


def build_position(game: VsGame, spec: Mapping[str, Any]) -> VsState:
    """The state ``spec`` describes (see the module docstring and docs/engine.md)."""
    from velvet.vs.flow import has_persona
    from velvet.vs.state import DECLARE, PLAN, REACT1, REACT2, TURN_CAP, VsState

    if not isinstance(spec, Mapping):
        raise ConfigError("vs position: must be a table (players, turn, step, ...)")
    unknown = sorted(set(spec) - set(TOP_KEYS))
    if unknown:
        raise _fail("keys", f"unknown {unknown}; allowed: {', '.join(TOP_KEYS)}")
    players = spec.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise _fail("players", "must list exactly 2 players (Player 1 first)")
    seats = [_player(game, p, i) for i, p in enumerate(players)]
    turn = _int(spec, "turn", 1, 2, 1) - 1
    if "first_player" in spec:
        first = _int(spec, "first_player", 1, 2, 1) - 1
        number = _int(spec, "turn_number", 1, TURN_CAP, 1 if first == turn else 2)
        if (number % 2 == 1) != (first == turn):
            raise _fail(
                "turn_number",
                f"turn {number} belongs to Player {(first if number % 2 else 1 - first) + 1}, "
                f"who began, or not; it does not fit turn = {turn + 1}",
            )
    else:
        number = _int(spec, "turn_number", 1, TURN_CAP, 1)
    step_name = spec.get("step", "planning")
    if step_name not in STEPS:
        raise _fail("step", f"'{step_name}' is not one of {', '.join(STEPS)}")
    one_more = spec.get("one_more", False)
    if not isinstance(one_more, bool):
        raise _fail("one_more", "must be true or false")
    open_lists = spec.get("open_decklists", True)
    if not isinstance(open_lists, bool):
        raise _fail("open_decklists", "must be true or false")
    seed = _int(spec, "seed", 0, (1 << 63) - 1, 0)
    script = spec.get("rng_script", [])
    if not isinstance(script, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in script
    ):
        raise _fail("rng_script", "must be a list of whole numbers >= 0 (the next draws)")

    s = VsState.blank(game)
    s.rng = Rng(seed, script)
    s.pcs = (seats[0]["pc"], seats[1]["pc"])
    s.hp = [seats[0]["hp"], seats[1]["hp"]]
    s.hand = [seats[0]["hand"], seats[1]["hand"]]
    s.deck = [seats[0]["deck"], seats[1]["deck"]]
    s.disc = [seats[0]["disc"], seats[1]["disc"]]
    s.field = [seats[0]["field"], seats[1]["field"]]
    s.turn = turn
    s.turn_no = number
    s.more_used = one_more
    s.open_lists = (open_lists, open_lists)
    s.step = {
        "planning": PLAN,
        "skill": DECLARE,
        "react-declaration": REACT1,
        "react-resolution": REACT2,
    }[step_name]
    if one_more and s.step == PLAN:
        raise _fail(
            "one_more", "1 more happens in the Skill Step (step = 'skill' or a React window)"
        )
    declared = spec.get("declared")
    if s.step in (REACT1, REACT2):
        _declare(s, declared)
    elif declared is not None:
        raise _fail(
            "declared", "a declared skill needs step = 'react-declaration' or 'react-resolution'"
        )
    s.more_pending = _one_more_next(s, spec.get("one_more_next"))
    if s.step != PLAN and not has_persona(s, turn):
        raise _fail("step", f"Player {turn + 1} has no persona, so has no Skill Step [VS-SKILL-4]")
    s.decklists = (
        tuple(sorted(s.zones(0).elements())),
        tuple(sorted(s.zones(1).elements())),
    )
    return s


def _declare(s: VsState, declared: Any) -> None:
    """Set the skill that the React window answers: a skill name of the turn player."""
    g = s.game
    if not isinstance(declared, str):
        raise _fail("declared", "a React window needs the declared skill's name")
    slots = (0, 1, 2) if s.more_used else (0,)
    for slot in slots:
        for c in s.field[s.turn][slot]:
            card = g.all_cards[c]
            for k, skill in enumerate(card.skills if isinstance(card, Persona) else ()):
                if skill.name.casefold() == declared.casefold():
                    s.sk_c, s.sk_k, s.sk_slot = c, k, slot
                    return
    where = "field" if s.more_used else "main's stack"
    raise _fail("declared", f"no skill named '{declared}' in Player {s.turn + 1}'s {where}")


def _one_more_next(s: VsState, given: Any) -> bool:
    """Whether 1 more follows the resolution window (VS-MORE-1): as play leaves it, the
    declared skill hit the weakness of the defending main, unless ``one_more_next`` says
    otherwise (its damage was negated or 0, or an effect changed the main since)."""
    from velvet.vs.state import REACT2

    if given is not None and not isinstance(given, bool):
        raise _fail("one_more_next", "must be true or false")
    if s.step != REACT2 or s.more_used:
        if given:
            raise _fail(
                "one_more_next",
                "1 more follows only the resolution window of a Skill Step that has had "
                "none (step = 'react-resolution', one_more = false) [VS-MORE-3]",
            )
        return False
    if given is not None:
        return given
    g = s.game
    main = s.field[1 - s.turn][0]
    skill = g.skills[s.sk_c][s.sk_k]
    return bool(main) and skill.damage > 0 and g.weak[main[-1]] == skill.damage_type


def position_spec(s: VsState, seed: int = 0) -> dict[str, Any]:
    """The position of ``s`` by names (the inverse of :func:`build_position`), for a state in
    the Planning Step or the Skill Step before a declaration with nothing pending; cards by
    name where the name finds the card, else by id. ``seed`` becomes the position's RNG (the
    state's own RNG is hidden and is not written). Raises ConfigError for any other state."""
    from velvet.vs.state import DECLARE, PLAN

    g = s.game
    if s.winner != -1 or s.step not in (PLAN, DECLARE):
        raise ConfigError("vs position: only the Planning Step or a Skill Step can be written")
    if s.frames or s.effq or s.mods or s.tmods or s.rmods or s.applied or s.more_pending:
        raise ConfigError("vs position: an effect is pending; it cannot be written")

    def ref(c: int) -> str:
        card = g.all_cards[c]
        return card.name if resolve_card(card.name, g) == card.id else card.id

    def stack(cards: tuple[int, ...]) -> str | list[str]:
        return ref(cards[0]) if len(cards) == 1 else [ref(c) for c in cards]

    players = []
    for p in (0, 1):
        main, *subs = s.field[p]
        player: dict[str, Any] = {
            "player_card": s.pcs[p],
            "hp": s.hp[p],
            "hand": [ref(c) for c in s.hand[p]],
            "deck": [ref(c) for c in s.deck[p][::-1]],
            "discard": [ref(c) for c in s.disc[p]],
        }
        if main:
            player["main"] = stack(main)
        if any(subs):
            player["subs"] = [stack(st) for st in subs if st]
        players.append(player)
    first = s.turn if s.turn_no % 2 == 1 else 1 - s.turn
    spec: dict[str, Any] = {
        "turn": s.turn + 1,
        "first_player": first + 1,
        "turn_number": s.turn_no,
        "step": "planning" if s.step == PLAN else "skill",
        "seed": seed,
    }
    if s.more_used:
        spec["one_more"] = True
    if not all(s.open_lists):
        spec["open_decklists"] = False
    spec["players"] = players
    return spec
