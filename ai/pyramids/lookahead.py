"""The hard level's turn: each promising action followed over the next turns of every
player, the others (and its own duel and retreat) answering as the normal level would.

Candidates are the best of the normal level's estimates (:func:`ai.pyramids.normal.
turn_values`, wasteful actions left out). Each is played on the same few
determinizations of the hidden cards (common random numbers: the candidates are compared
on equal deals), every decision after it taken by the normal level from the deciding
seat's own knowledge there, until the searching player's next turn begins (with two
players, the turn after: :func:`horizon`); the position is then valued by the
evaluation. The candidate with the best mean value wins (the
normal level's estimate breaks near ties).
"""

from __future__ import annotations

import random
import time

from rules.pyramids import Action, GameState, Spy
from rules.pyramids.state import TURN

from .context import Context
from .evaluate import DEFAULT_WEIGHTS, utilities
from .normal import normal_action, turn_values
from .sensible import sensible

MAX_STEPS = 80
"""Decisions followed per round at most (a round is far fewer)."""
PRIOR = 0.25
"""How much of the normal level's own estimate goes into a candidate's value."""


def horizon(g: GameState) -> int:
    """Rounds a candidate is followed: two with two players in, one with more (a round
    of four players costs as much as two of two)."""
    return 2 if sum(1 for out in g.eliminated if not out) <= 2 else 1


def lookahead(
    ctx: Context,
    rng: random.Random,
    width: int,
    deals: int,
    deadline: float | None = None,
) -> Action:
    """The viewer's turn action: the best of ``width`` candidates followed on ``deals``
    determinizations (fewer if ``deadline``, a ``time.monotonic()`` value, passes)."""
    g0, me = ctx.g, ctx.me
    acts = [a for a in sensible(ctx, g0.legal_actions(me)) if not isinstance(a, Spy)]
    prior = turn_values(ctx, acts)
    order = sorted(range(len(acts)), key=lambda i: -prior[i])[:width]
    if len(order) == 1:
        return acts[order[0]]
    totals = _followed(ctx, [acts[i] for i in order], rng, deals, deadline)
    best = max(range(len(order)), key=lambda k: totals[k] + PRIOR * prior[order[k]])
    return acts[order[best]]


def compare(
    ctx: Context, acts: list[Action], rng: random.Random, deals: int, deadline: float | None
) -> Action:
    """The best of ``acts`` (a decision out of the viewer's turn: a diplomacy window, a
    retreat), each followed on the same ``deals`` determinizations as in
    :func:`lookahead`; the normal level's own choice breaks ties."""
    favourite = normal_action(ctx)
    totals = _followed(ctx, acts, rng, deals, deadline)
    best = max(range(len(acts)), key=lambda i: (totals[i], acts[i] == favourite))
    return acts[best]


def _followed(
    ctx: Context, acts: list[Action], rng: random.Random, deals: int, deadline: float | None
) -> list[float]:
    """The mean value of each of ``acts`` for the viewer, each followed (:func:`follow`)
    on the same determinizations: ``deals`` of them, fewer if ``deadline`` passes."""
    g0, me = ctx.g, ctx.me
    det = ctx.det
    assert det is not None
    totals = [0.0] * len(acts)
    done = 0
    while done < deals and not (done and deadline is not None and time.monotonic() > deadline):
        deal = det.sample(rng)
        for i, a in enumerate(acts):
            h = deal.copy()
            h._apply_unchecked(me, a)
            follow(h, me, g0.turn, horizon(g0))
            totals[i] += utilities(h, me, ctx.weights)[me]
        done += 1
    return [t / done for t in totals]


def follow(g: GameState, me: int, turn0: int, rounds: int = 1) -> None:
    """Play ``g`` on with the normal level (its own weights) for every seat until
    ``me``'s turn has begun ``rounds`` times after turn ``turn0`` (or the game ends)."""
    last = turn0
    for _ in range(MAX_STEPS * rounds):
        if g.over:
            return
        if g.phase == TURN and g.current == me and g.turn != last:
            last = g.turn
            rounds -= 1
            if rounds <= 0:
                return
        seat = g.deciders()[0].seat
        action = normal_action(Context.from_state(g, seat, DEFAULT_WEIGHTS))
        g._apply_unchecked(seat, action)
