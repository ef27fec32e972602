"""Hints over the protocol: to the deciding seat only, from a worker, never applied.

That a hint reads only the seat's view is tested on ``velvet.bots.hints`` itself
(tests/bots); these tests cover the messages, the refusals and the room option.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import hello, send, sqlite_url
from tests.server.test_app import make_room, next_of

from velvet.bots.hints import Forecast, forecast, hints
from velvet.engine.core import State
from velvet.engine.errors import ConfigError
from velvet.games import BUILTIN, forecaster, get_game, has_forecast
from velvet.p5.spec import SPEC as P5_SPEC
from velvet.server.app import Settings, create_app
from velvet.server.hinting import HintPool, HintSettings
from velvet.server.rooms import HINT_TIME_CAP, hints_default
from velvet.vs.spec import SPEC as VS_SPEC


def _client(tmp_path: Path, **hint: Any) -> TestClient:
    settings = Settings(
        db=sqlite_url(tmp_path),
        bot_workers=0,
        rate=1000,
        http_rate=1000,
        hints=HintSettings(**{"budget": "30", "workers": 0, **hint}),
    )
    return TestClient(create_app(settings))


@pytest.fixture
def tiny(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose hints think 30 simulations and whose forecasts play one game."""
    with _client(tmp_path, forecast_games=1) as client:
        yield client


def test_a_hint_answers_the_deciding_seat_with_three_choices_of_its_legal_list(
    tiny: TestClient,
) -> None:
    room = make_room(tiny, game="p5")
    with (
        tiny.websocket_connect(f"/ws/{room['room']}") as ws,
        tiny.websocket_connect(f"/ws/{room['room']}") as watcher,
    ):
        send(ws, type="hello", token=room["invites"][0]["token"])
        welcome = ws.receive_json()
        assert welcome["hints"] is True and welcome["forecast"] is True
        state = ws.receive_json()
        hello(watcher, None)
        send(ws, type="hint", version=state["version"])
        answer = next_of(ws, "hint")
        send(watcher, type="ping")  # the spectator got no hint: its next message is the pong
        assert watcher.receive_json()["type"] == "pong"
    assert answer["version"] == state["version"] and answer["budget"] == "30"
    assert answer["seconds"] >= 0
    assert answer["bot"] == "easy"  # whose play the chances assume
    legal = {a["text"]: a["label"] for a in state["legal"]}
    assert len(answer["hints"]) == 3
    for hint in answer["hints"]:
        assert set(hint) == {
            "action",
            "label",
            "win",
            "margin",
            "visits",
            "reason",
            "value",
            "bot",
            "bot_is",
            "spread",
            "chance_margin",
        }
        assert hint["bot"] == "easy" and 0 <= hint["value"] <= 1
        assert hint["chance_margin"] >= hint["margin"]
        assert legal[hint["action"]] == hint["label"]  # a choice of the seat's own list
        assert 0 <= hint["win"] <= 1 and 0 <= hint["margin"] <= 1
        assert hint["visits"] >= 1 and hint["reason"]
    visits = [h["visits"] for h in answer["hints"]]
    assert visits == sorted(visits, reverse=True)  # best (most visited) first
    assert sum(visits) <= 30


def test_the_p5_forecast_gives_the_chance_with_its_interval(tiny: TestClient) -> None:
    room = make_room(tiny, game="p5")
    with tiny.websocket_connect(f"/ws/{room['room']}") as ws:
        state = hello(ws, room["invites"][0]["token"])
        send(ws, type="forecast", version=state["version"])
        outlook = next_of(ws, "forecast")
    assert outlook["version"] == 0 and outlook["games"] == 1 and outlook["bot"] == "easy"
    assert outlook["wins"] in (0, 1) and outlook["rate"] == outlook["wins"]
    assert 0 <= outlook["low"] <= outlook["rate"] <= outlook["high"] <= 1
    assert outlook["margin"] == pytest.approx((outlook["high"] - outlook["low"]) / 2, abs=1e-3)
    assert outlook["days"] == 28


def test_hints_are_refused_to_whoever_is_not_deciding(tiny: TestClient) -> None:
    room = make_room(tiny, game="vs", first="1", hints="on")
    t0, t1 = (i["token"] for i in room["invites"])
    with (
        tiny.websocket_connect(f"/ws/{room['room']}") as a,
        tiny.websocket_connect(f"/ws/{room['room']}") as b,
        tiny.websocket_connect(f"/ws/{room['room']}") as watcher,
    ):
        state = hello(a, t0)
        hello(b, t1)
        hello(watcher, None)
        assert state["to_move"] == 0
        send(b, type="hint", version=state["version"])
        refused = next_of(b, "error")
        send(watcher, type="hint", version=state["version"])
        assert next_of(watcher, "error")["code"] == "spectator"
        send(a, type="forecast", version=state["version"])
        no_forecast = next_of(a, "error")
        send(a, type="hint", version=state["version"])
        assert next_of(a, "hint")["version"] == state["version"]
    assert refused["code"] == "hint_not_your_turn"
    assert "whose decision it is; it is Player 1's" in refused["message"]
    assert no_forecast["code"] == "hint_no_forecast"  # Persona VS has no boss to beat


def test_hints_are_off_between_two_people_at_vs_unless_the_room_turns_them_on(
    tiny: TestClient,
) -> None:
    room = make_room(tiny, game="vs", first="1")  # two people: off by default
    with tiny.websocket_connect(f"/ws/{room['room']}") as ws:
        send(ws, type="hello", token=room["invites"][0]["token"])
        assert ws.receive_json()["hints"] is False
        state = ws.receive_json()
        send(ws, type="hint", version=state["version"])
        off = next_of(ws, "error")
    assert off["code"] == "hint_off" and "hints option is off" in off["message"]
    solo = make_room(tiny, game="p5", hints="off")
    with tiny.websocket_connect(f"/ws/{solo['room']}") as ws:
        state = hello(ws, solo["invites"][0]["token"])
        send(ws, type="forecast", version=state["version"])
        assert next_of(ws, "error")["code"] == "hint_off"
    bad = tiny.post("/api/rooms", json={"game": "p5", "hints": "always"})
    assert bad.status_code == 422 and bad.json()["message"].startswith("hints:")
    assert tiny.post("/api/rooms", json={"game": "vs", "hints": True}).status_code == 422


VS_WITH_FORECAST = dataclasses.replace(VS_SPEC, forecast=f"{__name__}:one_won_game")
P5_WITHOUT_FORECAST = dataclasses.replace(P5_SPEC, forecast=None)


def one_won_game(
    state: State[Any],
    seat: int,
    games: int,
    bot: str,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Forecast:
    """A stand-in forecast: one game played, won (so the server's answer is recognisable)."""
    return Forecast(wins=1, games=1, low=0.2, high=1.0, bot=bot, days=7)


def test_a_forecast_is_offered_where_the_games_spec_names_one(
    tiny: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server asks the spec's ``forecast`` hook, not the game's name."""
    monkeypatch.setitem(BUILTIN, "vs", f"{__name__}:VS_WITH_FORECAST")
    monkeypatch.setitem(BUILTIN, "p5", f"{__name__}:P5_WITHOUT_FORECAST")
    vs = make_room(tiny, game="vs", seats=["human", "random"], first="1")
    with tiny.websocket_connect(f"/ws/{vs['room']}") as ws:
        send(ws, type="hello", token=vs["invites"][0]["token"])
        assert ws.receive_json()["forecast"] is True
        state = ws.receive_json()
        send(ws, type="forecast", version=state["version"])
        outlook = next_of(ws, "forecast")
    assert (outlook["wins"], outlook["games"], outlook["rate"]) == (1, 1, 1.0)
    assert outlook["bot"] == "easy" and outlook["days"] == 7
    p5 = make_room(tiny, game="p5")
    with tiny.websocket_connect(f"/ws/{p5['room']}") as ws:
        send(ws, type="hello", token=p5["invites"][0]["token"])
        assert ws.receive_json()["forecast"] is False
        state = ws.receive_json()
        send(ws, type="forecast", version=state["version"])
        refused = next_of(ws, "error")
    assert refused["code"] == "hint_no_forecast"
    assert refused["message"].startswith("the game 'p5' offers no forecast")


def test_the_forecast_hook_is_p5s_alone_among_the_built_in_games() -> None:
    assert P5_SPEC.forecast == "velvet.bots.hints:forecast"
    assert forecaster("p5") is forecast
    assert VS_SPEC.forecast is None and forecaster("vs") is None and not has_forecast("vs")
    assert forecaster("nonesuch") is None


def test_the_default_is_on_unless_two_people_play_vs() -> None:
    assert hints_default("vs", ["human", "hard"], None) is True
    assert hints_default("vs", ["human", "human"], None) is False
    assert hints_default("p5", ["human", "human"], None) is True  # P5 is played together
    assert hints_default("p5", ["human"], None) is True
    assert hints_default("vs", ["human", "human"], "on") is True
    assert hints_default("p5", ["human"], "off") is False


def test_a_hint_for_an_old_version_is_refused_and_one_overtaken_by_a_move_is_dropped(
    tmp_path: Path,
) -> None:
    with _client(tmp_path, budget="1.5s") as client:  # long enough for a move meanwhile
        room = make_room(client, game="p5")
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            state = hello(ws, room["invites"][0]["token"])
            send(ws, type="hint", version=state["version"] + 1)
            early = next_of(ws, "error")
            send(ws, type="hint", version=state["version"])
            send(ws, type="move", version=state["version"], action=state["legal"][0]["text"])
            moved = next_of(ws, "state")
            late = next_of(ws, "error")
    assert early["code"] == "hint_stale" and "the game is at 0" in early["message"]
    assert moved["version"] == 1 and moved["acked"] == state["legal"][0]["text"]
    assert late["code"] == "hint_stale"
    assert "moved on (to version 1)" in late["message"] and "ask again" in late["message"]


def test_one_hint_at_a_time_per_connection(tmp_path: Path) -> None:
    with _client(tmp_path, budget="0.8s") as client:
        room = make_room(client, game="vs", seats=["human", "random"], first="1")
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            state = hello(ws, room["invites"][0]["token"])
            send(ws, type="hint", version=state["version"])
            send(ws, type="hint", version=state["version"])
            busy = next_of(ws, "error")
            answer = next_of(ws, "hint")
            send(ws, type="hint", version=state["version"])  # free again once answered
            again = next_of(ws, "hint")
    assert busy["code"] == "hint_busy"
    assert busy["message"] == "a hint is already being worked out for you; wait for it"
    assert len(answer["hints"]) == len(again["hints"]) >= 1


def test_bad_hint_settings_fail_at_start() -> None:
    with pytest.raises(ConfigError, match="bad budget"):
        HintSettings(budget="lots")
    with pytest.raises(ConfigError, match="forecast seconds"):
        HintSettings(forecast_seconds=0)
    with pytest.raises(ConfigError):
        HintSettings(forecast_bot="nobody")


def test_a_move_in_another_room_is_not_held_up_by_a_hint(tmp_path: Path) -> None:
    """The search runs in a worker process: another room's move is answered meanwhile."""
    with _client(tmp_path, budget="3s", workers=1) as client:
        thinker = make_room(client, game="p5")
        other = make_room(client, game="p5")
        with (
            client.websocket_connect(f"/ws/{thinker['room']}") as a,
            client.websocket_connect(f"/ws/{other['room']}") as b,
        ):
            state_a = hello(a, thinker["invites"][0]["token"])
            state_b = hello(b, other["invites"][0]["token"])
            # a first hint, so the worker process has started and imported the search
            send(a, type="hint", version=state_a["version"])
            next_of(a, "hint")
            send(a, type="hint", version=state_a["version"])
            asked = time.perf_counter()
            time.sleep(0.3)  # the search is under way
            waits = []
            for _ in range(3):
                started = time.perf_counter()
                send(b, type="move", version=state_b["version"], action=state_b["legal"][0]["text"])
                state_b = next_of(b, "state")
                waits.append(time.perf_counter() - started)
            thought = time.perf_counter() - asked
            answer = next_of(a, "hint")
            hinted = time.perf_counter() - asked
    print(f"moves in another room during a 3 s hint: {[round(w * 1000) for w in waits]} ms")
    assert thought < 2.5  # the three moves came back while the hint was still thinking
    assert hinted >= 2.5 and len(answer["hints"]) == 3
    assert max(waits) < 0.5


def test_velvet_serve_refuses_a_bad_hint_budget_before_it_starts() -> None:
    from click.testing import CliRunner

    from velvet.cli import main

    bad = CliRunner().invoke(main, ["serve", "--hint-budget", "soon", "--no-browser"])
    assert bad.exit_code == 2
    assert "--hint-budget" in bad.output and "bad budget 'soon'" in bad.output
    bad = CliRunner().invoke(main, ["serve", "--forecast-seconds", "0", "--no-browser"])
    assert bad.exit_code == 2 and "--forecast-seconds" in bad.output


def test_a_cancelled_hint_frees_its_slots_at_once_and_its_answer_never_comes(
    tmp_path: Path,
) -> None:
    # the forecasts after the cancel play the greedy bot: a search game each (the default bot)
    # takes a minute on a busy machine, and this test times the slot, not the forecast
    hint = {"budget": "60s", "limit": 1, "forecast_games": 1, "forecast_bot": "greedy"}
    with _client(tmp_path, **hint) as client:
        room = make_room(client, game="p5")
        other = make_room(client, game="p5")
        with (
            client.websocket_connect(f"/ws/{room['room']}") as ws,
            client.websocket_connect(f"/ws/{other['room']}") as second,
        ):
            state = hello(ws, room["invites"][0]["token"])
            hello(second, other["invites"][0]["token"])
            send(ws, type="hint_cancel")
            nothing = next_of(ws, "error")
            send(ws, type="hint", version=state["version"])
            asked = time.perf_counter()
            send(ws, type="hint_cancel")
            cancelled = next_of(ws, "hint_cancelled")
            send(second, type="forecast", version=0)  # the server's one slot is free again
            elsewhere = next_of(second, "forecast")
            send(ws, type="forecast", version=state["version"])  # and this socket's
            outlook = next_of(ws, "forecast")
            took = time.perf_counter() - asked
            send(ws, type="ping")
            assert ws.receive_json()["type"] == "pong"  # no hint came in between, nor after
    assert nothing["code"] == "hint_none" and "no hint or forecast" in nothing["message"]
    assert cancelled == {"v": 1, "type": "hint_cancelled", "kind": "hint", "version": 0}
    assert elsewhere["games"] == outlook["games"] == 1
    assert took < 40  # neither waited for the 60-second search


def test_a_cancelled_search_stops_and_leaves_its_worker_process_free() -> None:
    """Cancelling the task awaiting a hint ends the search in the worker process: the next
    job on the one worker starts at once, not when the 30-second search would have ended."""
    game = get_game("p5")
    state = game.new_state(game.default_config(), 3)
    pool = HintPool(HintSettings(budget="30s", workers=1))

    async def run() -> tuple[float, dict[str, Any]]:
        await pool.hint(state, 0, budget="5")  # the worker process starts and loads
        long = asyncio.create_task(pool.hint(state, 0))
        await asyncio.sleep(1.0)  # the search is under way in the worker
        long.cancel()
        with pytest.raises(asyncio.CancelledError):
            await long
        started = time.perf_counter()
        answer = await pool.hint(state, 0, budget="5")
        return time.perf_counter() - started, answer

    try:
        waited, answer = asyncio.run(run())
    finally:
        pool.close()
    print(f"the next hint after a cancelled 30 s one took {waited:.2f} s")
    assert pool.stopped == 1 and len(answer["hints"]) >= 1
    assert waited < 15  # the cancelled search did not run on for its 30 s


def test_a_stopped_search_ends_early() -> None:
    game = get_game("p5")
    state = game.new_state(game.default_config(), 3)
    asked = 0

    def after_ten() -> bool:
        nonlocal asked
        asked += 1
        return asked >= 10

    found = hints(state, 0, 10_000, stop=after_ten)
    assert sum(h.visits for h in found) <= 11 and asked == 10
    # stopped in the middle of its first game: no game counts, and nothing is known
    nothing = forecast(state, 0, games=5, stop=lambda: True)
    assert (nothing.games, nothing.low, nothing.high) == (0, 0.0, 1.0)


def test_a_seats_hint_holds_and_extends_its_turn_timer_and_the_room_is_told(
    tmp_path: Path,
) -> None:
    """A 4-second hint asked 2 s into a decision of 5 s: the timer does not play for the seat
    while the hint is worked out (its deadline passes meanwhile); the deadline moves by the
    hint's time, told to every socket, and the bot plays when the 3 s left at the ask have
    passed again."""
    with _client(tmp_path, budget="4s") as client:
        room = make_room(client, game="p5", turn_timer=5, takeover="random")
        with (
            client.websocket_connect(f"/ws/{room['room']}") as ws,
            client.websocket_connect(f"/ws/{room['room']}") as watcher,
        ):
            state = hello(ws, room["invites"][0]["token"])
            hello(watcher, None)
            started = time.perf_counter()
            time.sleep(2)
            send(ws, type="hint", version=state["version"])
            got = {m["type"]: m for m in (ws.receive_json(), ws.receive_json())}
            answer, told = got["hint"], got["timer"]  # the timer did not play meanwhile
            seen = next_of(watcher, "timer")
            moved = next_of(ws, "state")
            took = time.perf_counter() - started
    assert answer["version"] == 0 and len(answer["hints"]) == 3
    assert told == seen and (told["version"], told["seat"]) == (0, 0)
    assert 3.9 <= told["added"] <= 5.0 * HINT_TIME_CAP
    assert 1.5 <= told["left"] <= 3.0  # the time left when the hint was asked
    assert moved["version"] == 1 and not moved["ack"]  # then the timer's bot played
    assert took >= 2 + told["added"] + told["left"] - 0.3


def test_the_hint_time_a_decision_gets_is_capped_at_its_turn_timer(tmp_path: Path) -> None:
    with _client(tmp_path, budget="4s") as client:
        room = make_room(client, game="p5", turn_timer=5, takeover="random")
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            state = hello(ws, room["invites"][0]["token"])
            added = []
            for _ in range(2):
                send(ws, type="hint", version=state["version"])
                got = {m["type"]: m for m in (ws.receive_json(), ws.receive_json())}
                assert set(got) == {"hint", "timer"}
                added.append(got["timer"]["added"])
            send(ws, type="hint", version=state["version"])  # no time left to add
            third = next_of(ws, "state")
    assert added[0] >= 3.5 and added[0] + added[1] == pytest.approx(5.0, abs=0.02)
    assert third["version"] == 1  # the third hint could not hold the timer past the cap


def test_the_hint_workers_start_when_a_seat_that_may_ask_joins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """So the first hint need not wait for the processes to start and load the search."""
    started: list[bool] = []
    warm = HintPool.warm

    def recording(pool: HintPool) -> bool:
        made = warm(pool)
        started.append(made and pool._pool is not None)
        return made

    monkeypatch.setattr(HintPool, "warm", recording)
    with _client(tmp_path, budget="30", workers=1) as client:
        versus = make_room(client, game="vs")  # two people at VS: hints are off
        with client.websocket_connect(f"/ws/{versus['room']}") as ws:
            hello(ws, versus["invites"][0]["token"])
        assert started == []
        watched = make_room(client, game="p5")
        with client.websocket_connect(f"/ws/{watched['room']}") as ws:
            hello(ws, None)  # a spectator asks no hints
        assert started == []
        with client.websocket_connect(f"/ws/{watched['room']}") as ws:
            state = hello(ws, watched["invites"][0]["token"])
            assert started == [True]  # the seat's arrival started the workers
            send(ws, type="hint", version=state["version"])
            assert len(next_of(ws, "hint")["hints"]) == 3
        assert started == [True, False]  # the hint found them running
