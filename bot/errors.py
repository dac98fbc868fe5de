"""The one error handler: every refusal and fault of a command, button or select ends here.

Cogs and views raise :class:`UserError` (or return a refused :class:`Outcome`, turned into
one by :func:`expect_ok`); the tree's ``on_error`` and the views' wrapper both call
:func:`handle_error`, which answers with a short ephemeral reason (through the
interaction's one :class:`bot.reply.Reply`, whatever way it was acknowledged). A payload
that does not fit the command any more (a stale command list) is a refusal too, logged as
a warning line. Anything unexpected is logged with the game id (never a hand) and answered
with a generic apology.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands

import rules
from rules import i18n
from service import DISK_FULL, INTERNAL_ERROR, Outcome, ServiceError
from service.models import SettingsError
from service.store import StoreFull

from .catalogue import N_, _
from .metrics import Metrics
from .reply import Reply

if TYPE_CHECKING:
    from discord.ui.view import ViewStore

    from .views.bound import OfBot

log = logging.getLogger("bot")

T = TypeVar("T")
S = TypeVar("S", bound="OfBot")
P = ParamSpec("P")


OUT_OF_DATE = N_(
    "This command is out of date — Discord is still updating this server's "
    "command list. Try again in a minute."
)
STALE_ERRORS = (
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
    app_commands.TransformerError,
)
"""discord.py's own words for a payload that does not fit the command (a stale list)."""


class UserError(app_commands.AppCommandError):
    """A refusal worded for the user; nothing was changed."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game_id = game_id


class StalePayload(UserError):
    """A command payload that does not fit the command as it is now (out of date)."""


def expect_ok(outcome: Outcome) -> Outcome:
    """Return ``outcome`` if it succeeded.

    Raises:
        UserError: the service refused (its reason, for an ephemeral reply).
    """
    if not outcome.ok:
        raise UserError(outcome.error or _("That did not work."), outcome.game_id)
    return outcome


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError):
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
    if isinstance(error, StoreFull):  # a direct write of a cog (e.g. /pings)
        return i18n.translate_any(DISK_FULL, i18n.current())
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works in a server channel, not in direct messages.")
    if isinstance(error, app_commands.MissingPermissions):
        perms = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return _("You need the {permissions} permission for that.").format(permissions=perms)
    if isinstance(error, app_commands.BotMissingPermissions):
        perms = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return _("I need the {permissions} permission in this channel for that.").format(
            permissions=perms
        )
    if isinstance(error, app_commands.TransformerError):
        return _(
            "The value {value} does not fit this command any more. "
            "Your command list may be out of date — try again in a minute."
        ).format(value=repr(str(error.value)[:40]))
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return _(OUT_OF_DATE)
    if isinstance(error, app_commands.CommandOnCooldown):
        return _("Slow down: try again in {seconds} s.").format(seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or _("You may not use this here.")
    return None


OLD_COMPONENT = N_(
    "This button is from an older version of the bot and no longer works. "
    "Use /status, /hand or the newest message in this channel."
)


def handles_component(interaction: discord.Interaction, store: ViewStore) -> bool:
    """True if some handler in the bot's view ``store`` takes this component click: a
    registered dynamic item whose pattern matches its custom id, or a view kept for its
    message."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (data.get("component_type"), custom_id)
    message_id = interaction.message.id if interaction.message is not None else None
    return key in store._views.get(message_id, {}) or key in store._views.get(None, {})


async def answer_unknown_component(
    interaction: discord.Interaction, store: ViewStore, metrics: Metrics
) -> None:
    """A click no handler in the bot's view ``store`` takes (discord.py would ignore it,
    and Discord would show "This interaction failed"): say privately that the button is
    out of date (the answer counted in ``metrics``)."""
    if interaction.type is not discord.InteractionType.component:
        return
    if handles_component(interaction, store):
        return
    log.info("a click on an unknown component in channel %s", interaction.channel_id)
    await reply_ephemeral(interaction, _(OLD_COMPONENT), metrics)


async def reply_ephemeral(
    interaction: discord.Interaction, text: str, metrics: Metrics | None = None
) -> None:
    """Answer ``interaction`` privately (see :meth:`bot.reply.Reply.say`: after a public
    "thinking…" the loading message is taken away first); a gone interaction is
    ignored. ``metrics``: the bot's, if the interaction has no answer yet."""
    try:
        await Reply.of(interaction, metrics).private(text[:1900])
    except discord.HTTPException as exc:
        log.warning("could not send an error reply: %s", exc)


async def handle_error(
    interaction: discord.Interaction, error: BaseException, metrics: Metrics
) -> None:
    """The one place that turns an error into a reply (ephemeral, nothing changed;
    counted in ``metrics``, the bot's)."""
    reply = Reply.of(interaction, metrics)
    reason = reason_for(error)
    if isinstance(_unwrap(error), (StalePayload, *STALE_ERRORS)):
        log.warning(
            "out-of-date payload for %s in channel %s: %s",
            _what(interaction),
            interaction.channel_id,
            reason,
        )
    if reason is None:
        inner = _unwrap(error)
        game = getattr(inner, "game_id", None)
        log.error(
            "unexpected error in %s (channel %s, game %s)",
            _what(interaction),
            interaction.channel_id,
            game,
            exc_info=inner,
        )
        reason = i18n.translate_any(INTERNAL_ERROR, i18n.current())
        reply.metrics.error("interaction")
    await reply_ephemeral(interaction, reason)


def _what(interaction: discord.Interaction) -> str:
    data: Any = interaction.data or {}
    if interaction.type == discord.InteractionType.application_command:
        return f"/{data.get('name', '?')}"
    return f"component {data.get('custom_id', '?')}"


def guarded(
    how: str,
) -> Callable[
    [Callable[Concatenate[S, discord.Interaction[Any], P], Awaitable[T]]],
    Callable[Concatenate[S, discord.Interaction[Any], P], Coroutine[Any, Any, T | None]],
]:
    """Wrap the callback ``fn(self, interaction, ...)`` of an item bound to a bot (see
    :mod:`bot.views.bound`): acknowledge the interaction first, as ``how`` says (see
    :mod:`bot.reply`; counted in the bot's metrics), then run it; its errors go to
    :func:`handle_error` like a command's."""

    def decorate(
        fn: Callable[Concatenate[S, discord.Interaction[Any], P], Awaitable[T]],
    ) -> Callable[Concatenate[S, discord.Interaction[Any], P], Coroutine[Any, Any, T | None]]:
        @functools.wraps(fn)
        async def wrapper(
            self: S, interaction: discord.Interaction[Any], /, *args: P.args, **kwargs: P.kwargs
        ) -> T | None:
            try:
                await Reply.of(interaction, self.bot.metrics).acknowledge(how)
                return await fn(self, interaction, *args, **kwargs)
            except Exception as exc:  # the one handler decides what the user sees
                await handle_error(interaction, exc, self.bot.metrics)
                return None

        return wrapper

    return decorate
