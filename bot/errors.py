"""The one error handler: every refusal and fault of a command, button or select ends here.

Cogs and views raise :class:`UserError` (or return a refused :class:`Outcome`, turned into
one by :func:`expect_ok`); the tree's ``on_error`` and the views' wrapper both call
:func:`handle_error`, which answers with a short ephemeral reason. Anything unexpected is
logged with the game id (never a hand) and answered with a generic apology.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

import rules

from .models import SettingsError
from .service import INTERNAL_ERROR, Outcome, ServiceError

log = logging.getLogger("bot")

T = TypeVar("T")


class UserError(app_commands.AppCommandError):
    """A refusal worded for the user; nothing was changed."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game_id = game_id


def expect_ok(outcome: Outcome) -> Outcome:
    """Return ``outcome`` if it succeeded.

    Raises:
        UserError: the service refused (its reason, for an ephemeral reply).
    """
    if not outcome.ok:
        raise UserError(outcome.error or "That did not work.", outcome.game_id)
    return outcome


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ or getattr(error, "original", None)
        if inner is None:
            break
        error = inner
    return error


def reason_for(error: BaseException) -> str | None:
    """The words for a refusal, or None when the error is unexpected (a fault)."""
    error = _unwrap(error)
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, ServiceError | rules.RulesError | SettingsError):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in a server channel, not in direct messages."
    if isinstance(error, app_commands.MissingPermissions):
        perms = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return f"You need the {perms} permission for that."
    if isinstance(error, app_commands.BotMissingPermissions):
        perms = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return f"I need the {perms} permission in this channel for that."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You may not use this here."
    return None


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` privately (a first response or a follow-up); a gone
    interaction is ignored."""
    text = text[:1900]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.NotFound:
        log.info("interaction %s expired before its error reply", interaction.id)
    except discord.HTTPException as exc:
        log.warning("could not send an error reply: %s", exc)


async def handle_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place that turns an error into a reply (ephemeral, nothing changed)."""
    reason = reason_for(error)
    if reason is None:
        inner = _unwrap(error)
        game = getattr(inner, "game_id", None)
        log.error("unexpected error in %s (channel %s, game %s)", _what(interaction),
                  interaction.channel_id, game, exc_info=inner)
        reason = INTERNAL_ERROR
    await reply_ephemeral(interaction, reason)


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Any = interaction.data or {}
    return f"component {data.get('custom_id', '?')}"


def guarded(fn: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T | None]]:
    """Wrap a view callback ``fn(self, interaction, ...)`` so its errors go to
    :func:`handle_error` like a command's."""

    @functools.wraps(fn)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any) -> T | None:
        try:
            return await fn(self, interaction, *args)
        except Exception as exc:  # the one handler decides what the user sees
            await handle_error(interaction, exc)
            return None

    return wrapper
