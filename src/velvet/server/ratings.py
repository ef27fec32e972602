"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2022 revision).

Each rated game is one rating period for its two players. Hand written rather than taken
from PyPI: the one maintained-looking package, ``glicko2`` 2.1.0 (a 2009 port), puts the
rating μ where step 5's function f has the deviation φ (f's numerator and denominator use
φ², the port uses μ²). Glickman's example starts at μ = 0, where both agree, so the port
passes the example and drifts for everyone rated away from 1500 (2100, RD 60 against the
example's opponents: its volatility 0.060004, Glickman's steps 0.060028).
``tests/server/test_ratings.py`` checks this module against the paper's example and that
the volatility it returns solves step 5's equation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from velvet.games import game_names, get_spec

SCALE = 173.7178
"""Glicko-2's scale: rating = 1500 + 173.7178 μ, RD = 173.7178 φ."""
TAU = 0.5
"""The system constant: how much the volatility may change (the paper suggests 0.3–1.2)."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility iteration (step 5)."""
START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
PROVISIONAL_RD = 110.0
"""A rating whose RD is above this is shown as provisional ("?"), as lichess does."""

BOT_RATINGS: dict[str, dict[str, float]] = {
    name: dict(get_spec(name).bot_ratings) for name in game_names()
}
"""The fixed rating of each bot level, by game, on the players' scale: each game's
``GameSpec.bot_ratings`` (measured in the arena, with the commands that measured them
beside them in the game's spec.py; docs/web.md, "Bot ratings"). A level left out is
shown to nobody and never offered by the quick-pair queue."""
BOT_ANCHOR: dict[str, str] = {
    name: anchor for name in game_names() if (anchor := get_spec(name).bot_anchor)
}
"""The level each game's bot ratings are anchored at (rated 1500 by convention)."""


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOL

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period: ``games`` holds each opponent's rating
    (as it was before the period) and ``player``'s score against them (1, 0.5 or 0). No
    games: only the deviation grows (step 6)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    if not games:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    opponents = [((o.rating - START_RATING) / SCALE, o.rd / SCALE, score) for o, score in games]
    # step 3: the estimated variance v; step 4: the estimated improvement delta
    v = 1.0 / sum(_g(p) ** 2 * _e(mu, m, p) * (1.0 - _e(mu, m, p)) for m, p, _ in opponents)
    delta = v * sum(_g(p) * (s - _e(mu, m, p)) for m, p, s in opponents)
    # step 5: the new volatility (the Illinois algorithm)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    # steps 6-8: the new deviation and rating, back on the Glicko scale
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * sum(_g(p) * (s - _e(mu, m, p)) for m, p, s in opponents)
    return Rating(START_RATING + SCALE * mu_new, SCALE * phi_new, sigma_new)


def rate_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (``first_score``: 1, 0.5, 0)."""
    return (
        update(first, [(second, first_score)]),
        update(second, [(first, 1.0 - first_score)]),
    )
