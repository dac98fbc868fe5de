"""The *Undo* button under an action message: up while the action's player may take it
back (:meth:`service.GameService.undo_open`), and on no message once they may not.

* **Sent with the message.** An action message with *Undo* carries the offer in its
  outbox item's ``meta["undo"]`` (:func:`offer_meta`: the action, until when, the edit
  that takes the button off). When the outbox merges action messages, the newest one's
  offer alone stays (its buttons are the merged message's); a message still waiting
  whose action may no longer be taken back loses its button before it is sent
  (:meth:`UndoOffers.check`).
* **Kept once shown.** Once the message is sent (also by a restart sending what the
  outbox kept), the offer is kept with the game (``game_messages.undo_offer``, one per
  game) and a timer on the service's scheduler takes the button off by an edit when its
  time is up (:meth:`UndoOffers.shown`).
* **Taken off on any change.** Each outcome of the game (another action, the undo
  itself, a pause, a seat, a draw vote) takes off an Undo that no longer stands
  (:meth:`UndoOffers.check`); so does a refused click on a stale one
  (:meth:`UndoOffers.refused`).
* **Across a restart.** A start-up, or a process taking a game over, re-arms the timer of
  each kept offer still running and takes off the others at once
  (:meth:`UndoOffers.restore`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import discord

from service.models import OutboxRecord, UndoOffer

from .views.table import undo_id

if TYPE_CHECKING:
    from .client import GameBot
    from .outbox import Outbox

log = logging.getLogger("bot.undo")

META = "undo"
"""The outbox meta key of an action message's *Undo* offer."""


def offer_meta(seq: int, until: float, edit: dict[str, Any]) -> dict[str, Any]:
    """The ``meta["undo"]`` of an action message showing *Undo* for action ``seq`` until
    ``until``; ``edit`` is the message edit that takes the button off."""
    return {"seq": seq, "until": until, "edit": edit}


def without(components: list[dict[str, Any]], custom_id: str) -> list[dict[str, Any]]:
    """Discord's ``components`` JSON without the item ``custom_id`` (and without a row
    left empty)."""
    rows = []
    for row in components:
        kept = [c for c in row.get("components", ()) if c.get("custom_id") != custom_id]
        if kept:
            rows.append({**row, "components": kept})
    return rows


class UndoOffers:
    """The *Undo* buttons up under this process's games' messages (see the module)."""

    def __init__(self, bot: GameBot, outbox: Outbox) -> None:
        self.bot = bot
        self.outbox = outbox
        self._up: dict[int, UndoOffer] = {}
        """Game id -> the offer up under one of its messages, its timer armed."""
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, gid: int) -> asyncio.Lock:
        return self._locks.setdefault(gid, asyncio.Lock())

    def up(self, gid: int) -> UndoOffer | None:
        """The offer up under one of game ``gid``'s messages (None: no Undo is up)."""
        return self._up.get(gid)

    def forget(self, gid: int) -> None:
        """The game is over or gone: nothing of it is kept in memory."""
        self._locks.pop(gid, None)

    async def shown(self, gid: int, channel_id: int, message_id: int, meta: dict[str, Any]) -> None:
        """Message ``message_id`` was sent with the *Undo* that ``meta`` (its
        ``meta["undo"]``) offers: keep it and take it off at its time, or at once if the
        action may no longer be taken back."""
        offer = UndoOffer(
            channel_id, message_id, int(meta["seq"]), float(meta["until"]), dict(meta["edit"])
        )
        async with self._lock(gid):
            await self._arm(gid, offer, kept=False)

    async def check(self, gid: int, channel_id: int | None) -> None:
        """Game ``gid`` changed: the Undo up, and any on its messages still waiting in the
        outbox, go unless their action may still be taken back."""
        async with self._lock(gid):
            standing = await self.bot.service.undo_open(gid)
            seq = standing[0] if standing is not None else None
            offer = self._up.get(gid)
            if offer is not None and offer.seq != seq:
                await self._take_off(gid, offer)
            if channel_id is not None:
                await self.outbox.revise(channel_id, lambda rec: self._strip(rec, gid, seq))

    async def refused(self, gid: int, seq: int, message: discord.Message | None) -> None:
        """Someone's click on the *Undo* of action ``seq`` under ``message`` was refused:
        if the action may no longer be taken back, the button goes (also one this process
        has no record of)."""
        async with self._lock(gid):
            standing = await self.bot.service.undo_open(gid)
            if standing is not None and standing[0] == seq:
                return  # still up for its player (someone else clicked)
            offer = self._up.get(gid)
            if offer is not None and (message is None or offer.message_id == message.id):
                await self._take_off(gid, offer)
            elif message is not None:
                rows = [cast(dict[str, Any], row.to_dict()) for row in message.components]
                edit = {"components": without(rows, undo_id(gid, seq))}
                try:
                    await self.outbox.edit(message.channel.id, message.id, edit, [], game_id=gid)
                except Exception:
                    log.exception("game %s: a stale Undo button could not be taken off", gid)

    async def restore(self, only: int | None = None) -> int:
        """At start-up (and for game ``only`` when another process changed it): each kept
        offer of a game this process hosts gets its timer again, or goes now if its
        action may no longer be taken back. Returns how many were taken off."""
        gone = 0
        for gid, offer in (await self.bot.db.undo_offers()).items():
            if (only is not None and gid != only) or not await self.bot.service.hosting(gid):
                continue
            async with self._lock(gid):
                gone += not await self._arm(gid, offer, kept=True)
        return gone

    async def _arm(self, gid: int, offer: UndoOffer, *, kept: bool) -> bool:
        """``offer`` is up: keep it (unless ``kept`` already) and arm its timer, or take
        it off now if its action may no longer be taken back. True if it stays up. The
        caller holds the game's lock."""
        older = self._up.get(gid)
        if older is not None and older.message_id != offer.message_id:
            await self._take_off(gid, older)
        standing = await self.bot.service.undo_open(gid)
        if standing is None or standing[0] != offer.seq:
            await self._take_off(gid, offer)
            return False
        offer = replace(offer, until=standing[1])
        if not kept:
            await self._keep(gid, offer)
        scheduler = self.bot.service.scheduler
        if scheduler.closed:  # the bot stops: the next start takes it on
            return True
        self._up[gid] = offer
        scheduler.schedule(self._key(gid, offer), offer.until, lambda: self._expire(gid, offer))
        return True

    async def _expire(self, gid: int, offer: UndoOffer) -> None:
        """The timer: ``offer``'s time is up."""
        async with self._lock(gid):
            if self._up.get(gid) == offer:
                await self._take_off(gid, offer)

    async def _take_off(self, gid: int, offer: UndoOffer) -> None:
        """Edit ``offer``'s message to its components without *Undo*, and forget it. The
        caller holds the game's lock."""
        if self._up.get(gid) == offer:
            del self._up[gid]
        self.bot.service.scheduler.cancel(self._key(gid, offer))
        try:
            await self.outbox.edit(offer.channel_id, offer.message_id, offer.edit, [], game_id=gid)
        except Exception:
            log.exception("game %s: its Undo button could not be taken off", gid)
            return
        await self._keep(gid, None)

    async def _keep(self, gid: int, offer: UndoOffer | None) -> None:
        try:
            await self.bot.db.set_undo_offer(gid, offer)
        except Exception:  # a restart then leaves that button as it was
            log.warning("game %s: its Undo button could not be kept", gid, exc_info=True)

    @staticmethod
    def _key(gid: int, offer: UndoOffer) -> tuple[Any, ...]:
        return (("undo", gid), offer.message_id)

    @staticmethod
    def _strip(rec: OutboxRecord, gid: int, seq: int | None) -> bool:
        """Take the *Undo* off waiting message ``rec`` of game ``gid`` unless it is action
        ``seq``'s; True if it was changed."""
        meta = rec.meta.get(META)
        if rec.game_id != gid or meta is None or meta["seq"] == seq:
            return False
        components = rec.payload.get("components")
        if components is not None:
            rec.payload["components"] = without(components, undo_id(gid, int(meta["seq"])))
        del rec.meta[META]
        return True
