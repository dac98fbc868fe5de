"""The pyramid games (European War, World War 5) as plug-ins of the game contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from ..contract import ActionKind, Param
from ..errors import InvalidState
from ..events import Event
from .actions import ACTION_TYPES, Action, action_from_dict
from .board import load_board
from .options import Options
from .state import GameState
from .words import PyramidWords

if TYPE_CHECKING:
    from .variant import VariantRules

_SPACE_PARAMS = {"field", "src", "dst", "large", "medium", "small"}


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

    def __init__(self, variant: VariantRules, kinds: Sequence[str]) -> None:
        self.variant = variant
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

    def sides(self, options: Options) -> tuple[str, ...]:
        """The powers (European War) or continents (World War 5), in the board's order."""
        arcade = options.pyramid_arcade and self.name == "world_war_5"
        board = load_board("world_war_5" if self.name == "world_war_5" else "european_war", arcade)
        return tuple(board.power_order)

    def options_from_dict(self, data: Any) -> Options:
        """Options from JSON data (see :meth:`rules.options.Options.from_dict`)."""
        return Options.from_dict(data)

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
