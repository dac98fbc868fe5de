"""The computer-seat chooser: the one function through which computer players decide.

``choose(view, legal_actions, level, seed) -> Action`` sees only what its seat may see
(a :class:`rules.View`) and the complete list of legal actions. Until the ``ai`` package
plugs in here, every level makes a uniform choice from a generator seeded with ``seed``,
so a computer's move is reproducible from (game id, version, seat). The service runs the
chooser with ``asyncio.to_thread`` under a wall-clock cap, never on the event loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import rules

Chooser = Callable[[rules.View, Sequence[rules.Action], str, int], rules.Action]

_MASK = (1 << 64) - 1


def seed_for(game_id: int, version: int, seat: int) -> int:
    """A 64-bit seed from (game id, version, seat), stable across runs and processes."""
    z = (game_id * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + seat + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def choose(view: rules.View, legal_actions: Sequence[rules.Action], level: str,
           seed: int) -> rules.Action:
    """Pick a legal action for the seat whose ``view`` this is.

    For now every ``level`` is a uniform choice seeded by ``seed`` (deterministic).

    Raises:
        ValueError: ``legal_actions`` is empty (the seat need not decide).
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
