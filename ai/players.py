"""The registry of computer players, one per game, by the game's registry name.

The service asks :func:`player_for` for the game being played and hands the player the
deciding seat's view and its legal actions (which that seat may know). A game without a
registered player gets :class:`UniformPlayer`, a seeded uniform choice: every game can
fill a seat with a computer from its first day.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol


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


_PLAYERS: dict[str, ComputerPlayer] = {}
UNIFORM = UniformPlayer()


def register(game_name: str, player: ComputerPlayer) -> None:
    """Make ``player`` the computer player of the game registered as ``game_name``."""
    _PLAYERS[game_name] = player


def unregister(game_name: str) -> None:
    """Forget the player of ``game_name`` (tests)."""
    _PLAYERS.pop(game_name, None)


def player_for(game_name: str) -> ComputerPlayer:
    """The computer player of ``game_name`` (:data:`UNIFORM` if it has none)."""
    return _PLAYERS.get(game_name, UNIFORM)
