"""The pyramid games (European War, World War 5) as plug-ins of the game contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from ..contract import ActionKind, Param, Timing, quiet
from ..errors import InvalidState
from ..events import Event
from .actions import ACTION_TYPES, Action, AgreeDraw, action_from_dict
from .board import Board, load_board
from .options import Options
from .state import (
    DECIDE_ACTION,
    DECIDE_DIPLOMACY,
    DECIDE_DUEL,
    DECIDE_RETREAT,
    DECIDE_SETUP,
    DECIDE_TURN,
    GameState,
)
from .words import PyramidWords

if TYPE_CHECKING:
    from .variant import VariantRules

_SPACE_PARAMS = {"field", "src", "dst", "large", "medium", "small"}

TIMINGS = {
    DECIDE_SETUP: Timing("setup", 10 * 60.0, restarts=True),
    DECIDE_TURN: Timing(),
    DECIDE_ACTION: Timing(),
    DECIDE_DIPLOMACY: Timing(option="diplomacy_seconds", window=True),
    DECIDE_DUEL: Timing("duel", 2 * 60.0, restarts=True),
    DECIDE_RETREAT: Timing("retreat", 2 * 60.0),
}
"""How the pyramid games' decisions are timed: setup (each placement by size its own
decision) and duels (each card) and retreats on limits of their own, the turn (a spy
does not restart it) on the table's turn time, the diplomacy window (EW-15) as long as
its option says, answered by every eligible player at once."""


UNDOABLE = frozenset({"place_all", "place_piece", "conscript", "grow", "build", "move", "pass"})
"""The action kinds that may be taken back when they revealed nothing (see
:meth:`PyramidGame.undoable`)."""


def board_of(variant: str, options: Options | None = None) -> Board:
    """The board ``variant`` is played on with ``options`` (WW-1: the Pyramid Arcade links)."""
    arcade = bool(options and options.pyramid_arcade and variant == "world_war_5")
    return load_board("world_war_5" if variant == "world_war_5" else "european_war", arcade)


def _param(kind: str, name: str, type_name: str) -> Param:
    if type_name == "bool":
        return Param(name, "flag")
    if name == "card":
        return Param(name, "card")
    if type_name == "int":  # a spy's target
        return Param(name, "seat")
    assert name in _SPACE_PARAMS or (kind, name) == ("sabotage", "target"), (kind, name)
    return Param(name, "space")


def action_kind(cls: type[Action]) -> ActionKind:
    """The contract's description of an action class: its kind and parameters."""
    return ActionKind(cls.kind, tuple(_param(cls.kind, f.name, str(f.type)) for f in fields(cls)))


class PyramidGame:
    """One pyramid game (a variant's rules) seen through :class:`rules.contract.Game`."""

    def __init__(
        self, variant: VariantRules, kinds: Sequence[str], decisions: Sequence[str] = tuple(TIMINGS)
    ) -> None:
        """``kinds``: the variant's action kinds; ``decisions``: its decision kinds."""
        self.variant = variant
        self._timings = {k: TIMINGS[k] for k in decisions}
        self.min_players = variant.min_players
        self._kinds = {k: action_kind(ACTION_TYPES[k]) for k in kinds}
        self.presentation = PyramidWords(variant.id, variant.name)

    @property
    def name(self) -> str:
        """The registry name: the variant's id."""
        return self.variant.id

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.variant.name

    @property
    def action_kinds(self) -> Mapping[str, ActionKind]:
        """Every action kind of this variant."""
        return self._kinds

    def max_players(self, options: Options) -> int:
        """The largest table ``options`` allow (EW-4, WW-1)."""
        return self.variant.max_players(options)

    @property
    def timings(self) -> Mapping[str, Timing]:
        """How the variant's decisions are timed (see :data:`TIMINGS`)."""
        return self._timings

    def undoable(
        self, before: GameState, seat: int, action: Action, events: Sequence[Event]
    ) -> bool:
        """A placement (EW-5, WW-6) and a turn's peaceful action (EW-11 conscription,
        movement, a pass; WW-2 GROW, BUILD, MOVE, a pass) may be taken back, if nothing
        came of it but public events: not the deal that ends the setup (EW-6), not the
        next player's draw (EW-7), not the end of the game (EW-20, WW-4, WW-5). Never an
        attack (the diplomacy window and the duel, EW-13 to EW-19; the dice, WW-3), a
        figure's power (a card shown, EW-8 to EW-10), an armament (a draw, EW-11), an
        answer in a window or a duel, a retreat, a timeout or a draw."""
        return (
            action.kind in UNDOABLE and quiet(events) and all(e.kind != "game_over" for e in events)
        )

    def agreed_draw(self) -> AgreeDraw:
        """EW-25: the table agrees to a draw."""
        return AgreeDraw()

    def sides(self, options: Options) -> tuple[str, ...]:
        """The powers (European War) or continents (World War 5), in the board's order."""
        return tuple(board_of(self.name, options).power_order)

    def options_from_dict(self, data: Any) -> Options:
        """Options from JSON data (see :meth:`rules.options.Options.from_dict`)."""
        return Options.from_dict(data)

    def options_to_dict(self, options: Options) -> dict[str, Any]:
        """Every option as JSON data."""
        return options.to_dict()

    def new_game(
        self, sides: Sequence[str | None], seed: int, options: Options, arranged: bool = False
    ) -> tuple[GameState, list[Event]]:
        """Seat the players and start the setup (see :func:`rules.new_game`)."""
        return self.variant.new_game(list(sides), seed, options, arranged)

    def load(self, data: Any) -> GameState:
        """A stored state, validated; it must be of this variant.

        Raises:
            InvalidState: corrupt data, or a game of another variant.
        """
        g = GameState.from_dict(data)
        if g.variant != self.name:
            raise InvalidState(f"a stored {g.variant} game is not a {self.name} game")
        return g

    def action_from_dict(self, data: Any) -> Action:
        """An action of this variant from its dict.

        Raises:
            InvalidState: an unknown kind (for this variant) or malformed fields.
        """
        action = action_from_dict(data)
        if action.kind not in self._kinds:
            raise InvalidState(f"{self.name} has no action {action.kind!r}")
        return action
