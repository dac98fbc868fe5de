"""What the cogs share: the game of this channel, the user's view of it, autocomplete
that never fails in the user's face. Parsing only — the service does the work."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands

from rules import contract
from service import GameService, ServiceError, UserView

from ..catalogue import _
from ..errors import UserError

MAX_CHOICES = 25
log = logging.getLogger("bot")

C = TypeVar("C")
V = TypeVar("V", str, int)
Completer = Callable[
    [C, discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[V]]]
]


def safe(complete: Completer[C, V]) -> Completer[C, V]:
    """A cog's autocomplete (``complete(self, interaction, current)``) that never fails
    in the user's face: an error offers nothing (and is logged as a warning with the
    channel)."""

    @functools.wraps(complete)
    async def wrapper(
        cog: C, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[V]]:
        try:
            return await complete(cog, interaction, current)
        except Exception:
            log.warning("autocomplete failed in channel %s", interaction.channel_id, exc_info=True)
            return []

    return wrapper


async def game_here(service: GameService, interaction: discord.Interaction) -> int:
    """The id of the lobby or game in this channel (or thread).

    Raises:
        UserError: there is none.
    """
    gid = await service.active_game(interaction.channel_id or 0)
    if gid is None:
        raise UserError(_("There is no game in this channel. Open one with /newgame."))
    return gid


async def my_view(service: GameService, interaction: discord.Interaction, gid: int) -> UserView:
    """What the user may see of the game, and their open prompt.

    Raises:
        UserError: the game has not started.
    """
    try:
        return await service.view(gid, interaction.user.id)
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None


async def channel_variant(service: GameService, interaction: discord.Interaction) -> str:
    """The game kind played in this channel (the first registered game when there is no
    game here, or in DMs)."""
    if interaction.guild_id is not None:
        gid = await service.active_game(interaction.channel_id or 0)
        if gid is not None:
            return (await service.status(gid)).variant
    return contract.game_names()[0]
