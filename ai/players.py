"""The registry of computer players, one per game, by the game's registry name.

The service asks :func:`player_for` for the game being played and hands the player the
deciding seat's view and its legal actions (which that seat may know). A game without a
registered player gets :class:`UniformPlayer`, a seeded uniform choice: every game can
fill a seat with a computer from its first day.

A hint (what a person asks for their own decision) comes from :func:`adviser_for`: the
game's own :class:`Adviser`, which says why in the game's words, or else its computer
player's choice at :data:`HINT_LEVEL` without reasons — so every game offers hints.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

HINT_LEVEL = "hard"
"""The level whose choice a hint gives: the strongest."""


class ComputerPlayer(Protocol):
    """Decides for one seat from what that seat may see."""

    def choose(
        self,
        view: Any,
        legal: Sequence[Any],
        level: str,
        seed: int,
        *,
        deadline: float | None = None,
    ) -> Any:
        """One of ``legal``, for the seat whose ``view`` this is, at ``level``; a
        function of its arguments (``deadline``, a ``time.monotonic()`` value, may cut
        a search short).

        Raises:
            ValueError: ``legal`` is empty, or an unknown level.
        """
        ...


class UniformPlayer:
    """A uniform choice among the legal actions, seeded: the player of any game that has
    none of its own, and the fallback when a player is slow or fails."""

    def choose(
        self,
        view: Any,
        legal: Sequence[Any],
        level: str,
        seed: int,
        *,
        deadline: float | None = None,
    ) -> Any:
        """A seeded uniform choice among ``legal``.

        Raises:
            ValueError: ``legal`` is empty.
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        return random.Random(seed).choice(list(legal))


@dataclass(frozen=True, slots=True)
class Hint:
    """Advice for one decision: the ``action`` a strong player would take, and ``why``:
    one or two sentences in the game's words (none when the player cannot say)."""

    action: Any
    why: tuple[str, ...] = ()


class Adviser(Protocol):
    """Advises the seat whose view it is given, from that view alone."""

    def hint(
        self, view: Any, legal: Sequence[Any], seed: int, *, deadline: float | None = None
    ) -> Hint:
        """A :class:`Hint` whose action is one of ``legal``; a function of its arguments
        (``deadline``, a ``time.monotonic()`` value, may cut a search short).

        Raises:
            ValueError: ``legal`` is empty.
        """
        ...


class ChoiceAdviser:
    """The adviser of a game without one of its own: its computer player's choice at
    :data:`HINT_LEVEL`, without reasons."""

    def __init__(self, player: ComputerPlayer) -> None:
        self.player = player

    def hint(
        self, view: Any, legal: Sequence[Any], seed: int, *, deadline: float | None = None
    ) -> Hint:
        """The player's choice as a hint.

        Raises:
            ValueError: ``legal`` is empty.
        """
        return Hint(self.player.choose(view, legal, HINT_LEVEL, seed, deadline=deadline))


_PLAYERS: dict[str, ComputerPlayer] = {}
_ADVISERS: dict[str, Adviser] = {}
UNIFORM = UniformPlayer()


def register(game_name: str, player: ComputerPlayer, adviser: Adviser | None = None) -> None:
    """Make ``player`` the computer player of the game registered as ``game_name``, and
    ``adviser`` (if given) the source of its hints."""
    _PLAYERS[game_name] = player
    if adviser is not None:
        _ADVISERS[game_name] = adviser
    else:
        _ADVISERS.pop(game_name, None)


def unregister(game_name: str) -> None:
    """Forget the player and adviser of ``game_name`` (tests)."""
    _PLAYERS.pop(game_name, None)
    _ADVISERS.pop(game_name, None)


def player_for(game_name: str) -> ComputerPlayer:
    """The computer player of ``game_name`` (:data:`UNIFORM` if it has none)."""
    return _PLAYERS.get(game_name, UNIFORM)


def adviser_for(game_name: str) -> Adviser:
    """Where hints for ``game_name`` come from: its own adviser, or its computer
    player's choice (:class:`ChoiceAdviser`)."""
    adviser = _ADVISERS.get(game_name)
    return adviser if adviser is not None else ChoiceAdviser(player_for(game_name))
