"""The computer-seat chooser: the one function through which computer players decide
(and :func:`advise`, through which a person's hint is worked out the same way).

``choose(game, view, legal_actions, level, seed) -> Action`` sees only what its seat may
see (the game's view for that seat) and asks the computer player registered in the
``ai`` package for ``game`` (a registry name; a game without one gets the uniform
player). A decision is a function of the view, the level and the seed (so a move is
reproducible from game id, version and seat), except that a search may stop at
:data:`DECISION_SECONDS` of wall-clock time and play its best move so far. The service
runs the chooser with ``asyncio.to_thread`` (never on the event loop) under a further
cap, and falls back to :func:`uniform` if it is slow or fails.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import ai

Chooser = Callable[[str, Any, Sequence[Any], str, int], Any]
"""``chooser(game, view, legal_actions, level, seed) -> action``."""
Advise = Callable[[str, Any, Sequence[Any], int], ai.Hint]
"""``advise(game, view, legal_actions, seed) -> hint`` for the seat whose view it is."""

_MASK = (1 << 64) - 1


def seed_for(game_id: int, version: int, seat: int) -> int:
    """A 64-bit seed from (game id, version, seat), stable across runs and processes."""
    z = (game_id * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + seat + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


DECISION_SECONDS = 1.0
"""Wall-clock cap on one computer decision (the hard level's search stops there)."""


def choose(game: str, view: Any, legal_actions: Sequence[Any], level: str, seed: int) -> Any:
    """The ``level`` computer player of ``game`` chooses for the seat whose ``view`` this is.

    Raises:
        ValueError: ``legal_actions`` is empty (the seat need not decide), or an unknown
            level.
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    player = ai.player_for(game)
    action = player.choose(
        view, legal_actions, level, seed, deadline=time.monotonic() + DECISION_SECONDS
    )
    if action not in legal_actions:
        raise ValueError(f"the computer chose {action!r}, which is not legal here")
    return action


def advise(game: str, view: Any, legal_actions: Sequence[Any], seed: int) -> ai.Hint:
    """The hint for the seat whose ``view`` this is: ``game``'s adviser (the strongest
    computer player's choice and why), searching at most :data:`DECISION_SECONDS`.

    Raises:
        ValueError: ``legal_actions`` is empty (the seat need not decide), or the adviser
            chose an action that is not legal.
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    hint = ai.adviser_for(game).hint(
        view, legal_actions, seed, deadline=time.monotonic() + DECISION_SECONDS
    )
    if hint.action not in legal_actions:
        raise ValueError(f"the adviser chose {hint.action!r}, which is not legal here")
    return hint


def uniform(game: str, view: Any, legal_actions: Sequence[Any], level: str, seed: int) -> Any:
    """A uniform choice seeded by ``seed``: the fallback when a computer player is slow
    or fails, and a cheap chooser for tests of the machinery.

    Raises:
        ValueError: ``legal_actions`` is empty.
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    return random.Random(seed).choice(list(legal_actions))


def answer_delay(seed: int, low: float, high: float) -> float:
    """A seeded delay in ``[low, high]`` seconds before a computer answers an
    out-of-turn window, whatever it holds (the window's length must reveal nothing)."""
    if high <= low:
        return max(low, 0.0)
    return random.Random(seed ^ 0x5DEECE66D).uniform(low, high)
