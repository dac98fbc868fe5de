"""What the bot asks the game registry: which decisions go on private panels, and the
words of the game a running table plays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import contract
from rules.presentation import Presentation

if TYPE_CHECKING:
    from service import GameService


def words_of(service: GameService, game_id: int | None) -> Presentation | None:
    """The presentation of the game ``game_id`` plays (None: not in memory)."""
    name = service.game_name(game_id) if game_id is not None else None
    return contract.game_named(name).presentation if name is not None else None


def is_panel(kind: str) -> bool:
    """True when a decision of ``kind`` is answered on a private panel in a registered
    game that has it (its presentation's ``panel_decisions``); turns are played with the
    slash commands."""
    return any(
        kind in contract.game_named(name).presentation.panel_decisions()
        for name in contract.game_names()
    )
