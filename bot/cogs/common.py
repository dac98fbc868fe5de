"""Helpers shared by the cogs: the game of this channel, field and player arguments,
autocomplete filtering. Parsing only — the service does the work."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from rules import pyramids
from service import ServiceError, UserView

from ..errors import UserError
from ..views.panels import board_of_view

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


async def legal_now(
    interaction: discord.Interaction,
) -> tuple[UserView | None, list[pyramids.Action]]:
    """The user's legal actions in this channel's game right now (empty if none)."""
    try:
        gid = await bot_of(interaction).service.active_game(interaction.channel_id or 0)
        if gid is None:
            return None, []
        uv = await bot_of(interaction).service.view(gid, interaction.user.id)
    except ServiceError:
        return None, []
    if uv.prompt is None:
        return uv, []
    return uv, list(uv.prompt.choices)


def field_id(board: pyramids.Board, text: str | None, what: str = "field") -> str:
    """A field id from a name or id as typed (autocomplete sends the id).

    Raises:
        UserError: no such field.
    """
    found = board.field_by_name(text or "")
    if found is None:
        raise UserError(
            f"There is no {what} called {str(text)[:60]!r} on this board. "
            "Start typing and pick one from the list."
        )
    return found


def field_choices(
    board: pyramids.Board,
    fields: Iterable[str],
    current: str,
) -> list[app_commands.Choice[str]]:
    """Autocomplete choices for ``fields`` (ids), by readable name, filtered by what
    was typed, at most 25."""
    typed = current.strip().lower()
    out = []
    for fid in board.field_order:
        if fid not in fields:
            continue
        name = board.fields[fid].name
        if typed and typed not in name.lower() and typed not in fid:
            continue
        out.append(app_commands.Choice(name=name, value=fid))
    return out[:MAX_CHOICES]


def board_here(uv: UserView) -> pyramids.Board:
    """The board of the user's game."""
    return board_of_view(uv.view)


def not_in_variant(command: str, variant: str) -> UserError:
    """The refusal for a command of the other variant."""
    if variant == "world_war_5":
        return UserError(
            f"/{command} is not in this variant: this table plays World War 5, "
            "whose turns are /grow, /build, /move and /invade."
        )
    return UserError(
        f"/{command} is not in this variant: this table plays European War — "
        "use /conscript, /move, /invade, /arm, /sabotage, /spy or /pass."
    )
