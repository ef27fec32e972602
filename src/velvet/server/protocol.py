"""The wire protocol, defined once: every message a client or the server may send.

Messages are JSON objects with ``v`` (the protocol version) and ``type``. Client
messages are validated with these models (``extra="forbid"``); anything else is
answered with an ``error`` message and changes nothing. docs/protocol.md explains
them with examples.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from velvet.engine.errors import printable
from velvet.games import game_names

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 16_384
"""The largest WebSocket message a client may send (a move is far smaller)."""
MAX_TEXT = 200
"""The longest action text accepted in a move."""
MAX_DIGITS = 20
"""The most digits an integer in a client message may have (the largest the protocol takes,
a ``version``, has 8); a longer one is refused before it is turned into a number."""


ErrorCode = Literal[
    # a move, an undo, a rematch
    "illegal",
    "invalid",
    "stale",
    "not_your_turn",
    "spectator",
    "game_over",
    "not_over",
    "undo_off",
    "emotes_off",
    "chat_off",
    "nothing_to_undo",
    "undo_asked",
    "no_offer",
    # a message that cannot be read
    "bad_json",
    "bad_message",
    "protocol_version",
    "hello_first",
    "hello_twice",
    "too_large",
    "rate_limited",
    # a seat
    "bad_token",
    "invite_used",
    "seat_moved",
    "too_many_sockets",
    "sign_in",
    "same_account",
    # finding a game: seeks and the quick-pair queue
    "no_seek",
    "seek_taken",
    "own_seek",
    "seek_range",
    "no_ticket",
    "no_bot_offer",
    "not_two_players",
    # the daily challenge
    "no_daily",
    "bad_day",
    "daily_running",
    "daily_played",
    # hints and the forecast
    "hint_off",
    "hint_not_your_turn",
    "hint_stale",
    "hint_busy",
    "hint_full",
    "hint_over",
    "hint_no_forecast",
    "hint_failed",
    "hint_none",
    # HTTP
    "bad_options",
    "bad_request",
    "http",
    "no_room",
    "no_game",
    "no_lesson",
    "bad_moves",
    "storage",
    # accounts
    "bad_name",
    "short_password",
    "long_password",
    "name_taken",
    "wrong_password",
    "no_player",
    # the review of a record
    "bad_record",
    "busy",
]
"""Every code the server sends: an ``error`` message's ``code`` and an HTTP error's
``error``. docs/protocol.md ("Error codes") says when each is sent; a test checks that
every code the server's source sends is here and that the page lists exactly these."""


class _Client(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    v: Literal[1]


class Hello(_Client):
    """First message on a socket: a seat's secret (the invite the first time: claiming it
    gives this client the seat's secret; or a one-time move code), or none to watch."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=16, max_length=128)] | None = None
    lang: Annotated[str, Field(max_length=40)] | None = None
    """The language of the words the server writes for this socket (action labels, the
    log, card names: ``en``, ``ja``, a browser tag such as ``ja-JP``); one Velvet has no
    catalogue of, or none, gets English."""


class Move(_Client):
    """A move made against state ``version``; ``action`` is its text form."""

    type: Literal["move"]
    version: Annotated[int, Field(ge=0, le=10_000_000)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]


class Resign(_Client):
    type: Literal["resign"]


class Undo(_Client):
    """Take back this seat's last move (and the bot moves after it), made at ``version``."""

    type: Literal["undo"]
    version: Annotated[int, Field(ge=0, le=10_000_000)]


class HintAsk(_Client):
    """Ask for the hard bot's top three choices at ``version`` (your decision only)."""

    type: Literal["hint"]
    version: Annotated[int, Field(ge=0, le=10_000_000)]


class ForecastAsk(_Client):
    """P5: ask for the chance to beat the boss in time from ``version`` (your decision only)."""

    type: Literal["forecast"]
    version: Annotated[int, Field(ge=0, le=10_000_000)]


class HintCancel(_Client):
    """Stop the ``hint`` or ``forecast`` being worked out for this socket: its answer is
    dropped and another may be asked at once."""

    type: Literal["hint_cancel"]


class Rematch(_Client):
    """After the game: a rematch. Between two people each holding their own seat, the
    first ``rematch`` offers it and the other seat's ``rematch`` accepts it."""

    type: Literal["rematch"]


class RematchDecline(_Client):
    """Turn down the other seat's rematch offer."""

    type: Literal["rematch_decline"]


class Transfer(_Client):
    """Ask for a one-time code that moves this seat to another device (``transfer``)."""

    type: Literal["transfer"]


EmoteName = Literal["hello", "good_luck", "nice", "well_played", "oops", "thinking", "good_game"]
EMOTES: tuple[str, ...] = get_args(EmoteName)
"""The preset emotes a seat may send (``emote``); the client says each in words."""


class Emote(_Client):
    """Say one of the preset emotes to the room (seats only; one every few seconds)."""

    type: Literal["emote"]
    emote: EmoteName


CHAT_MAX = 200
"""The most characters a chat line may have (``chat``)."""


class Chat(_Client):
    """Say a line of text to the room, where the room has text chat (seats only; one line
    every few seconds; control characters become spaces)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX)]


class Ping(_Client):
    type: Literal["ping"]


AnyClient = (
    Hello
    | Move
    | Undo
    | Resign
    | Rematch
    | RematchDecline
    | Ping
    | HintAsk
    | ForecastAsk
    | HintCancel
    | Transfer
    | Emote
    | Chat
)
ClientMessage = Annotated[AnyClient, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClient] = TypeAdapter(ClientMessage)


# --- server → client ------------------------------------------------------------------------


class _Server(BaseModel):
    v: Literal[1] = 1


class SeatInfo(BaseModel):
    seat: int
    name: str
    who: str
    """``human``, or the bot spec playing the seat."""
    connected: bool
    claimed: bool = False
    """A person's seat whose invite was used: it opens only for the client that claimed it."""
    player: str | None = None
    """The account name of the person who claimed the seat while signed in (else null)."""
    display_name: str = ""
    """Who plays the seat, in words for the table: the account's name (``player``), else
    ``Guest`` (claimed by a client not signed in), ``Open seat`` (its invite not used yet)
    or the bot (``Bot (hard)``); a person's seat a bot plays for now ends in ``(a bot plays
    for now)``. Written by the server: clients show it, never make it."""


class Welcome(_Server):
    type: Literal["welcome"] = "welcome"
    room: str
    game: str
    seat: int | None
    """Your seat (0-based), or null for a spectator."""
    seats: list[SeatInfo]
    seed_sha256: str
    """SHA-256 of ``nonce:seed``; both are revealed with the record at the end."""
    turn_timer: float | None = None
    """The room's seconds per decision (a bot moves when they run out), or null."""
    hints: bool = False
    """Whether this seat may ask for hints (``hint``) in this room."""
    forecast: bool = False
    """Whether this seat may ask for the P5 forecast (``forecast``) in this room."""
    secret: str | None = None
    """Only on the welcome that answers the claim of an invite (or of a move code): this
    client's secret for the seat from now on (the invite opens nothing any more); keep it,
    send it in every later ``hello``, and show it to nobody."""
    hotseat: bool = False
    """The room was made as "one screen": its seats may be played from one browser."""
    emotes: bool = True
    """Whether the seats may say preset emotes to each other (``emote``) in this room."""
    chat: bool = False
    """Whether the seats may write text to each other (``chat``) in this room."""


class ActionOut(BaseModel):
    text: str
    """The action's text form: send it back in a ``move``."""
    label: str
    """Words for people."""
    targets: list[str] = Field(default_factory=list)
    """Board refs (``"kind:key"``) of what the action acts on (``Game.action_targets``)."""
    note: str | None = None
    """A fact to know before choosing it, e.g. a check's exact chance (``Game.action_note``)."""


class EventOut(BaseModel):
    kind: str
    text: str
    data: dict[str, Any]


class StateMsg(_Server):
    type: Literal["state"] = "state"
    version: int
    """How many moves have been made; a move names the version it was made against."""
    view: dict[str, Any]
    to_move: int | None
    """The seat that decides next (null when the game is over)."""
    legal: list[ActionOut]
    """Your legal actions (empty unless it is your turn)."""
    events: list[EventOut]
    """What happened since the previous version, as far as you may see it."""
    status: str
    result: dict[str, Any] | None
    ack: bool = False
    """True on the message that answers your own accepted move."""
    acked: str | None = None
    """On that message: the text of the move it acknowledges."""
    undo: bool = False
    """True when an ``undo`` from you would do something now: take back your last move
    (none of the moves since it rolled a die, shuffled or showed a hidden card), ask the
    other player to agree to that, or agree to the other player's request."""
    undo_asked: int | None = None
    """The seat whose undo waits for the other player's consent (at this version), or null."""
    time_left: float | None = None
    """Seconds left for the pending decision when its turn timer was already running as this
    state was sent (you joined or reconnected mid-decision); null: the decision has just
    begun and gets the room's whole ``turn_timer`` (or the room has none)."""
    deadline: float | None = None
    """A correspondence room's pending decision runs out at this Unix time (the seat to
    move then loses on time); null in other rooms and once the game is over."""


class ErrorMsg(_Server):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    rule: str | None = None


class HintOut(BaseModel):
    action: str
    """The action's text form, as in ``legal[].text`` (send it in a ``move`` to play it)."""
    label: str
    win: float
    """The chance to win after this action (0 to 1) if every seat then plays like ``bot``:
    the search's value through its measured calibration (docs/lab.md, "Honest chances")."""
    margin: float
    """Half-width of a rough 95 % interval on ``win``."""
    visits: int
    """Simulations behind the estimate."""
    reason: str
    """One line built from the search: what the action does, what follows, the gap."""
    value: float | None = None
    """The search's own mean value, before calibration (a heuristic score, not a chance)."""
    bot: str = "easy"
    """Whose play ``win`` assumes from here on: every seat playing like this bot."""
    bot_is: str = ""
    """What ``bot`` is in this game, in words (``greedy, 5 samples a move``)."""
    spread: float = 0.0
    """How far this position's own chance may stray from ``win`` among positions the search
    values alike (half a 95 % range, measured; 0: not measured)."""
    chance_margin: float | None = None
    """``margin`` and ``spread`` together: the half-width of a rough 95 % interval on this
    position's chance to win (a forecast of the same play falls within it and its own)."""


class HintMsg(_Server):
    """The answer to your ``hint``: the hard bot's top choices (best first), from your view."""

    type: Literal["hint"] = "hint"
    version: int
    hints: list[HintOut]
    bot: str = "easy"
    """Whose play the hints' chances assume: every seat playing on like this bot (the game's
    ``chance_bot`` level)."""
    bot_is: str = ""
    """What ``bot`` is in this game, in words (``greedy, 5 samples a move``)."""
    budget: str
    """The search's budget (simulations, or seconds like ``1.5s``)."""
    seconds: float
    """How long the search took."""


class ForecastMsg(_Server):
    """The answer to your ``forecast`` (P5): games played from samples of your view."""

    type: Literal["forecast"] = "forecast"
    version: int
    rate: float
    """The share of those games that beat the boss before the days ran out."""
    low: float
    high: float
    """The 95 % Wilson interval of ``rate``."""
    margin: float
    wins: int
    games: int
    bot: str
    """The bot that played every seat in those games: whose play ``rate`` assumes."""
    bot_is: str = ""
    """What ``bot`` is in this game, in words (``MCTS, 30 simulations a move``)."""
    hints_bot: str = "easy"
    """Whose play the hints' chances assume in this game: when it is ``bot``, the two
    estimate the same play (the hint after its move)."""
    hints_spread: float = 0.0
    """How far a hint's chance may stray from a position's own chance in this game (half a
    95 % range, measured; 0: not measured): beyond it, the two truly disagree."""
    days: int
    seconds: float


class HintCancelledMsg(_Server):
    """The answer to your ``hint_cancel``: that ``hint`` or ``forecast`` will not come."""

    type: Literal["hint_cancelled"] = "hint_cancelled"
    kind: Literal["hint", "forecast"]
    version: int
    """The version it was asked at."""


class RecordMsg(_Server):
    type: Literal["over"] = "over"
    result: dict[str, Any]
    record: dict[str, Any]
    seed: int
    nonce: str


class RematchMsg(_Server):
    type: Literal["rematch"] = "rematch"
    room: str
    """The new room: join it with the same secret (each client keeps its own)."""
    seat: int | None = None
    """Your seat there (between two people the seats are swapped); null for a spectator."""


class RematchOfferMsg(_Server):
    """To the room: ``seat`` offers a rematch (seats swapped); the other seat answers with
    ``rematch`` (accept) or ``rematch_decline``."""

    type: Literal["rematch_offer"] = "rematch_offer"
    seat: int


class ChatMsg(_Server):
    """To the room (its seats and spectators): ``seat`` wrote ``text`` (one line, at most
    ``CHAT_MAX`` characters; show it as text, never as markup)."""

    type: Literal["chat"] = "chat"
    seat: int
    text: str


class EmoteMsg(_Server):
    """To the room (its seats and spectators): ``seat`` said the preset ``emote``."""

    type: Literal["emote"] = "emote"
    seat: int
    emote: EmoteName


class RematchDeclinedMsg(_Server):
    """To the room: ``seat`` turned the rematch offer down."""

    type: Literal["rematch_declined"] = "rematch_declined"
    seat: int


class TimerMsg(_Server):
    """To the whole room: the deciding seat's time was extended by the time its own hint
    (or forecast) took, so asking for one never costs the seat its turn."""

    type: Literal["timer"] = "timer"
    version: int
    """The decision whose deadline moved."""
    seat: int
    added: float
    """Seconds added to the deadline."""
    left: float
    """Seconds left for the decision now."""


class TransferMsg(_Server):
    """The answer to your ``transfer``: a code that moves your seat to the client that
    sends it in its ``hello`` within ``seconds``; then your own secret stops working."""

    type: Literal["transfer"] = "transfer"
    code: str
    seconds: int


class SeatsMsg(_Server):
    """To the room's sockets when a seat changes hands (its invite is claimed, a bot takes a
    dropped seat over or gives it back): every seat's public facts, names included."""

    type: Literal["seats"] = "seats"
    seats: list[SeatInfo]


class LogEntry(BaseModel):
    version: int
    kind: str
    text: str


class LogMsg(_Server):
    """Sent after the welcome: the game's log so far (the newest entries), each event as
    this seat (or a spectator) may see it."""

    type: Literal["log"] = "log"
    version: int
    entries: list[LogEntry]


class Pong(_Server):
    type: Literal["pong"] = "pong"


class _Refused(Exception):
    """A message refused while its JSON is read (a number too long, NaN or Infinity)."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(text: str) -> Any:
    raise _Refused(f"{text} is not JSON")


def parse_client(text: str) -> AnyClient | ErrorMsg:
    """A client message read from ``text``, or the ``error`` that answers it.

    ``v`` must be the integer 1 itself: ``1.0`` and ``true`` equal 1 in Python but are not
    the protocol's version. Integers longer than MAX_DIGITS, ``NaN`` and ``Infinity`` are
    refused as the JSON is read (Python refuses to turn over 4,300 digits into a number).
    """
    try:
        data = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except _Refused as refused:
        return ErrorMsg(code="bad_json", message=f"a message must be one JSON object: {refused}")
    except (ValueError, RecursionError):  # json.JSONDecodeError is a ValueError
        return ErrorMsg(code="bad_json", message="a message must be one JSON object")
    if not isinstance(data, dict):
        return ErrorMsg(code="bad_message", message="a message must be a JSON object")
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:
        shown = json.dumps(version)[:20] if "v" in data else "none"
        return ErrorMsg(
            code="protocol_version",
            message=f"unsupported protocol version {shown} (the integer {PROTOCOL_VERSION} "
            f"is this server's)",
        )
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        return ErrorMsg(code="bad_message", message=_first_error(error))


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(x) for x in first.get("loc", ()))
    return printable(f"{where or 'message'}: {first.get('msg', 'invalid')}")


# --- HTTP -----------------------------------------------------------------------------------

BotOrHuman = Annotated[str, Field(min_length=1, max_length=40)]
MAX_CARD_TEXT = 262_144
"""Characters of one uploaded card (or deck) file."""
MAX_CARD_FILES = 2
"""Card files one room takes (``CreateRoom.cards``; a room's review plays the same)."""
CardText = Annotated[str, Field(max_length=MAX_CARD_TEXT)]
Ident = Annotated[str, Field(min_length=1, max_length=60)]
OptionName = Annotated[str, Field(min_length=1, max_length=40)]


class FileText(BaseModel):
    """A file a player sends for an option of kind ``path`` (a VS deck): its text."""

    model_config = ConfigDict(extra="forbid")
    text: CardText


OptionItem = Ident | FileText | None
"""One value: an id or word (``skull``, ``random``), a file's text, or null (the default)."""
OptionValue = OptionItem | Annotated[list[OptionItem], Field(max_length=8)]
"""An option's value: one item, or one per seat (a ``multiple`` option) in seat order."""

OLD_FIELDS: dict[str, str] = {
    "thieves": "thief",
    "personas": "persona",
    "palace": "palace",
    "player_cards": "player_card",
    "decks": "deck",
    "first": "first",
    "second_draws": "second_draws",
}
"""Fields of the first ``CreateRoom`` (game options side by side with the room's) and the
option each one is now: still taken within protocol version 1, moved into ``options``."""


class CreateRoom(BaseModel):
    """Everything a room needs: the room's own fields, and the game's set-up ``options``,
    checked by the call ``velvet play`` makes (``GameSpec.config_for``)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(json_schema_extra=lambda schema: schema.update(enum=list(game_names())))
    """A registered game's name (``velvet.games.game_names()``: ``p5``, ``vs`` and installed
    ones; the schema lists them). A ``package.module:ATTR`` path is not taken from a request:
    it would import any module the server can reach."""
    seats: list[BotOrHuman] = Field(default_factory=list, max_length=2)
    """Who plays each seat: ``human`` or a bot spec (random, greedy, easy, normal, hard …)."""
    players: Annotated[int, Field(ge=1, le=2)] | None = None
    """How many players, where the game offers several counts (``GET /api/games``
    ``players``; default: the number of seats given, else the fewest)."""
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=32)
    """The game's set-up options by their ``ConfigOption`` name (``GET /api/games``
    lists them): ``{"thief": ["skull", null], "palace": "kamoshida"}``; a ``path``
    option's file as ``{"text": "..."}``. Checked as ``velvet play --thief skull`` is."""
    thieves: list[Ident] = Field(default_factory=list, max_length=2)
    """Deprecated (version 1 only): ``options.thief``; so are the six fields below."""
    personas: list[Ident] = Field(default_factory=list, max_length=2)
    palace: Ident | None = None
    player_cards: list[Ident] = Field(default_factory=list, max_length=2)
    decks: list[CardText | None] = Field(default_factory=list, max_length=2)
    first: Literal["1", "2", "random"] | None = None
    second_draws: Literal["0", "1", "2"] | None = None
    cards: list[CardText] = Field(default_factory=list, max_length=MAX_CARD_FILES)
    """Custom card files (TOML text) extending or replacing the built-in set."""
    turn_timer: Annotated[float, Field(ge=5, le=86_400)] | None = None
    """Seconds per decision; when it runs out a bot moves for the seat."""
    grace: Annotated[float, Field(ge=1, le=86_400)] | None = None
    """Seconds a dropped seat is waited for before ``takeover`` plays it."""
    takeover: BotOrHuman | None = None
    """The bot that plays a dropped seat after ``grace`` (and on timeouts)."""
    days_per_move: Literal[1, 3, 7] | None = None
    """A correspondence room: each decision may take this many days (from the move before
    it, or the room's creation); past that the seat to move loses on time (``flagged`` in
    the result). No bot takes over; not with ``turn_timer``."""
    hours_per_move: Literal[1, 4, 12] | None = None
    """A correspondence room counted in hours (as ``days_per_move``; give one of them)."""
    listed: bool = True
    """Shown in the lobby while a human seat is free."""
    hints: Literal["on", "off"] | None = None
    """Whether the people may ask for hints (and the P5 forecast). Default: ``on``, except
    in a Persona VS game between two people (a hint would help one against the other)."""
    hotseat: bool = False
    """"One screen": every human seat may be played from one browser (people sharing a
    screen). Otherwise a seat opens only for the client that claimed its invite first."""
    emotes: bool = True
    """Whether the seats may say preset emotes to each other (``emote``). Off: the tables
    offer none and the server refuses them (``emotes_off``)."""
    chat: bool = False
    """Whether the seats may also write text to each other (``chat``, at most ``CHAT_MAX``
    characters a line). Off by default: the server refuses it (``chat_off``)."""
    undo: Literal["solo", "off"] = "solo"
    """``solo``: a person alone (a solo P5 game, a game against bots) takes moves back at
    once; where two people play, one asks and the other must agree. ``off``: never."""
    rated: bool = False
    """A rated game (Glicko-2, docs/web.md): only a game that is not co-op, with exactly two
    human seats, not one screen, no takeover bot; each seat is claimed only by a signed-in
    account (two different ones), and the end updates both players' ratings once."""

    @field_validator("game")
    @classmethod
    def _registered(cls, name: str) -> str:
        known = game_names()
        if name not in known:
            raise PydanticCustomError(
                "unknown_game",
                "unknown game '{name}': choose {known}",
                {"name": name, "known": ", ".join(known)},
            )
        return name

    @model_validator(mode="after")
    def _old_fields(self) -> CreateRoom:
        """The deprecated fields given, moved into ``options`` (both at once: refused)."""
        for field, option in OLD_FIELDS.items():
            if field not in self.model_fields_set:
                continue
            value: Any = getattr(self, field)
            if option in self.options:
                raise PydanticCustomError(
                    "twice",
                    "{field} is options.{option}: give it once",
                    {"field": field, "option": option},
                )
            if field == "decks":
                value = [None if text is None else FileText(text=text) for text in value]
            self.options[option] = value
        return self


class ChoiceInfo(BaseModel):
    id: str
    """The value to send."""
    name: str
    """Words for people."""


class OptionInfo(BaseModel):
    """One of a game's set-up options (its ``ConfigOption``), as ``CreateRoom.options``
    takes it under ``name``: the same option ``velvet play`` shows as ``--NAME``."""

    name: str
    label: str
    """The form's words for the field ("thief": "Player 1's thief" for a per-seat one)."""
    help: str
    kind: Literal["text", "path"]
    """``path``: a file; send its text as ``{"text": ...}`` (or one of ``choices``)."""
    multiple: bool
    """One value per seat, in seat order (a list; null: that seat's default)."""
    choices: list[ChoiceInfo]
    """What the value may be (empty: any text the game takes)."""
    default: str | None
    defaults: list[str]
    """Each seat's value when left out (an option that is not per seat: its one value);
    empty: not known before the game is set up."""


class GameInfo(BaseModel):
    """A game a room may be made of (``GET /api/games``)."""

    name: str
    title: str
    short_title: str
    players: list[int]
    """The seat counts it may be played with (``CreateRoom.players``)."""
    cooperative: bool
    hides_hands: bool
    forecast: bool
    """Whether a seat may ask for the ``forecast``."""
    board: str | None
    """The browser client's board module, a file under ``/static/`` (``p5.js``), or null."""
    board_css: str | None
    bots: list[str]
    """The bots this server lets a seat (or ``takeover``) be played by."""
    options: list[OptionInfo]


class Invite(BaseModel):
    seat: int
    name: str
    url: str
    token: str


class RoomCreated(BaseModel):
    room: str
    seed_sha256: str
    invites: list[Invite]
    spectate: str
    websocket: str


class RoomInfo(BaseModel):
    room: str
    game: str
    status: str
    version: int
    seats: list[SeatInfo]
    seed_sha256: str
    created: float
    hotseat: bool = False
    """Made as "one screen": its seats may all be played from one browser."""
    rated: bool = False
    """A rated game between two accounts (its end updates their ratings)."""
    days_per_move: int | None = None
    """A correspondence room's days per move (``CreateRoom.days_per_move``), else null."""
    hours_per_move: int | None = None
    """A correspondence room's hours per move (``CreateRoom.hours_per_move``), else null."""


class Problem(BaseModel):
    error: ErrorCode
    message: str
    option: str | None = None
    """``bad_options`` and ``bad_request``: the option or field the error is about (a
    ``ConfigOption`` name, or a room field: ``seats``, ``cards``, ``turn_timer`` …)."""
    seat: int | None = None
    """With ``option``: the seat (0-based) whose value of a per-seat option it is about."""


MAX_HELD = 60
"""The most seats one ``POST /api/seats`` may ask about (the browser keeps at most 60)."""
RoomId = Annotated[str, Field(min_length=1, max_length=64)]
SeatSecret = Annotated[str, Field(min_length=16, max_length=128)]


class HeldSeat(BaseModel):
    """A seat a client holds: its room and the secret the claim gave the client."""

    model_config = ConfigDict(extra="forbid", strict=True)
    room: RoomId
    secret: SeatSecret


class YourGamesAsk(BaseModel):
    """``POST /api/seats``: the seats this client holds (sent in the body, never in an
    address); the signed-in account's seats are added from the session cookie."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seats: list[HeldSeat] = Field(default_factory=list, max_length=MAX_HELD)


class YourGame(BaseModel):
    """A room where the caller holds a seat, as anyone may see it (no view, no token)."""

    room: str
    game: str
    title: str
    """The game's short title (``Persona VS``)."""
    status: str
    version: int
    seats: list[int]
    """The caller's seats in the room (through the secrets sent or the account)."""
    here: list[int]
    """Of those, the seats the secrets sent open (this browser plays them)."""
    to_move: int | None
    """The seat that decides now (null when the game is over)."""
    your_move: bool
    """The deciding seat is one of ``seats`` and a person (not a bot standing in) decides."""
    players: list[SeatInfo]
    """Every seat's public facts (``display_name``: who plays it), as ``GET /api/rooms/ID``."""
    result: str | None = None
    """A finished game's result in words (``over``'s ``result.text``), else null."""
    cooperative: bool
    """The seats play together (P5), not against each other."""
    hotseat: bool
    rated: bool
    created: float
    days_per_move: int | None = None
    """A correspondence room's days per move, else null."""
    hours_per_move: int | None = None
    """A correspondence room's hours per move, else null."""
    deadline: float | None = None
    """A correspondence game going on: when the seat to move loses on time (Unix time)."""


class YourGames(BaseModel):
    """The answer to ``POST /api/seats``: the caller's games, its moves first."""

    games: list[YourGame]
    unknown: list[int]
    """Indexes (into the request's ``seats``) of the secrets that open no seat: the room is
    gone or the seat moved to another device. Nothing else is said about those rooms."""
    player: str | None
    """The signed-in account's name, or null."""
