"""Every interaction's answer, one path: acknowledged on entry, then completed.

Discord drops an interaction not acknowledged within 3 seconds, so every handler that may
draw, wait on a game's lock or touch the database acknowledges first — the first thing it
does, no timer involved — in the visibility its answer will have (``how``):

``public``
    a slash command whose answer is public on success (an action): a public "thinking…"
    deferral (type 5). Its first follow-up fills that loading message and keeps its
    visibility, so a *private* refusal deletes the loading message first and then
    follows up ephemerally.
``private``
    an answer only the user sees (information, a confirmation, a private panel): an
    ephemeral "thinking…" deferral; everything after it is private.
``update``
    a button or select whose answer edits the message it is on: a deferred update
    (type 6); the answer edits that message, a refusal is an ephemeral follow-up.
``direct``
    no deferral: the handler answers at once with text (no image, lock or database).

A safety-net timer still defers any interaction not acknowledged ``ACK_AFTER`` seconds
after its creation. An interaction gone anyway (404, code 10062) is marked ``expired``:
:meth:`Reply.public` then returns None and the caller posts in the channel instead (an
action that happened must be shown).

Under load the words never wait for an image: :func:`with_picture` sends the words when
the picture is not drawn within ``WORDS_FIRST_AFTER`` seconds and adds it by an edit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

import discord

from .metrics import OFF, Metrics

log = logging.getLogger("bot.delivery")

ACK_AFTER = 2.0
"""Seconds after an interaction's creation by which it is deferred at the latest."""
WORDS_FIRST_AFTER = 0.75
"""Seconds an answer waits for its image before it goes with words only (the image
follows by an edit)."""
HOWS = ("public", "private", "update", "direct")

Track = Callable[[Coroutine[Any, Any, None]], None]


class Reply:
    """One interaction's answer (get it with :meth:`of`; there is one per interaction).

    ``mode`` says how a delivered outcome answers it: ``reply`` (a slash command: the
    public message is its answer), ``panel`` (a private panel's button: the panel is
    edited) or ``lobby`` (a lobby button: the lobby message is edited).
    """

    def __init__(self, interaction: discord.Interaction, metrics: Metrics = OFF) -> None:
        self.interaction = interaction
        self.metrics = metrics
        """Where its latencies and failures are counted (the bot's)."""
        self.mode = "reply"
        self.lock = asyncio.Lock()
        self.expired = False
        self.how: str | None = None
        """How it was acknowledged (see the module docstring), None while it is not."""
        self.loading = False
        """A deferred "thinking…" message waits for its content."""
        self._deferred_only = False
        self._timed: set[str] = set()
        age = self._age()
        self._timer: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(
            max(0.0, ACK_AFTER - age), self._spawn_defer
        )
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def of(cls, interaction: discord.Interaction, metrics: Metrics | None = None) -> Reply:
        """The answer of ``interaction``, created on first use and counted in ``metrics``
        (where the interaction enters the bot, it passes its metrics; later uses find
        them here)."""
        reply = interaction.extras.get("reply")
        if not isinstance(reply, Reply):
            reply = interaction.extras["reply"] = cls(interaction, metrics or OFF)
        return reply

    # ------------------------------------------------------------------ state
    @property
    def done(self) -> bool:
        """The interaction has been acknowledged (or is gone)."""
        return self.expired or self.interaction.response.is_done()

    @property
    def answered(self) -> bool:
        """Acknowledged with real content (not only deferred), or gone."""
        return self.expired or (self.done and not self._deferred_only)

    def _age(self) -> float:
        """Seconds since Discord created the interaction."""
        return (discord.utils.utcnow() - self.interaction.created_at).total_seconds()

    def _reached(self, *stages: str) -> None:
        """Time the interaction's first acknowledgement (``ack``) and first real answer
        (``answer``), once each."""
        if not self.metrics.enabled:
            return
        age = self._age()
        for stage in stages:
            if stage not in self._timed:
                self._timed.add(stage)
                self.metrics.interaction(stage, age)

    def close(self) -> None:
        """Stop the safety-net timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _gone(self) -> None:
        if not self.expired:
            self.expired = True
            self.metrics.error("interaction_expired")

    def _spawn_defer(self) -> None:
        self._timer = None
        is_component = self.interaction.type == discord.InteractionType.component
        how = "update" if is_component else "private"
        self._task = asyncio.get_running_loop().create_task(self.acknowledge(how))

    # ------------------------------------------------------------------ acknowledging
    async def acknowledge(self, how: str) -> None:
        """Acknowledge now (``public``, ``private`` or ``update``; ``direct`` does
        nothing); a no-op once acknowledged."""
        if how not in HOWS:
            raise ValueError(f"unknown way to acknowledge: {how!r}")
        if how == "direct":
            return
        async with self.lock:
            self.close()
            if self.done:
                return
            itx = self.interaction
            try:
                if how == "update":
                    await itx.response.defer()
                else:
                    await itx.response.defer(ephemeral=how == "private", thinking=True)
            except discord.NotFound:
                self._gone()
                log.info("interaction %s expired before it was acknowledged", itx.id)
                return
            except discord.HTTPException as exc:
                self.metrics.error("interaction")
                log.warning("could not acknowledge interaction %s: %s", itx.id, exc)
                return
            self._reached("ack")
            self.how, self._deferred_only = how, True
            self.loading = how != "update"

    # ------------------------------------------------------------------ answering
    async def public(self, **kwargs: Any) -> discord.Message | None:
        """A public message as the answer; None if that cannot be (the interaction is
        gone, or was deferred privately): post in the channel instead."""
        async with self.lock:
            self.close()
            if self.expired or (self.how == "private" and self.loading):
                return None
            itx = self.interaction
            try:
                if not itx.response.is_done():
                    resp = await itx.response.send_message(**kwargs)
                    self.how = "direct"
                    self._reached("ack", "answer")
                    if isinstance(resp.resource, discord.Message):
                        return resp.resource
                    return await itx.original_response()  # sent; only its id was missing
                msg = await itx.followup.send(wait=True, **kwargs)
                self._deferred_only = self.loading = False
                self._reached("answer")
                return msg
            except discord.NotFound:
                self._gone()
                log.info("interaction %s expired; posting in the channel instead", itx.id)
                return None

    async def edit_source(self, **kwargs: Any) -> bool:
        """Answer a component by editing the message it is on; False if that cannot be
        (gone, or acknowledged with a loading message of its own)."""
        async with self.lock:
            self.close()
            if self.expired or self.loading:
                return False
            itx = self.interaction
            try:
                if not itx.response.is_done():
                    await itx.response.edit_message(**kwargs)
                    self.how = "direct"
                else:
                    await itx.edit_original_response(**kwargs)
                self._deferred_only = False
                self._reached("ack", "answer")
                return True
            except discord.NotFound:
                self._gone()
                log.info("interaction %s expired before its message was updated", itx.id)
                return False

    async def say(self, content: str, **kwargs: Any) -> discord.Message | None:
        """A private answer or follow-up (a refusal, information, a panel), returned so
        it can be edited later; None if the interaction is gone."""
        async with self.lock:
            self.close()
            if self.expired:
                return None
            itx = self.interaction
            content = content[:2000]
            try:
                if not itx.response.is_done():
                    resp = await itx.response.send_message(content, ephemeral=True, **kwargs)
                    self.how = "direct"
                    self._reached("ack", "answer")
                    sent = resp.resource
                    return sent if isinstance(sent, discord.Message) else None
                if self.how == "public" and self.loading:
                    # the loading message is public and the first follow-up would fill
                    # it publicly: take it away, then answer privately
                    await itx.delete_original_response()
                    self.loading = False
                msg = await itx.followup.send(content, ephemeral=True, wait=True, **kwargs)
                self._deferred_only = self.loading = False
                self._reached("answer")
                return msg
            except discord.NotFound:
                self._gone()
                log.info("interaction %s expired before its private answer", itx.id)
                return None

    async def private(self, content: str, **kwargs: Any) -> bool:
        """:meth:`say`, telling only whether it was sent."""
        return await self.say(content, **kwargs) is not None


async def within(task: asyncio.Future[Any], seconds: float) -> bool:
    """Wait up to ``seconds`` for ``task``; True if it is done."""
    if not task.done():
        await asyncio.wait({task}, timeout=seconds)
    return task.done()


async def with_picture(
    reply: Reply, content: str, drawing: Awaitable[Any], track: Track, **kwargs: Any
) -> None:
    """Answer privately with ``content`` and the picture ``drawing`` makes; if it is not
    drawn within ``WORDS_FIRST_AFTER`` seconds, the words go at once and the picture is
    added by an edit when ready (``track`` runs that edit in the background)."""
    task = asyncio.ensure_future(drawing)
    if await within(task, WORDS_FIRST_AFTER):
        await reply.say(content, file=task.result().file(), **kwargs)
        return
    msg = await reply.say(content, **kwargs)
    if msg is None:
        task.cancel()
        return
    track(_attach_when_drawn(msg, task))


async def _attach_when_drawn(msg: discord.Message, drawing: Awaitable[Any]) -> None:
    await attach(msg, [await drawing])


async def attach(msg: discord.Message, pictures: Sequence[Any]) -> discord.Message | None:
    """Add ``pictures`` (:class:`bot.images.Picture`) to ``msg``, sent with words only
    (through the interaction's webhook when ``msg`` answered one, which stays valid for
    15 minutes); None if that failed."""
    try:
        return await msg.edit(attachments=[p.file() for p in pictures])
    except discord.HTTPException as exc:
        log.warning("could not add the image(s) to message %s: %s", msg.id, exc)
        return None
