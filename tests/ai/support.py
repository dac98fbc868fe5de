"""Helpers for the computer player tests: hand-built positions and seeded games."""

from __future__ import annotations

import random

import ai
import ai.pyramids
from rules import pyramids
from rules.pyramids.state import GameState

EW = "european_war"
WW = "world_war_5"
SMALL_BUDGET = 12
"""Hard's search iterations in the tests (small, to keep the suite fast)."""


def decide(
    g: GameState, seat: int, level: str, seed: int = 0, iterations: int | None = SMALL_BUDGET
) -> pyramids.Action:
    """``level``'s decision for ``seat`` in ``g``, seen only through its view."""
    return ai.pyramids.choose(
        pyramids.view_for(g, seat), level, seed, iterations=iterations if level == "hard" else None
    )


def play_game(
    variant: str,
    levels: list[str],
    seed: int,
    options: pyramids.Options | None = None,
    iterations: int = SMALL_BUDGET,
) -> GameState:
    """Play a whole seeded game between ``levels``; every decision is checked legal.

    When several players decide at once (a diplomacy window) a random one of them
    answers first, as in a real channel.
    """
    game, _ = pyramids.new_game(variant, [None] * len(levels), seed, options)
    pick = random.Random(seed)
    step = 0
    while not game.over:
        deciders = game.deciders()
        decision = deciders[pick.randrange(len(deciders))]
        seat = decision.seat
        action = ai.pyramids.choose(
            pyramids.view_for(game, seat),
            levels[seat],
            seed * 7919 + step,
            iterations=iterations if levels[seat] == "hard" else None,
        )
        assert action in game.legal_actions(seat), (decision, action)
        game.apply(seat, action)
        step += 1
    return game
