"""The hard level: each decision of a turn, a diplomacy window or a retreat is a
lookahead over the normal level's play (:mod:`ai.pyramids.lookahead`), with the
evaluation weights learnt from self-play (:mod:`ai.pyramids.learned`); the duel and the
rest go to the tree search (:mod:`ai.pyramids.ismcts`).

A turn that can end the game for the player presses for it first
(:mod:`ai.pyramids.pressing`): an unstoppable winning move is made, and an attack that
would win is declared every turn its duel odds are fair (and, stopped, the K taken back
by arming when it would be drawn). In a diplomacy window the hard level answers as the
normal level does: a K stops only an attack that would end the game without the player
among the winners.

The budget is counted in iterations, as the search's: the lookahead follows
``iterations // ITERATIONS_PER_DEAL`` determinizations (at least one) of every candidate
with two players in, proportionally fewer with more (a round of more players costs
more to follow).
"""

from __future__ import annotations

import random

from rules.pyramids import Action
from rules.pyramids.state import DIPLOMACY, RETREAT, TURN

from .context import Context
from .evaluate import DEFAULT_WEIGHTS, Weights
from .ismcts import search
from .learned import LEARNED
from .lookahead import compare, lookahead
from .normal import diplomacy_choice, spy_rule
from .pressing import retake_stop, winning_attack, winning_move
from .sensible import sensible

WIDTH = 6
"""Turn actions followed: the normal level's best estimates."""
ITERATIONS_PER_DEAL = 36
"""Iterations of the budget one determinization of the lookahead stands for with two
players (the default 300 make 8; with four players, 4)."""


def hard_weights(variant: str, players: int) -> Weights:
    """The evaluation weights of the hard level in ``variant`` at a table of ``players``:
    those learnt from two-player games alone when two play and there are such, else
    those learnt from the variant's games."""
    if players == 2 and f"{variant}/2" in LEARNED:
        return LEARNED[f"{variant}/2"]
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
        press = winning_move(ctx, legal) or winning_attack(ctx, legal) or retake_stop(ctx, legal)
        if press is not None:
            return press
        return lookahead(ctx, rng, WIDTH, deals, deadline)
    if g.phase == DIPLOMACY:
        return diplomacy_choice(ctx)
    if g.phase == RETREAT:
        acts = sensible(ctx, legal)
        if len(acts) == 1:
            return acts[0]
        return compare(ctx, acts, rng, deals, deadline)
    return search(ctx, rng, iterations, deadline)
