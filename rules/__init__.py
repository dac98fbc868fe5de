"""The rules layer: the game contract every game plugs into, and the games themselves.

Pure, deterministic, standard library only. The platform (service, front ends, computer
players) reaches a game through :mod:`rules.contract` alone::

    game = rules.game_named("european_war")
    state = game.create(options, seats, seed=7)
    for decision in state.deciders():
        kinds = state.kinds(decision.seat)

Each game lives in its own rooms (``rules/pyramids/`` holds European War and World War 5,
``rules/europe_at_war/`` Europe at War)
and registers itself with :func:`register` when its package is imported, as the built-in
games are below.
"""

from __future__ import annotations

# the built-in games register themselves with the contract's registry
from . import chance, choices, contract, events, presentation, pyramids

from . import europe_at_war  # isort: skip  (registered after the pyramid games)
from .contract import (
    SYSTEM,
    ActionKind,
    Decision,
    Game,
    OnTimeout,
    Param,
    Result,
    State,
    Timing,
    UnknownGame,
    game_named,
    game_names,
    register,
    unregister,
)
from .errors import BoardError, GameOver, IllegalAction, InvalidState, NotYourTurn, RulesError
from .events import HIDDEN, Event

__all__ = [
    "HIDDEN",
    "SYSTEM",
    "ActionKind",
    "BoardError",
    "Decision",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidState",
    "NotYourTurn",
    "OnTimeout",
    "Param",
    "Result",
    "RulesError",
    "State",
    "Timing",
    "UnknownGame",
    "chance",
    "choices",
    "contract",
    "europe_at_war",
    "events",
    "game_named",
    "game_names",
    "presentation",
    "pyramids",
    "register",
    "unregister",
]
