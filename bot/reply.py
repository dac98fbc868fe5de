"""One interaction's answer, made safe: answered once, in time, or not at all.

Discord drops an interaction not acknowledged within 3 seconds. :class:`Reply` answers
when the delivery is ready and, if that has not happened ``ACK_AFTER`` seconds after the
interaction was created (a slow image, a queue of earlier outcomes), defers it first so
the real answer can follow. A lock keeps the deferral and the answer from racing. An
interaction that expired anyway (HTTP 404, code 10062) makes :meth:`public` return None
so the caller posts in the channel instead: the action happened and must be shown.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

log = logging.getLogger("bot.delivery")

ACK_AFTER = 2.0
"""Seconds after an interaction's creation by which it is acknowledged at the latest."""


class Reply:
    """Wraps an interaction answered by a delivery.

    ``mode``: ``reply`` (a slash command: the public message is its answer), ``panel``
    (a button on a private panel: the answer edits the panel) or ``lobby`` (a lobby
    button: the answer edits the lobby message).
    """

    def __init__(self, interaction: discord.Interaction, mode: str) -> None:
        self.interaction = interaction
        self.mode = mode
        self.lock = asyncio.Lock()
        self.expired = False
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = loop.call_later(
            max(0.0, ACK_AFTER - age), self._spawn_defer)
        self._task: asyncio.Task[None] | None = None

    @property
    def done(self) -> bool:
        """The interaction has been acknowledged (or is gone)."""
        return self.expired or self.interaction.response.is_done()

    @property
    def answered(self) -> bool:
        """Acknowledged with real content (not only deferred), or gone."""
        return self.expired or (self.done and not self._deferred_only)

    _deferred_only = False

    def _spawn_defer(self) -> None:
        self._timer = None
        self._task = asyncio.get_running_loop().create_task(self._defer())

    async def _defer(self) -> None:
        async with self.lock:
            if self.done:
                return
            try:
                await self.interaction.response.defer(thinking=self.mode == "reply")
                self._deferred_only = True
            except discord.NotFound:
                self.expired = True
            except discord.HTTPException as exc:
                log.warning("could not defer interaction %s: %s", self.interaction.id, exc)

    def close(self) -> None:
        """Stop the deferral timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def public(self, **kwargs: Any) -> discord.Message | None:
        """Answer a slash command with a public message; None if the interaction is
        gone (post in the channel instead)."""
        async with self.lock:
            self.close()
            if self.expired:
                return None
            itx = self.interaction
            try:
                if not itx.response.is_done():
                    resp = await itx.response.send_message(**kwargs)
                    msg = resp.resource
                    if isinstance(msg, discord.Message):
                        return msg
                    return await itx.original_response()  # sent; only its id was missing
                self._deferred_only = False
                return await itx.followup.send(wait=True, **kwargs)
            except discord.NotFound:
                self.expired = True
                log.info("interaction %s expired; posting in the channel instead", itx.id)
                return None

    async def edit_source(self, **kwargs: Any) -> bool:
        """Answer a component by editing the message it is on; False if gone."""
        async with self.lock:
            self.close()
            if self.expired:
                return False
            itx = self.interaction
            try:
                if not itx.response.is_done():
                    await itx.response.edit_message(**kwargs)
                else:
                    self._deferred_only = False
                    await itx.edit_original_response(**kwargs)
                return True
            except discord.NotFound:
                self.expired = True
                log.info("interaction %s expired before its panel was updated", itx.id)
                return False

    async def private(self, content: str, **kwargs: Any) -> bool:
        """An ephemeral answer (or follow-up); False if the interaction is gone."""
        async with self.lock:
            self.close()
            if self.expired:
                return False
            itx = self.interaction
            try:
                if not itx.response.is_done():
                    await itx.response.send_message(content, ephemeral=True, **kwargs)
                else:
                    self._deferred_only = False
                    await itx.followup.send(content, ephemeral=True, **kwargs)
                return True
            except discord.NotFound:
                self.expired = True
                return False
