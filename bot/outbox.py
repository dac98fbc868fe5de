"""The outbox: every channel message, edit and direct message the bot owes Discord.

Interaction responses and their follow-ups are not in it (they are exempt from Discord's
global limit and answered directly, see :mod:`bot.reply`); everything else the bot sends
goes through here, so nothing is lost to a rate limit, an outage or a restart:

* **Kept.** An item is written to the ``outbox`` table (payload JSON, PNG bytes in
  ``outbox_files``; see :mod:`bot.migrations`) before it is sent and deleted once it is
  settled, so a restart sends what was owed. A new message carries a ``nonce`` with
  ``enforce_nonce``: one sent just before a crash and sent again after the restart comes
  back as the same message, not a second one.
* **Paced.** A token bucket keeps every request under Discord's global limit (50/s per
  bot; the default is 45/s), and discord.py's own per-route handling reads the
  ``X-RateLimit-*`` headers of every answer and waits when a route's bucket is empty.
  At most ``concurrency`` requests are in flight.
* **In order, by priority.** Items travel in *lanes*: a channel's new messages, each
  message's edits, each person's DMs. A lane sends one item at a time, oldest first.
  Across lanes the head with the best priority goes first: the channel's action message
  and the DM of the player to move (:data:`URGENT`), then other DMs and notices
  (:data:`NORMAL`), then background edits such as the lobby (:data:`BACKGROUND`).
* **Coalesced.** A new action message for a channel whose previous one is still
  waiting is merged into it: all the words, the latest board, every ping (if the result
  fits in one message). An edit of a message whose previous edit is still waiting
  replaces it. A game's DM to a player who already has one waiting for that game is
  merged into it (:mod:`bot.dm_parts`: every private line, the newest hand and
  question), so a player's backlog stays one DM per game at any load.
* **Drawn when sent.** A game DM's hand image is drawn by :attr:`Outbox.prepare` just
  before its turn to be sent (:data:`PREPARE_AHEAD` at a time), never for a DM merged
  away: a DM whose image is drawn takes no newer hand (that DM waits behind it).
* **Never given up on** for a 429, a 5xx or a connection error: the lane backs off
  (exponentially, up to 30 s) and tries again. Final: 404 (the channel or message is
  gone), a DM refused because the person's DMs are closed (403 / 50007), another 4xx.
  A 403 *Missing Access* / *Missing Permissions* in a server channel holds the channel
  (its items wait, nothing is dropped) and calls :attr:`Outbox.on_forbidden`;
  :meth:`Outbox.release` tries again.

Callers get an ``asyncio.Future`` per item resolving to a :class:`Sent` (the message,
for the lobby and contest messages whose ids the bot keeps). What must happen after an item
settles even across a restart (remember a message id, tell the channel that someone's
DMs are closed) is in the item's ``meta`` and done by :attr:`Outbox.on_settled`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import math
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import MultipartParameters

from service.models import OutboxFile, OutboxRecord

from . import dm_parts
from .games import is_panel
from .images import HAND_FILE
from .metrics import OFF, Metrics

if TYPE_CHECKING:
    from .client import GameBot

log = logging.getLogger("bot.outbox")

URGENT, NORMAL, BACKGROUND = 0, 1, 2
MISSING_ACCESS, MISSING_PERMISSIONS, DMS_CLOSED = 50001, 50013, 50007
MAX_CONTENT = 2000
MAX_BACKOFF = 30.0
AGING = 5.0
PREPARE_AHEAD = 64
"""Game DMs whose hand image is being drawn at once, ahead of their turn to be sent."""
"""Seconds of waiting worth one priority level: a background edit is not starved."""

MERGED_META = frozenset({"words", "tail", "undo"})
"""The meta keys of an action message that may be merged with another: its words, the
lines saying who is to play, and its *Undo* offer (the newest one's stays,
:mod:`bot.undo_offers`)."""

Lane = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Sent:
    """How an item settled: the message (None if not sent) and why not (``gone``: the
    channel or message was deleted; ``dms_closed``; ``refused``: another 4xx;
    ``held``: the channel is held for missing permissions, the item still waits;
    ``discarded``: its channel was deleted, or the bot left its server; ``closing``: the
    bot is shutting down, the item is sent in the grace period or kept)."""

    message: discord.Message | None
    error: str | None = None


class TokenBucket:
    """``rate`` requests per second, at most ``burst`` at once (monotonic clock)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, max(1.0, burst)
        self._tokens = self.burst
        self._at = time.monotonic()
        self._lock = asyncio.Lock()

    async def take(self) -> None:
        """Wait for a token and spend it."""
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
                self._at = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)


@dataclass(eq=False)
class _Item:
    rec: OutboxRecord
    waiters: list[asyncio.Future[Sent]] = field(default_factory=list)
    sending: bool = False
    failures: int = 0
    prepared: bool = False
    """Its files were added by :attr:`Outbox.prepare` (not again on a retry)."""

    @property
    def lane(self) -> Lane:
        r = self.rec
        if r.kind == "dm":
            return ("u", r.user_id or 0)
        if r.kind == "edit":
            return ("e", r.message_id or 0)
        return ("c", r.channel_id or 0)


def files_of(pictures: Iterable[Any]) -> list[OutboxFile]:
    """Outbox files from pictures (anything with ``data``, ``filename``, ``description``)."""
    return [OutboxFile(p.filename, p.data, p.description) for p in pictures]


def message_payload(
    content: str | None,
    *,
    view: discord.ui.View | None = None,
    clear_view: bool = False,
    mentions: discord.AllowedMentions | None = None,
) -> dict[str, Any]:
    """A message's JSON as Discord takes it (the view as raw components: every button
    the bot sends is a persistent dynamic item, so nothing needs registering)."""
    payload: dict[str, Any] = {}
    if content is not None:
        payload["content"] = content
    if view is not None:
        payload["components"] = view.to_components()
    elif clear_view:
        payload["components"] = []
    if mentions is not None:
        payload["allowed_mentions"] = mentions.to_dict()
    return payload


class Outbox:
    """See the module docstring.

    Args:
        bot: the client (its HTTP client sends; the items are kept through ``bot.db``,
            the service's :class:`~service.store.FrontStore`).
        rate: requests per second, a little under Discord's global 50/s.
        burst: requests allowed at once (default: a tenth of a second's worth).
        concurrency: requests in flight at most.
    """

    def __init__(
        self, bot: GameBot, *, rate: float = 45.0, burst: float | None = None, concurrency: int = 8
    ) -> None:
        self.bot = bot
        self.bucket = TokenBucket(rate, burst if burst is not None else rate / 10)
        self.concurrency = concurrency
        self.on_settled: Callable[[OutboxRecord, Sent], Awaitable[None]] | None = None
        self.on_forbidden: Callable[[OutboxRecord, discord.Forbidden], Awaitable[None]] | None = (
            None
        )
        self._lanes: dict[Lane, deque[_Item]] = {}
        self._retry_at: dict[Lane, float] = {}
        self._held: set[int] = set()
        self._per_game: Counter[int] = Counter()
        self._dm_channels: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._preparing: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._waiters: list[asyncio.Future[None]] = []
        self._runner: asyncio.Task[None] | None = None
        #: Requests answered 429 / 5xx / connection errors, retried (for benchmarks).
        self.retries = 0
        #: Game DMs merged into one still waiting (for tests and benchmarks).
        self.merged_dms = 0
        self.prepare: Callable[[OutboxRecord], Awaitable[list[OutboxFile]]] | None = None
        """Called just before a game DM (``meta["dm"]``) is sent: the files to add to it
        (its hand image, drawn only for a DM that is really sent)."""
        self.metrics: Metrics = OFF
        """Where refusals and retries are counted (the bot sets its own)."""
        self._closing = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> int:
        """Load the items kept by the previous process (this process's: of its games, see
        :meth:`bot.client.GameBot.owes`) and start sending. Returns how many were
        loaded."""
        queued = {i.rec.id for q in self._lanes.values() for i in q}
        items = [
            r
            for r in await self.bot.db.outbox_items()
            if r.id not in queued and await self.bot.owes(r.game_id)
        ]
        for rec in items:
            self._enqueue(_Item(rec))
        self._runner = asyncio.get_running_loop().create_task(self._run())
        if items:
            log.info("outbox: %d item(s) kept from before the restart", len(items))
        return len(items)

    def stop_waiting(self) -> None:
        """Shutting down: nobody waits for a message any more (every waiter, now and
        later, gets ``Sent(None, "closing")``); the items are still sent or kept."""
        self._closing = True
        for queue in self._lanes.values():
            for item in queue:
                self._resolve(item, Sent(None, "closing"))

    async def close(self, grace: float = 0.0) -> None:
        """Stop sending (what is left stays in the database for the next start); with
        ``grace``, first wait up to that many seconds for the queue to empty."""
        if grace > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(grace):
                    await self.idle()
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)
            self._runner = None
        tasks = list(self._tasks) + list(self._preparing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ adding items
    async def send(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[OutboxFile],
        *,
        game_id: int | None = None,
        priority: int = NORMAL,
        words: list[str] | None = None,
        tail: str | None = None,
        meta: dict[str, Any] | None = None,
        announces: int | None = None,
    ) -> asyncio.Future[Sent]:
        """A new message in a channel. With ``words`` (and ``tail``, the lines saying
        who is to play), it is an action message that may be coalesced with the
        channel's previous one still waiting: their words joined, the newer files and
        tail, both pings. ``announces``: it tells the game's actions up to this version,
        which stop being owed to the channel when it is kept (same transaction)."""
        meta = dict(meta or {})
        merge_key = None
        if words is not None:
            merge_key = "action"
            meta["words"], meta["tail"] = list(words), tail or ""
        rec = OutboxRecord(
            None,
            game_id,
            "send",
            channel_id,
            None,
            None,
            priority,
            merge_key,
            payload,
            meta,
            time.time(),
            list(files),
        )
        lane = self._lanes.get(("c", channel_id))
        last = lane[-1] if lane else None
        if merge_key and last is not None and not last.sending and self._merge(last.rec, rec):
            return await self._rewrite(last, priority, announces)
        return await self._add(rec, announces)

    async def edit(
        self,
        channel_id: int,
        message_id: int,
        payload: dict[str, Any],
        files: list[OutboxFile],
        *,
        game_id: int | None = None,
        priority: int = BACKGROUND,
        meta: dict[str, Any] | None = None,
        announces: int | None = None,
    ) -> asyncio.Future[Sent]:
        """An edit of a message; merged into an edit of the same message still waiting
        (the newer one's fields win). ``announces`` as for :meth:`send`."""
        rec = OutboxRecord(
            None,
            game_id,
            "edit",
            channel_id,
            None,
            message_id,
            priority,
            None,
            payload,
            dict(meta or {}),
            time.time(),
            list(files),
        )
        lane = self._lanes.get(("e", message_id))
        last = lane[-1] if lane else None
        if last is not None and not last.sending:
            # Discord leaves a field an edit does not name as it is: so does the merge
            if "attachments" in rec.payload or rec.files:
                last.rec.files = rec.files
            last.rec.payload = {**last.rec.payload, **rec.payload}
            last.rec.meta = {**last.rec.meta, **rec.meta}
            return await self._rewrite(last, priority, announces)
        return await self._add(rec, announces)

    async def dm(
        self,
        user_id: int,
        payload: dict[str, Any],
        files: list[OutboxFile],
        *,
        game_id: int | None = None,
        priority: int = NORMAL,
        meta: dict[str, Any] | None = None,
        part: dict[str, Any] | None = None,
    ) -> asyncio.Future[Sent]:
        """A direct message to ``user_id``. With ``part`` (see :mod:`bot.dm_parts`; its
        text replaces ``payload``'s content) it is a game's DM that merges into the
        player's DM for the same game still waiting: every private line kept, the newest
        hand and question; its hand image is drawn by :attr:`prepare` when it is sent."""
        meta = dict(meta or {})
        if part is not None:
            meta["dm"] = part
            payload = {**payload, "content": dm_parts.text_of(part)}
        rec = OutboxRecord(
            None,
            game_id,
            "dm",
            None,
            user_id,
            None,
            priority,
            "dm" if part is not None and game_id is not None else None,
            payload,
            meta,
            time.time(),
            list(files),
        )
        if rec.merge_key is not None:
            merged = await self._merge_dm(rec)
            if merged is not None:
                return merged
        return await self._add(rec)

    async def _merge_dm(self, rec: OutboxRecord) -> asyncio.Future[Sent] | None:
        """Merge game DM ``rec`` into the newest one waiting for the same player and game;
        None if there is none to merge into, they cannot share a message, or that one's
        hand image is drawn and ``rec`` brings another hand."""
        lane = self._lanes.get(("u", rec.user_id or 0))
        mine = [i for i in lane or () if i.rec.game_id == rec.game_id]
        last = mine[-1] if mine else None
        if last is None or last.sending or last.rec.merge_key != "dm":
            return None
        waiting = sum(1 for i in mine if not i.sending)
        joined = dm_parts.merge(
            last.rec.meta["dm"],
            last.rec.payload.get("components"),
            rec.meta["dm"],
            rec.payload.get("components"),
            summarise=waiting >= dm_parts.MAX_WAITING,
        )
        if joined is None:
            return None
        part, components = joined
        hand_changed = part.get("hand") != last.rec.meta["dm"].get("hand")
        if hand_changed and last.prepared and any(f.filename == HAND_FILE for f in last.rec.files):
            # its hand image is drawn (it waits for a token, a request slot or a retry):
            # it goes as it is, and the newer hand waits behind it, so no drawing is
            # thrown away
            return None
        payload = {**rec.payload, "content": dm_parts.text_of(part)}
        if components:
            payload["components"] = components
        else:
            payload.pop("components", None)
        for key in ("nonce", "enforce_nonce"):  # still the message first queued
            if key in last.rec.payload:
                payload[key] = last.rec.payload[key]
        meta = {**last.rec.meta, **rec.meta, "dm": part}
        if is_panel(str(part.get("kind"))) and components:
            meta["panel"] = part["kind"]
        else:
            meta.pop("panel", None)
        # a hand image drawn already is kept (it still shows the hand); a DM prepared with
        # none (nothing to draw then) is prepared again for a newer hand
        if hand_changed or not last.prepared:
            last.rec.files = [f for f in last.rec.files if f.filename != HAND_FILE]
            last.prepared = False
        last.rec.payload, last.rec.meta = payload, meta
        self.merged_dms += 1
        return await self._rewrite(last, rec.priority)

    @staticmethod
    def _merge(old: OutboxRecord, new: OutboxRecord) -> bool:
        """Merge action message ``new`` into ``old`` (waiting); False if it cannot be."""
        if old.merge_key != new.merge_key or old.game_id != new.game_id:
            return False
        if {k for k in old.meta if k not in MERGED_META} or {
            k for k in new.meta if k not in MERGED_META
        }:
            return False  # its message id is wanted: keep it a message of its own
        words = old.meta["words"] + new.meta["words"]
        content = "\n".join(words + ([new.meta["tail"]] if new.meta["tail"] else []))
        if len(content) > MAX_CONTENT:
            return False
        kept = [f for f in old.files if f.filename not in {n.filename for n in new.files}]
        if len(kept) + len(new.files) > 10:
            return False
        old.files = kept + new.files
        # the newer buttons: its Undo only (an older action is no longer undoable)
        old.meta = {"words": words, "tail": new.meta["tail"]}
        if "undo" in new.meta:
            old.meta["undo"] = new.meta["undo"]
        payload = {**new.payload, "content": content}
        for key in ("nonce", "enforce_nonce"):  # still the message first queued
            if key in old.payload:
                payload[key] = old.payload[key]
        users = set(old.payload.get("allowed_mentions", {}).get("users", []))
        users |= set(new.payload.get("allowed_mentions", {}).get("users", []))
        if "allowed_mentions" in payload:
            payload["allowed_mentions"] = {**payload["allowed_mentions"], "users": sorted(users)}
        old.payload = payload
        return True

    async def _add(self, rec: OutboxRecord, announces: int | None = None) -> asyncio.Future[Sent]:
        if rec.kind != "edit":  # kept with the item: a resend after a crash is recognised
            rec.payload["nonce"] = secrets.token_hex(12)
            rec.payload["enforce_nonce"] = True
        try:
            rec.id = await self.bot.db.outbox_add(rec, announces)
        except Exception:
            # not kept (e.g. the store is closing): still sent, just not across a restart
            log.warning("outbox: could not keep an item; sending it anyway", exc_info=True)
            rec.id = -int(time.monotonic_ns())
        item = _Item(rec)
        self._enqueue(item)
        return self._waiter(item)

    async def _rewrite(
        self, item: _Item, priority: int, announces: int | None = None
    ) -> asyncio.Future[Sent]:
        item.rec.priority = min(item.rec.priority, priority)
        if item.rec.id is not None and item.rec.id > 0:
            try:
                await self.bot.db.outbox_update(item.rec, announces)
            except Exception:
                log.warning("outbox: could not keep a coalesced item", exc_info=True)
        self._poke()
        return self._waiter(item)

    async def revise(self, channel_id: int, change: Callable[[OutboxRecord], bool]) -> int:
        """Let ``change`` alter the channel's new messages still waiting (not those being
        sent) in place; it says whether it changed one, which is kept again. Returns how
        many were changed."""
        changed = 0
        for item in list(self._lanes.get(("c", channel_id), ())):
            if not item.sending and change(item.rec):
                changed += 1
                if item.rec.id is not None and item.rec.id > 0:
                    try:
                        await self.bot.db.outbox_update(item.rec)
                    except Exception:
                        log.warning("outbox: could not keep a revised item", exc_info=True)
        return changed

    def _waiter(self, item: _Item) -> asyncio.Future[Sent]:
        fut: asyncio.Future[Sent] = asyncio.get_running_loop().create_future()
        if self._closing:
            fut.set_result(Sent(None, "closing"))
        else:
            item.waiters.append(fut)
        return fut

    def _enqueue(self, item: _Item) -> None:
        self._lanes.setdefault(item.lane, deque()).append(item)
        if item.rec.game_id is not None:
            self._per_game[item.rec.game_id] += 1
        self._poke()

    # ------------------------------------------------------------------ state
    def pending(self, game_id: int) -> int:
        """Items of ``game_id`` not settled yet."""
        return self._per_game.get(game_id, 0)

    def held(self, channel_id: int | None) -> bool:
        """The channel is held (the bot lacks a permission there)."""
        return channel_id is not None and channel_id in self._held

    @property
    def held_channels(self) -> set[int]:
        """Channels whose items wait for a permission."""
        return set(self._held)

    async def discard(self, channel_ids: Iterable[int]) -> int:
        """Forget what waits for channels that are gone (deleted, or the bot was removed
        from their server). Returns how many items were dropped."""
        gone = set(channel_ids)
        dropped = [
            item
            for queue in self._lanes.values()
            for item in queue
            if not item.sending and item.rec.kind != "dm" and item.rec.channel_id in gone
        ]
        for item in dropped:
            await self._settle(item, Sent(None, "discarded"))
        self._held -= gone
        return len(dropped)

    def hold(self, channel_id: int) -> None:
        """Keep a channel's items waiting (until :meth:`release`)."""
        self._held.add(channel_id)

    def release(self, channel_id: int) -> None:
        """Try a held channel's items again (a permission came back, or /resume)."""
        if channel_id in self._held:
            self._held.discard(channel_id)
            log.info("outbox: channel %s released", channel_id)
            self._poke()

    @property
    def queued(self) -> int:
        """Items waiting to be sent or being sent (held channels' included)."""
        return sum(len(q) for q in self._lanes.values())

    @property
    def busy(self) -> bool:
        """Something can still be sent (held channels aside), or is being sent."""
        return bool(self._tasks or self._preparing) or any(
            q and not self._is_held(q[0]) for q in self._lanes.values()
        )

    async def idle(self) -> None:
        """Wait until nothing is left to send (held channels aside)."""
        while self.busy:
            await self.changed()

    def changed(self) -> asyncio.Future[None]:
        """A future done at the next change (an item added, sent or held)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        return fut

    def _poke(self) -> None:
        self._wake.set()
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    def _is_held(self, item: _Item) -> bool:
        return item.rec.kind != "dm" and item.rec.channel_id in self._held

    # ------------------------------------------------------------------ the sender
    def _next(self, now: float, ready: bool = False) -> _Item | None:
        # runs for every item sent, over every lane (hundreds when DMs wait for the global
        # limit): kept lean, the rank computed once per lane. ``ready``: only items that
        # need no preparing first
        best: _Item | None = None
        best_rank = math.inf
        held, retry_at = self._held, self._retry_at
        ready = ready and self.prepare is not None
        for lane, queue in self._lanes.items():
            if not queue:
                continue
            head = queue[0]
            rec = head.rec
            if head.sending or (rec.kind != "dm" and rec.channel_id in held):
                continue
            if ready and not head.prepared and "dm" in rec.meta:
                continue
            rank = rec.priority * AGING + rec.created_at
            if rank < best_rank and (not retry_at or retry_at.get(lane, 0) <= now):
                best, best_rank = head, rank
        return best

    @staticmethod
    def _rank(item: _Item) -> float:
        """Lower goes first: the priority, then how long it has waited (aged)."""
        return item.rec.priority * AGING + item.rec.created_at

    async def _run(self) -> None:
        while True:
            try:
                await self._dispatch()
            except asyncio.CancelledError:
                raise
            except Exception:  # never stop sending over a bug in one step
                log.exception("outbox: the sender failed; going on")
                await asyncio.sleep(1)

    async def _dispatch(self) -> None:
        while True:
            if len(self._tasks) >= self.concurrency:
                self._wake.clear()
                await self._wake.wait()
                continue
            now = time.monotonic()
            # a bounded number of DMs prepared at once (drawn just ahead of their turn,
            # not the whole backlog's): enough to keep the pace when each drawing waits
            # its full time behind the boards
            item = self._next(now, ready=len(self._preparing) >= PREPARE_AHEAD)
            if item is None:
                self._wake.clear()
                later = [
                    t for lane, t in self._retry_at.items() if t > now and self._lanes.get(lane)
                ]
                # not asyncio.wait_for: on Python 3.11 it drops a cancellation (close())
                # that lands as the event is set, and the sender would go on for ever
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(later) - now if later else None):
                        await self._wake.wait()
                continue
            if self.prepare is not None and "dm" in item.rec.meta and not item.prepared:
                self._start_preparing(item)
                continue
            await self.bucket.take()
            # pick again: while waiting for the token, better items may have come, and
            # the one picked may have been coalesced with newer ones
            item = self._next(time.monotonic(), ready=True)
            if item is None:
                continue
            item.sending = True
            task = asyncio.get_running_loop().create_task(self._attempt(item))
            self._tasks.add(task)
            task.add_done_callback(self._finished)

    def _start_preparing(self, item: _Item) -> None:
        """Have a game DM's hand image drawn before it is sent: outside the requests in
        flight and before a token is spent, so a slow drawing holds back only its own
        lane (which nothing merges into meanwhile)."""
        item.sending = True
        task = asyncio.get_running_loop().create_task(self._prepare(item))
        self._preparing.add(task)
        task.add_done_callback(self._prepared)

    async def _prepare(self, item: _Item) -> None:
        assert self.prepare is not None
        try:
            files = await self.prepare(item.rec)
        except asyncio.CancelledError:
            item.sending = False
            raise
        except Exception:  # sent without its image (its words list the hand)
            log.exception("outbox: preparing %s failed", self._what(item.rec))
            files = []
        item.rec.files = [f for f in item.rec.files if f.filename != HAND_FILE] + files
        item.prepared, item.sending = True, False

    def _prepared(self, task: asyncio.Task[None]) -> None:
        self._preparing.discard(task)
        self._poke()

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._poke()

    async def _attempt(self, item: _Item) -> None:
        rec, lane = item.rec, item.lane
        try:
            message = await self._request(rec)
        except discord.NotFound:
            await self._settle(item, Sent(None, "gone"))
        except discord.Forbidden as exc:
            if rec.kind == "dm" and exc.code == DMS_CLOSED:
                await self._settle(item, Sent(None, "dms_closed"))
            elif rec.kind != "dm" and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
                await self._hold(item, exc)
            else:
                log.warning("outbox: %s refused (%s): %s", self._what(rec), exc.code, exc.text)
                self.metrics.error("outbox_refused")
                await self._settle(item, Sent(None, "refused"))
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                self._back_off(item, f"HTTP {exc.status}")
            else:
                log.warning(
                    "outbox: %s rejected (HTTP %s %s): %s",
                    self._what(rec),
                    exc.status,
                    exc.code,
                    exc.text,
                )
                self.metrics.error("outbox_refused")
                await self._settle(item, Sent(None, "refused"))
        except (discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError) as exc:
            self._back_off(item, repr(exc))
        except asyncio.CancelledError:
            item.sending = False
            raise
        except Exception:
            log.exception("outbox: %s failed unexpectedly; it is dropped", self._what(rec))
            self.metrics.error("outbox_refused")
            await self._settle(item, Sent(None, "refused"))
        else:
            self._retry_at.pop(lane, None)
            await self._settle(item, Sent(message))

    def _back_off(self, item: _Item, why: str) -> None:
        item.sending = False
        item.failures += 1
        self.retries += 1
        self.metrics.error("outbox_retry")
        delay = min(MAX_BACKOFF, 0.25 * 2 ** min(item.failures, 8)) * random.uniform(0.5, 1)
        self._retry_at[item.lane] = time.monotonic() + delay
        log.info("outbox: %s failed (%s); trying again in %.1f s", self._what(item.rec), why, delay)

    async def _hold(self, item: _Item, exc: discord.Forbidden) -> None:
        item.sending = False
        cid = item.rec.channel_id or 0
        first = cid not in self._held
        self._held.add(cid)
        if first:
            log.warning("outbox: channel %s refuses the bot (%s); its messages wait", cid, exc.text)
            self.metrics.error("permission_lost")
        for other in self._lanes.values():  # whoever waits for a message here: not now
            for queued in other:
                if queued.rec.channel_id == cid and queued.rec.kind != "dm":
                    self._resolve(queued, Sent(None, "held"))
        if first and self.on_forbidden is not None:
            try:
                await self.on_forbidden(item.rec, exc)
            except Exception:
                log.exception("outbox: handling channel %s's missing permissions failed", cid)

    async def _settle(self, item: _Item, result: Sent) -> None:
        rec = item.rec
        queue = self._lanes.get(item.lane)
        if queue and queue[0] is item:
            queue.popleft()
        elif queue and item in queue:
            queue.remove(item)
        if queue is not None and not queue:
            del self._lanes[item.lane]
            self._retry_at.pop(item.lane, None)
        if rec.id is not None and rec.id > 0:
            try:
                await self.bot.db.outbox_remove([rec.id])
            except Exception:
                log.warning("outbox: could not forget a sent item", exc_info=True)
        if self.on_settled is not None:
            try:
                await self.on_settled(rec, result)
            except Exception:
                log.exception("outbox: after %s", self._what(rec))
        if rec.game_id is not None:
            self._per_game[rec.game_id] -= 1
            if self._per_game[rec.game_id] <= 0:
                del self._per_game[rec.game_id]
        self._resolve(item, result)

    @staticmethod
    def _resolve(item: _Item, result: Sent) -> None:
        waiters, item.waiters = item.waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(result)

    @staticmethod
    def _what(rec: OutboxRecord) -> str:
        where = f"user {rec.user_id}" if rec.kind == "dm" else f"channel {rec.channel_id}"
        game = f" of game {rec.game_id}" if rec.game_id is not None else ""
        return f"a {rec.kind} to {where}{game}"

    async def notice(self, channel_id: int, content: str) -> bool:
        """Send a short text to a held channel now, past its waiting items (paced, not
        kept: e.g. to say which permission is missing when only Attach Files is).
        True if it was posted."""
        rec = OutboxRecord(
            None,
            None,
            "send",
            channel_id,
            None,
            None,
            URGENT,
            None,
            message_payload(content, mentions=discord.AllowedMentions.none()),
            {},
            time.time(),
            [],
        )
        await self.bucket.take()
        try:
            await self._request(rec)
            return True
        except discord.HTTPException as exc:
            log.info("outbox: a notice to channel %s failed: %s", channel_id, exc)
            return False

    def poke(self) -> None:
        """Wake whoever waits on :meth:`changed` (something outside the outbox changed)."""
        self._poke()

    # ------------------------------------------------------------------ the wire
    async def _request(self, rec: OutboxRecord) -> discord.Message:
        http = self.bot.http
        if rec.kind == "dm":
            uid = rec.user_id or 0
            cid = self._dm_channels.get(uid)
            if cid is None:
                dm = await http.start_private_message(uid)
                cid = self._dm_channels[uid] = int(dm["id"])
                await self.bucket.take()  # the DM channel cost a request of its own
            channel: Any = self.bot.get_partial_messageable(cid, type=discord.ChannelType.private)
        else:
            cid = rec.channel_id or 0
            channel = self.bot.get_channel(cid) or self.bot.get_partial_messageable(cid)
        with self._params(rec) as params:
            if rec.kind == "edit":
                data = await http.edit_message(cid, rec.message_id or 0, params=params)
            else:
                data = await http.send_message(cid, params=params)
        # what discord.py does with the answer of channel.send (its state builds it)
        return self.bot._connection.create_message(channel=channel, data=data)

    @staticmethod
    def _params(rec: OutboxRecord) -> MultipartParameters:
        payload = {k: v for k, v in rec.payload.items()}
        uploads = [
            discord.File(io.BytesIO(f.data), f.filename, description=f.description)
            for f in rec.files
        ]
        if not uploads:
            return MultipartParameters(payload=payload, multipart=[], files=[])
        payload["attachments"] = list(payload.get("attachments", [])) + [
            f.to_dict(i) for i, f in enumerate(uploads)
        ]
        form: list[dict[str, Any]] = [{"name": "payload_json", "value": json.dumps(payload)}]
        form += [
            {
                "name": f"files[{i}]",
                "value": f.fp,
                "filename": f.filename,
                "content_type": "application/octet-stream",
            }
            for i, f in enumerate(uploads)
        ]
        return MultipartParameters(payload=None, multipart=form, files=uploads)
