"""One bot's buttons and selects (see :mod:`bot.views.bound`): each item class bound to
the bot, registered with it as its dynamic items, and the views made of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from .bound import bind
from .confirm import ConfirmButton, KeepButton
from .lobby import LobbyButton, OptionSelect
from .panels import AnswerButton, AnswerSelect, OpenPanelButton

if TYPE_CHECKING:
    from ..client import GameBot


class Controls:
    """The items of ``bot``: the lobby's buttons and its Options panel's selects, the
    decision panels' buttons and selects, *Open my panel*, and the confirmations."""

    def __init__(self, bot: GameBot) -> None:
        self.lobby = bind(LobbyButton, bot)
        self.option = bind(OptionSelect, bot)
        self.answer = bind(AnswerButton, bot)
        self.answer_select = bind(AnswerSelect, bot)
        self.open_panel = bind(OpenPanelButton, bot)
        self.confirm = bind(ConfirmButton, bot)
        self.keep = bind(KeepButton, bot)

    def items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Every item class, for :meth:`discord.Client.add_dynamic_items`."""
        return (
            self.lobby,
            self.option,
            self.answer,
            self.answer_select,
            self.open_panel,
            self.confirm,
            self.keep,
        )
