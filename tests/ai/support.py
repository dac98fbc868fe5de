"""Helpers for the computer player tests: hand-built positions and seeded games."""

from __future__ import annotations

import random

import ai
import rules
from rules.cards import parse_card
from rules.state import TURN, GameState

EW = "european_war"
WW = "world_war_5"
BRIT, FRAN, CENT, RUSS, OTTO = (
    "britain_allies", "france_allies", "central_powers", "russian_empire", "ottoman_empire",
)
SMALL_BUDGET = 12
"""Hard's search iterations in the tests (small, to keep the suite fast)."""


def cards(*names: str) -> list[int]:
    """Cards from short names: cards('KH', '10s', 'AD')."""
    return [parse_card(n) for n in names]


def position(
    powers: list[str],
    pieces: dict[str, tuple[int, int]],
    hands: list[list[int]] | None = None,
    current: int = 0,
    variant: str = EW,
    options: rules.Options | None = None,
) -> GameState:
    """A game in ``current``'s turn (its draw already taken): seats in the order of
    ``powers``, ``pieces`` {field: (seat, size)}, ``hands`` per seat, every other card
    in the pile (European War)."""
    g, _ = rules.new_game(variant, list(powers), seed=11, options=options, arranged=True)
    g.setup_queue = []
    g.phase = TURN
    g.first = 0
    g.current = current
    g.turn = 1
    g.round = 1
    g.pieces = dict(pieces)
    if variant == EW:
        g.hands = [list(h) for h in (hands or [[] for _ in powers])]
        used = {c for h in g.hands for c in h}
        g.pile = [c for c in range(52) if c not in used]
        g.discard = []
    return g


def decide(g: GameState, seat: int, level: str, seed: int = 0,
           iterations: int | None = SMALL_BUDGET) -> rules.Action:
    """``level``'s decision for ``seat`` in ``g``, seen only through its view."""
    return ai.choose(rules.view_for(g, seat), level, seed,
                     iterations=iterations if level == "hard" else None)


def play_game(
    variant: str, levels: list[str], seed: int, options: rules.Options | None = None,
    iterations: int = SMALL_BUDGET,
) -> GameState:
    """Play a whole seeded game between ``levels``; every decision is checked legal.

    When several players decide at once (a diplomacy window) a random one of them
    answers first, as in a real channel.
    """
    game, _ = rules.new_game(variant, [None] * len(levels), seed, options)
    pick = random.Random(seed)
    step = 0
    while not game.over:
        deciders = game.deciders()
        decision = deciders[pick.randrange(len(deciders))]
        seat = decision.seat
        action = ai.choose(
            rules.view_for(game, seat), levels[seat], seed * 7919 + step,
            iterations=iterations if levels[seat] == "hard" else None,
        )
        assert action in game.legal_actions(seat), (decision, action)
        game.apply(seat, action)
        step += 1
    return game
