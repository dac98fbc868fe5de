"""The bot's one door to the renderer: every image is drawn and encoded in a worker thread
(``asyncio.to_thread``), so the event loop never encodes a PNG (ARCHITECTURE rule 7).

If drawing fails (a renderer bug must not stop a game), a small plain placeholder is sent
instead and the fault is logged. The board of a game version is cached, so ``/board``
right after an action costs nothing.
"""

from __future__ import annotations

import asyncio
import heapq
import io
import logging
import os
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from PIL import Image, ImageDraw

import render
import rules

log = logging.getLogger("bot.images")

BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
DUEL_FILE = "duel.png"
ALT_LIMIT = 1024


@dataclass(frozen=True, slots=True)
class Picture:
    """PNG bytes with a file name and alt text (the attachment's description)."""

    data: bytes
    filename: str
    description: str

    def file(self) -> discord.File:
        """A fresh upload of this picture (a ``discord.File`` is consumed when sent)."""
        return discord.File(io.BytesIO(self.data), self.filename,
                            description=self.description)


def _placeholder(text: str) -> bytes:
    image = Image.new("RGB", (480, 120), (236, 232, 220))
    ImageDraw.Draw(image).text((12, 50), text[:70], fill=(40, 40, 40))
    buf = io.BytesIO()
    image.save(buf, "PNG")
    return buf.getvalue()


def _board_sync(view: rules.View, names: Sequence[str],
                events: Sequence[rules.Event]) -> tuple[bytes, str]:
    try:
        summary = render.board_summary(view, names)
    except Exception:
        log.exception("board summary failed")
        summary = "The board."
    try:
        return render.board_png(view, names, events), summary
    except Exception:
        log.exception("board image failed")
        return _placeholder("The board image could not be drawn; see /status."), summary


def _hand_sync(cards: Sequence[int], title: str) -> bytes:
    try:
        return render.hand_png(cards, title=title)
    except Exception:
        log.exception("hand image failed")
        return _placeholder("Your cards are listed in the message.")


def _duel_sync(view: rules.View, names: Sequence[str], result: rules.Event | None,
               events: Sequence[rules.Event]) -> bytes:
    try:
        return render.duel_png(view, names, result, events=events)
    except Exception:
        log.exception("duel image failed")
        return _placeholder("The duel is described in the message.")


class _Gate:
    """At most ``slots`` drawings at once; channel images (urgent) go before hands.

    Drawing holds the GIL much of the time: more threads than cores only slow every
    drawing down and starve the event loop, so the gate keeps them to the cores."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.order = 0

    async def __call__(self, urgent: bool, fn: Any, *args: Any) -> Any:
        if self.free > 0 and not self.waiting:
            self.free -= 1
        else:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.order += 1
            heapq.heappush(self.waiting, (0 if urgent else 1, self.order, fut))
            try:
                await fut
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled():
                    self._release()
                raise
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self._release()

    def _release(self) -> None:
        while self.waiting:
            _, _, fut = heapq.heappop(self.waiting)
            if not fut.done():
                fut.set_result(None)
                return
        self.free += 1


class Images:
    """Renders off the event loop (a few worker threads at a time, the channel's images
    first), with a small cache of recent boards."""

    def __init__(self, cache_size: int = 64, threads: int | None = None) -> None:
        self._boards: OrderedDict[tuple[int, int], tuple[bytes, str]] = OrderedDict()
        self._size = cache_size
        self._gate = _Gate(threads or max(1, min(4, os.cpu_count() or 1)))

    async def board(self, view: rules.View, names: Sequence[str],
                    events: Sequence[rules.Event] = (), *,
                    key: tuple[int, int] | None = None) -> Picture:
        """The board PNG with its text summary as alt text. ``key`` (game id, version)
        caches it; a cached board is reused only when no events are to be drawn."""
        cached = self._boards.get(key) if key is not None else None
        if cached is not None and not events:
            data, alt = cached
        else:
            data, alt = await self._gate(True, _board_sync, view, tuple(names), tuple(events))
            if key is not None:
                self._boards[key] = (data, alt)
                self._boards.move_to_end(key)
                while len(self._boards) > self._size:
                    self._boards.popitem(last=False)
        return Picture(data, BOARD_FILE, alt[:ALT_LIMIT])

    async def hand(self, cards: Sequence[int], title: str = "") -> Picture:
        """A hand of cards."""
        data = await self._gate(False, _hand_sync, tuple(cards), title)
        from rules.cards import card_name

        alt = "Your cards: " + (", ".join(card_name(c) for c in sorted(cards)) or "none")
        return Picture(data, HAND_FILE, alt[:ALT_LIMIT])

    async def duel(self, view: rules.View, names: Sequence[str],
                   result: rules.Event | None = None,
                   events: Sequence[rules.Event] = ()) -> Picture:
        """A duel in progress (from ``view.battle``) or its result (``duel_over``)."""
        data = await self._gate(True, _duel_sync, view, tuple(names), result, tuple(events))
        return Picture(data, DUEL_FILE, "The duel: cards played face up and totals.")

    async def warm_up(self) -> None:
        """Build the renderer's caches (static layers, palettes, sprites) in a thread and
        draw one board of each variant, so the first real image is fast."""
        warm = getattr(render, "warm_up", None)
        if warm is not None:
            try:
                await asyncio.to_thread(warm)
            except Exception:
                log.exception("warming up the renderer failed")
        for variant in ("european_war", "world_war_5"):
            try:
                count = 3
                game, _ = rules.new_game(variant, [None] * count, seed=1)
                await self.board(rules.view_for(game, None), [f"P{i}" for i in range(count)])
            except Exception:
                log.exception("warming up the %s board failed", variant)
