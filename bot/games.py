"""What the bot asks the game registry: which decisions go on private panels."""

from __future__ import annotations

from rules import contract


def is_panel(kind: str) -> bool:
    """True when a decision of ``kind`` is answered on a private panel in a registered
    game that has it (its presentation's ``panel_decisions``); turns are played with the
    slash commands."""
    return any(
        kind in contract.game_named(name).presentation.panel_decisions()
        for name in contract.game_names()
    )
