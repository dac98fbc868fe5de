"""The hard level: each decision of a turn, a diplomacy window or a retreat is a
lookahead over the normal level's play (:mod:`ai.pyramids.lookahead`), with the
evaluation weights learnt from self-play (:mod:`ai.pyramids.learned`); the duel and the
rest go to the tree search (:mod:`ai.pyramids.ismcts`).

In a diplomacy window an attack that would end the game is stopped (or let pass) as the
normal level does; any other is stopped only when following both answers shows a clear
gain (:data:`STOP_MARGIN`).

The budget is counted in iterations, as the search's: the lookahead follows
``iterations // ITERATIONS_PER_DEAL`` determinizations (at least one) of every candidate
with two players in, proportionally fewer with more (a round of more players costs
more to follow).
"""

from __future__ import annotations

import random

from rules.pyramids import Action, LetPass, StopAttack
from rules.pyramids.state import DIPLOMACY, RETREAT, TURN

from .context import Context
from .evaluate import DEFAULT_WEIGHTS, Weights
from .ismcts import search
from .learned import LEARNED
from .lookahead import compare, followed, lookahead
from .normal import battle_ends, diplomacy_choice, spy_rule
from .sensible import sensible

WIDTH = 6
"""Turn actions followed: the normal level's best estimates."""
ITERATIONS_PER_DEAL = 36
"""Iterations of the budget one determinization of the lookahead stands for with two
players (the default 300 make 8; with four players, 4)."""
STOP_MARGIN = 0.03
"""A K (or an A) is spent on an attack that would not end the game only when stopping it
comes out better than letting it pass by this much of the viewer's winning chance: the
few deals followed are noisy, the learnt weights price a stop card at next to nothing,
and every stop keeps a game going."""


def hard_weights(variant: str) -> Weights:
    """The evaluation weights of the hard level in ``variant``."""
    return LEARNED.get(variant, DEFAULT_WEIGHTS)


def deals_for(iterations: int, players: int = 2) -> int:
    """Determinizations the lookahead follows for a budget of ``iterations`` with
    ``players`` still in the game."""
    return max(1, 2 * iterations // (ITERATIONS_PER_DEAL * max(2, players)))


def hard_action(
    ctx: Context, rng: random.Random, iterations: int, deadline: float | None = None
) -> Action:
    """The hard level's decision for the viewer of ``ctx`` (``deadline``: a
    ``time.monotonic()`` value after which it settles for what it has weighed)."""
    g, me = ctx.g, ctx.me
    legal = g.legal_actions(me)
    if len(legal) == 1:
        return legal[0]
    deals = deals_for(iterations, sum(1 for out in g.eliminated if not out))
    if g.phase == TURN:
        spy = spy_rule(ctx)
        if spy is not None:
            return spy
        return lookahead(ctx, rng, WIDTH, deals, deadline)
    if g.phase in (DIPLOMACY, RETREAT):
        acts = sensible(ctx, legal)
        if len(acts) == 1:
            return acts[0]
        if g.phase == DIPLOMACY:
            return _diplomacy(ctx, acts, rng, deals, deadline)
        return compare(ctx, acts, rng, deals, deadline)
    return search(ctx, rng, iterations, deadline)


def _diplomacy(
    ctx: Context, acts: list[Action], rng: random.Random, deals: int, deadline: float | None
) -> Action:
    """The answer to an attack (``acts``: the sensible ones, a stop among them): as the
    normal level if the attack would end the game, else a stop only for a clear gain."""
    won, _lost = battle_ends(ctx)
    if won.over:
        return diplomacy_choice(ctx)
    stop = next(a for a in acts if isinstance(a, StopAttack))
    let_pass, stopped = followed(ctx, [LetPass(), stop], rng, deals, deadline)
    return stop if stopped > let_pass + STOP_MARGIN else LetPass()
