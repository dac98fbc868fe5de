"""The one entry point the game service calls: :func:`choose`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.pyramids import Action, View

from ..players import HINT_LEVEL, Hint
from .context import Context
from .easy import easy_action
from .evaluate import DEFAULT_WEIGHTS
from .explain import explain
from .hard import hard_action, hard_weights
from .normal import normal_action

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The computer players' levels, weakest first."""

DEFAULT_ITERATIONS: dict[str, int] = {"easy": 0, "normal": 0, "hard": 300}
"""Search iterations per decision (only the hard level searches)."""


def choose(
    view: View,
    level: str,
    seed: int,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
) -> Action:
    """Decide for the computer player whose view this is.

    Args:
        view: ``rules.view_for(game, seat)`` for the deciding computer seat — the only
            thing the decision depends on (besides the arguments below).
        level: ``"easy"``, ``"normal"`` or ``"hard"``.
        seed: makes the decision reproducible.
        iterations: overrides the level's search budget (:data:`DEFAULT_ITERATIONS`).
        deadline: a ``time.monotonic()`` value after which the hard search returns its
            best action so far (the caller's wall-clock cap). With ``None`` the
            decision is fully determined by the other arguments.

    Returns:
        One of the seat's legal actions.

    Raises:
        ValueError: unknown level, a spectator's view, or a seat that need not decide.
    """
    return _decide(view, level, seed, iterations, deadline)[1]


def hint(
    view: View,
    seed: int,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
) -> Hint:
    """The hard level's choice for the seat whose view this is, with one or two
    sentences why (:func:`ai.pyramids.explain.explain`); arguments as for
    :func:`choose`.

    Raises:
        ValueError: a spectator's view, or a seat that need not decide.
    """
    ctx, action = _decide(view, HINT_LEVEL, seed, iterations, deadline)
    return Hint(action, explain(ctx, action))


def _decide(
    view: View, level: str, seed: int, iterations: int | None, deadline: float | None
) -> tuple[Context, Action]:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    if view.viewer is None or view.decision_for(view.viewer) is None or view.over:
        raise ValueError("this view's seat has no decision to make")
    rng = random.Random(
        f"{seed}/{view.turn}/{view.phase}/{len(view.discard)}/{view.pile_size}/{level}"
    )
    weights = hard_weights(view.variant, len(view.seats)) if level == "hard" else DEFAULT_WEIGHTS
    ctx = Context(view, rng, weights)
    if level == "easy":
        action = easy_action(ctx.g, ctx.me, rng)
    elif level == "normal":
        action = normal_action(ctx)
    else:
        budget = DEFAULT_ITERATIONS["hard"] if iterations is None else max(1, iterations)
        action = hard_action(ctx, rng, budget, deadline)
    legal = ctx.g.legal_actions(ctx.me)
    if action not in legal:  # a safety net: never hand the service an illegal action
        raise AssertionError(f"computer chose an illegal action {action!r}")
    return ctx, action


class PyramidPlayer:
    """The pyramid games' computer players (easy, normal, hard) as a registered player,
    and their adviser (hints with reasons)."""

    def choose(
        self,
        view: Any,
        legal: Sequence[Any],
        level: str,
        seed: int,
        *,
        deadline: float | None = None,
    ) -> Action:
        """:func:`choose` for the seat whose ``view`` this is (which checks that its
        choice is legal).

        Raises:
            ValueError: ``legal`` is empty, an unknown level, or a seat with no decision.
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        return choose(view, level, seed, deadline=deadline)

    def hint(
        self, view: Any, legal: Sequence[Any], seed: int, *, deadline: float | None = None
    ) -> Hint:
        """:func:`hint` for the seat whose ``view`` this is.

        Raises:
            ValueError: ``legal`` is empty, or a seat with no decision.
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        return hint(view, seed, deadline=deadline)
