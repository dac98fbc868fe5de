"""Buttons and selects that hold the bot they answer for.

discord.py makes a dynamic item from its class alone (``from_custom_id``, on every click,
after a restart too), and keeps the class of every item it sees sent as the one for its
custom id. So the class carries the bot: :func:`bind` makes, for one bot, a subclass of
an item with that bot as :attr:`OfBot.bot`; the bot registers those subclasses, and its
views are made of them (:class:`bot.views.controls.Controls`).
"""

from __future__ import annotations

import re
import types
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

import discord

if TYPE_CHECKING:
    from ..client import GameBot

D = TypeVar("D", bound=discord.ui.DynamicItem[Any])


class OfBot:
    """A dynamic item of one bot (made by :func:`bind`); each says in :meth:`from_match`
    what a click on it stands for."""

    bot: ClassVar[GameBot]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """discord.py's hook, on every click (after a restart too): :meth:`from_match`."""
        return cls.from_match(match, item)

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        """The item clicked: ``item`` as discord.py rebuilt it from the message, whose
        custom id matched the class's template as ``match``."""
        raise NotImplementedError


def button_of(item: discord.ui.Item[Any]) -> discord.ui.Button[Any]:
    """``item`` as the button a button's template matched.

    Raises:
        TypeError: it is not a button.
    """
    if not isinstance(item, discord.ui.Button):
        raise TypeError(f"{item!r} is not a button")
    return item


def select_of(item: discord.ui.Item[Any]) -> discord.ui.Select[Any]:
    """``item`` as the select a select's template matched.

    Raises:
        TypeError: it is not a select.
    """
    if not isinstance(item, discord.ui.Select):
        raise TypeError(f"{item!r} is not a select")
    return item


def bind(item: type[D], bot: GameBot) -> type[D]:
    """A subclass of dynamic item ``item`` whose clicks ``bot`` answers (same name, same
    custom-id template)."""
    template = item.__discord_ui_compiled_template__
    made = types.new_class(
        item.__name__, (item,), {"template": template}, lambda ns: ns.update(bot=bot)
    )
    return cast(type[D], made)
