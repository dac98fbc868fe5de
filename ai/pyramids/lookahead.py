"""The hard level's turn: each promising action followed over the next turns of every
player, the others (and its own duel and retreat) answering as the normal level would.

Candidates are the best of the normal level's estimates (:func:`ai.pyramids.normal.
turn_values`, wasteful actions left out). Each is played on the same few
determinizations of the hidden cards (common random numbers: the candidates are compared
on equal deals), every decision after it taken by the normal level from the deciding
seat's own knowledge there, until the searching player's next turn begins (with two
players, the turn after: :func:`horizon`); the position is then valued by the
evaluation. The candidate with the best mean value wins (the
normal level's estimate breaks near ties). With both piles empty, a pass is taken only
when every other action looks clearly worse (:data:`STILL_MARGIN`).
"""

from __future__ import annotations

import random
import time

from rules.pyramids import Action, GameState, Pass, Spy
from rules.pyramids.state import TURN

from .context import Context
from .evaluate import DEFAULT_WEIGHTS, utilities
from .normal import normal_action, turn_values
from .sensible import sensible

MAX_STEPS = 80
"""Decisions followed per round at most (a round is far fewer)."""
STILL_MARGIN = 0.05
"""How much worse (in win share) the best action may look than a pass with nothing left
to draw, and still be taken (four computer players once passed from round 25 to the round
limit with all 52 cards in their hands)."""
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
    followed = [acts[i] for i in order]
    totals = _followed(ctx, followed, rng, deals, deadline)
    score = [totals[k] + PRIOR * prior[order[k]] for k in range(len(order))]
    return _best(g0, followed, score)


def _best(g: GameState, acts: list[Action], score: list[float]) -> Action:
    """The best-scored of ``acts`` — but with both piles empty, the best action that is
    not a pass unless it scores :data:`STILL_MARGIN` less: a pass then gains nothing, not
    even a card next turn, and a table where everyone passes sits still until the round
    limit makes it a draw."""
    best = max(range(len(acts)), key=lambda k: score[k])
    if isinstance(acts[best], Pass) and not g.pile and not g.discard:
        acting = [k for k in range(len(acts)) if not isinstance(acts[k], Pass)]
        if acting:
            alt = max(acting, key=lambda k: score[k])
            if score[alt] >= score[best] - STILL_MARGIN:
                return acts[alt]
    return acts[best]


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
