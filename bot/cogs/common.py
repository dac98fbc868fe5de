"""What the cogs share: the game of this channel, the user's view of it, autocomplete
that never fails in the user's face. Parsing only — the service does the work."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from service import ServiceError, UserView

from ..errors import UserError

if TYPE_CHECKING:
    from ..client import GameBot

MAX_CHOICES = 25
log = logging.getLogger("bot")

Completer = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


def safe(complete: Completer) -> Completer:
    """Autocomplete never fails in the user's face: an error offers nothing (and is
    logged as a warning with the channel)."""

    @functools.wraps(complete)
    async def wrapper(
        interaction: discord.Interaction,
        current: str,
    ) -> list[app_commands.Choice[str]]:
        try:
            return await complete(interaction, current)
        except Exception:
            log.warning("autocomplete failed in channel %s", interaction.channel_id, exc_info=True)
            return []

    return wrapper


def bot_of(interaction: discord.Interaction) -> GameBot:
    """The bot handling ``interaction``."""
    return interaction.client  # type: ignore[return-value]  # always a GameBot


async def game_here(interaction: discord.Interaction) -> int:
    """The id of the lobby or game in this channel (or thread).

    Raises:
        UserError: there is none.
    """
    gid = await bot_of(interaction).service.active_game(interaction.channel_id or 0)
    if gid is None:
        raise UserError("There is no game in this channel. Open one with /newgame.")
    return gid


async def my_view(interaction: discord.Interaction, gid: int) -> UserView:
    """What the user may see of the game, and their open prompt.

    Raises:
        UserError: the game has not started.
    """
    try:
        return await bot_of(interaction).service.view(gid, interaction.user.id)
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None
