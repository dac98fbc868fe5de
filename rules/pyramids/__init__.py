"""The rules engine: pure, deterministic, standard library only.

Typical use::

    game, events = rules.new_game("european_war", [None, None, None], seed=7)
    for decision in game.deciders():
        actions = game.legal_actions(decision.seat)
        events = game.apply(decision.seat, actions[0])
    view = rules.view_for(game, seat)   # what one player (or None: a spectator) may see
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import contract
from ..contract import Decision
from ..errors import BoardError, GameOver, IllegalAction, InvalidState, NotYourTurn, RulesError
from ..events import Event
from . import cards
from .actions import (
    SYSTEM,
    Action,
    AgreeDraw,
    Arm,
    Attack,
    Build,
    Conscript,
    Grow,
    LetPass,
    Move,
    Pass,
    PlaceAll,
    PlacePiece,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
    StopPlaying,
    Timeout,
    action_from_dict,
)
from .board import Board, Field, Power, load_board
from .options import VARIANTS, Options
from .state import GameState
from .variant import rules_for
from .view import BattleView, SeatView, View, view_for

# the built-in games register themselves with the contract's registry
from . import european_war, world_war_5  # noqa: F401  isort: skip

__all__ = [
    "SYSTEM",
    "VARIANTS",
    "Action",
    "AgreeDraw",
    "Arm",
    "Attack",
    "BattleView",
    "Board",
    "BoardError",
    "Build",
    "Conscript",
    "Decision",
    "Event",
    "Field",
    "GameOver",
    "GameState",
    "Grow",
    "IllegalAction",
    "InvalidState",
    "LetPass",
    "Move",
    "NotYourTurn",
    "Options",
    "Pass",
    "PlaceAll",
    "PlacePiece",
    "PlayCard",
    "Power",
    "Retreat",
    "RulesError",
    "Sabotage",
    "SeatView",
    "Spy",
    "StopAttack",
    "StopPlaying",
    "Timeout",
    "View",
    "action_from_dict",
    "cards",
    "contract",
    "creation_record",
    "load_board",
    "new_game",
    "replay",
    "rules_for",
    "view_for",
]


def new_game(
    variant: str,
    powers: list[str | None],
    seed: int,
    options: Options | None = None,
    arranged: bool = False,
) -> tuple[GameState, list[Event]]:
    """Start a game in its setup phase.

    ``powers[i]`` is the power (European War) or continent (World War 5) player ``i``
    chose, or ``None`` to be dealt one at random. Seats are shuffled unless ``arranged``;
    ``state.origins[seat]`` tells which player got each seat.

    Raises:
        RulesError: unknown variant, wrong player count, unknown or doubled power.
    """
    return rules_for(variant).new_game(powers, seed, options or Options(), arranged)


def creation_record(
    variant: str,
    powers: list[str | None],
    seed: int,
    options: Options | None = None,
    arranged: bool = False,
) -> dict[str, Any]:
    """The JSON-compatible arguments of :func:`new_game`, for :func:`replay`."""
    return {
        "variant": variant,
        "powers": list(powers),
        "seed": seed,
        "options": (options or Options()).to_dict(),
        "arranged": arranged,
    }


def replay(creation: dict[str, Any], actions: Iterable[tuple[int, Action]]) -> GameState:
    """Rebuild a game exactly from its creation record and its applied actions.

    Raises:
        InvalidState: a malformed creation record.
        RulesError: an action in the list is not legal where it stands.
    """
    try:
        game, _ = new_game(
            creation["variant"],
            list(creation["powers"]),
            int(creation["seed"]),
            Options.from_dict(creation["options"]),
            bool(creation["arranged"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise InvalidState(f"bad creation record: {exc!r}") from exc
    for seat, action in actions:
        game.apply(seat, action)
    return game
