"""Chance as recorded steps: every shuffle and die a game takes, drawn from the state's
seeded generator (or forced), and kept as a hidden ``chance`` event.

A game state that uses chance has three attributes: ``rng`` (its seeded
:class:`~rules.rng.Rng`), ``forced`` (outcomes to use before the generator, set by
:meth:`~rules.contract.State.force_chance`) and ``chance_steps`` (the steps taken during
the action being applied, which ``apply`` puts in front of the action's events). A
``chance`` event is addressed to :data:`~rules.events.HIDDEN`: no seat and no spectator
sees it, but the log, a replay and a test do. Its data: ``what`` (the step's name),
``choices`` (how many equally likely outcomes of a die, or the items shuffled) and
``outcome``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol, TypeVar

from .errors import InvalidState
from .events import HIDDEN, Event
from .rng import Rng

T = TypeVar("T")

CHANCE = "chance"
"""The kind of a chance event."""


class HasChance(Protocol):
    """A state that takes chance steps."""

    rng: Rng
    forced: list[Any]
    chance_steps: list[Event]


def below(g: HasChance, n: int, what: str) -> int:
    """One of ``0 .. n-1``, equally likely (a forced outcome first, if any).

    The generator moves on by the same step whether or not the outcome is forced, so
    forcing one outcome leaves every later one as it was.

    Raises:
        InvalidState: a forced outcome that is not one of them.
    """
    value = g.rng.below(n)
    if g.forced:
        value = g.forced.pop(0)
        if type(value) is not int or not 0 <= value < n:
            raise InvalidState(f"forced outcome {value!r} of {what} is not in 0..{n - 1}")
    g.chance_steps.append(Event(CHANCE, {"what": what, "choices": n, "outcome": value}, HIDDEN))
    return value


def shuffle(g: HasChance, items: list[T], what: str) -> None:
    """Shuffle ``items`` in place (a forced order first, if any: the items' new order).
    The generator moves on as it would without forcing.

    Raises:
        InvalidState: a forced order that is not a rearrangement of ``items``.
    """
    drawn = items[:]
    g.rng.shuffle(drawn)
    if g.forced:
        order = g.forced.pop(0)
        if not isinstance(order, list) or Counter(map(repr, order)) != Counter(map(repr, items)):
            raise InvalidState(f"forced order of {what} is not a rearrangement of its items")
        drawn = list(order)
    items[:] = drawn
    g.chance_steps.append(
        Event(CHANCE, {"what": what, "choices": len(items), "outcome": list(items)}, HIDDEN)
    )
