"""Computer players: a registry of one player per game, and the games' own players.

Pure and deterministic like the engine; imports only the standard library and
:mod:`rules`. The platform asks :func:`player_for` for a game's player; a game without
one gets :class:`UniformPlayer`. Each game's players live in its own rooms
(``ai/pyramids/`` for European War and World War 5, ``ai/europe_at_war/``) and register on import.
"""

# the built-in games' players register themselves
from . import pyramids

from . import europe_at_war  # isort: skip  (registered after the pyramid games)
from .players import (
    Adviser,
    ComputerPlayer,
    Hint,
    UniformPlayer,
    adviser_for,
    player_for,
    register,
)

__all__ = [
    "Adviser",
    "ComputerPlayer",
    "Hint",
    "UniformPlayer",
    "adviser_for",
    "europe_at_war",
    "player_for",
    "pyramids",
    "register",
]
