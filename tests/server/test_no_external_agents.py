"""A server room never runs an external agent: ``velvet arena`` takes ``module:Class``
and ``cmd:PROGRAM`` bots (velvet.bots.external, run on the arena's own machine by its
user), but a room's seats and takeover come from strangers' requests, so a bot named
there must be one of the registry's. Nothing is imported or run, nothing is stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import sqlite_url

from velvet.server.app import Settings, create_app

SPECS = [
    "cmd:touch {marker}",
    'cmd:python3 -c \'open("{marker}", "w")\'',
    "examples.bench_agent:RandomAgent",
    "os:system",
]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("where", ["seats", "takeover"])
def test_a_room_refuses_an_external_agent_and_runs_nothing(
    tmp_path: Path, spec: str, where: str
) -> None:
    marker = tmp_path / "ran"
    named = spec.format(marker=marker)[:40]  # a bot spec is at most 40 characters
    body: dict[str, object] = {"game": "vs", "seats": ["human", "greedy"]}
    if where == "seats":
        body["seats"] = ["human", named]
    else:
        body["takeover"] = named
    settings = Settings(db=sqlite_url(tmp_path), bot_workers=0)
    with TestClient(create_app(settings)) as client:
        answer = client.post("/api/rooms", json=body)
        listed = client.get("/api/rooms").json()
    assert answer.status_code == 400, answer.text
    problem = answer.json()
    assert problem["error"] == "bad_options" and "unknown bot" in problem["message"]
    assert problem["option"] == where
    assert not marker.exists()
    assert listed == []  # no room was made
