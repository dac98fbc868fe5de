"""Buttons and selects that hold the bot they answer for.

discord.py makes a dynamic item from its class alone (``from_custom_id``, on every click,
after a restart too), and keeps the class of every item it sees sent as the one for its
custom id. So the class carries the bot: :func:`bind` makes, for one bot, a subclass of
an item with that bot as :attr:`OfBot.bot`; the bot registers those subclasses, and its
views are made of them (:class:`bot.views.controls.Controls`).
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

import discord

if TYPE_CHECKING:
    from ..client import GameBot

D = TypeVar("D", bound=discord.ui.DynamicItem[Any])


class OfBot:
    """A dynamic item of one bot (made by :func:`bind`)."""

    bot: ClassVar[GameBot]


def bind(item: type[D], bot: GameBot) -> type[D]:
    """A subclass of dynamic item ``item`` whose clicks ``bot`` answers (same name, same
    custom-id template)."""
    template = item.__discord_ui_compiled_template__
    made = types.new_class(
        item.__name__, (item,), {"template": template}, lambda ns: ns.update(bot=bot)
    )
    return cast(type[D], made)
