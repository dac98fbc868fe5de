"""The computer-seat chooser: the one function through which computer players decide.

``choose(view, legal_actions, level, seed) -> Action`` sees only what its seat may see
(a :class:`pyramids.View`) and asks the game's computer player, registered in the ``ai``
package (the pyramid games': easy, normal, hard). Their decision is a function of the
view, the level and the seed (so a move is reproducible from game id, version and
seat), except that a hard search stops at :data:`DECISION_SECONDS` of wall-clock time
and plays its best move so far. The service
runs the chooser with ``asyncio.to_thread`` (never on the event loop) under a further
cap, and falls back to :func:`uniform` if it is slow or fails.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import ai
from rules import pyramids

Chooser = Callable[[pyramids.View, Sequence[pyramids.Action], str, int], pyramids.Action]

_MASK = (1 << 64) - 1


def seed_for(game_id: int, version: int, seat: int) -> int:
    """A 64-bit seed from (game id, version, seat), stable across runs and processes."""
    z = (game_id * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + seat + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


DECISION_SECONDS = 1.0
"""Wall-clock cap on one computer decision (the hard level's search stops there)."""


def choose(
    view: pyramids.View, legal_actions: Sequence[pyramids.Action], level: str, seed: int
) -> pyramids.Action:
    """The ``level`` computer player's choice for the seat whose ``view`` this is.

    Raises:
        ValueError: ``legal_actions`` is empty (the seat need not decide), or an unknown
            level.
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    player = ai.player_for(view.variant)
    action = player.choose(
        view, legal_actions, level, seed, deadline=time.monotonic() + DECISION_SECONDS
    )
    if action not in legal_actions:
        raise ValueError(f"the computer chose {action!r}, which is not legal here")
    return action


def uniform(
    view: pyramids.View, legal_actions: Sequence[pyramids.Action], level: str, seed: int
) -> pyramids.Action:
    """A uniform choice seeded by ``seed``: the fallback when a computer player is slow
    or fails, and a cheap chooser for tests of the machinery.

    Raises:
        ValueError: ``legal_actions`` is empty.
    """
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    return random.Random(seed).choice(list(legal_actions))


def answer_delay(seed: int, low: float, high: float) -> float:
    """A seeded delay in ``[low, high]`` seconds before a computer answers a diplomacy
    window, whatever it holds (EW-15: the window's length must reveal nothing)."""
    if high <= low:
        return max(low, 0.0)
    return random.Random(seed ^ 0x5DEECE66D).uniform(low, high)
