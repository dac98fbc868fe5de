"""One bot's buttons and selects (see :mod:`bot.views.bound`): each item class bound to
the bot, registered with it as its dynamic items, and the views made of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from .bound import bind
from .confirm import ConfirmButton, KeepButton
from .counts import CountButton, CountConfirm, CountPlace
from .lobby import LobbyButton, OptionSelect
from .panels import AnswerButton, AnswerPage, AnswerSelect, OpenPanelButton, PanelOpener
from .table import DrawButton, RematchButton, UndoButton
from .turn import TurnButton, TurnConfirm, TurnSelect

if TYPE_CHECKING:
    from ..client import GameBot


class Controls:
    """The items of ``bot``: the lobby's buttons and its Options panel's selects, the
    decision panels' buttons and selects, the turn panel's, the counts panel's, *Open
    my panel* and *Your turn*, the draw vote, *Undo*, *Rematch*, and the confirmations."""

    def __init__(self, bot: GameBot) -> None:
        self.lobby = bind(LobbyButton, bot)
        self.option = bind(OptionSelect, bot)
        self.answer = bind(AnswerButton, bot)
        self.answer_select = bind(AnswerSelect, bot)
        self.answer_page = bind(AnswerPage, bot)
        self.open_panel = bind(OpenPanelButton, bot)
        self.opener = bind(PanelOpener, bot)
        self.turn = bind(TurnButton, bot)
        self.turn_select = bind(TurnSelect, bot)
        self.turn_confirm = bind(TurnConfirm, bot)
        self.count = bind(CountButton, bot)
        self.count_confirm = bind(CountConfirm, bot)
        self.count_place = bind(CountPlace, bot)
        self.draw = bind(DrawButton, bot)
        self.rematch = bind(RematchButton, bot)
        self.undo = bind(UndoButton, bot)
        self.confirm = bind(ConfirmButton, bot)
        self.keep = bind(KeepButton, bot)

    def items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Every item class, for :meth:`discord.Client.add_dynamic_items`."""
        return (
            self.lobby,
            self.option,
            self.answer,
            self.answer_select,
            self.answer_page,
            self.open_panel,
            self.opener,
            self.turn,
            self.turn_select,
            self.turn_confirm,
            self.count,
            self.count_confirm,
            self.count_place,
            self.draw,
            self.rematch,
            self.undo,
            self.confirm,
            self.keep,
        )
