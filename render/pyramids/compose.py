"""A board's palette-mode scanlines, built from what changed rather than the whole image.

Mapping a whole 1280x800 board onto its palette costs ~2 ms, nearly all of it per pixel
(Pillow's colour cache is cheap). Most of a board is its static layer, so each process
keeps that layer already mapped, as PNG scanlines (a filter byte, then the row). A board
is drawn in RGB on a canvas each thread keeps per layout (put back to the static layer
where it was drawn on, after each board: cheaper than copying the 4 MB layer), then:
a copy of the mapped scanlines; the regions drawn this time (:class:`Drawn.dirty`,
merged into a few boxes) mapped and pasted in; the side panel's parts and the *lone*
pieces (nothing else touches their boxes) pasted from caches of mapped patches. Mapping
is per pixel, so this gives exactly the indices of mapping the whole image, and equal
boards give equal bytes whatever was drawn before.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

import rules
from rules import i18n, pyramids

from . import layout, pyramid
from .board import Box, draw_board
from .png_palette import board_palette
from .static_layer import static_board

PANEL_PART_BYTES = 48 * 1024 * 1024
"""Mapped panel parts kept per process, in bytes (seat rows, status boxes, footers...:
20-41 KB each, one byte a pixel; about 25 per game in play). A game's next board
finds its unchanged parts only if they are still kept: with 100 games interleaved, 512
parts (~13 MB) kept too few and the panel cost 3.6-4.3 ms a board; 48 MB keeps every
part of ~80 games (2.1-2.5 ms)."""

UNCACHED_PARTS = frozenset({"last action"})
"""Panel parts that (nearly) never repeat: drawn every time, not kept."""

MERGE_SLACK = 6000
"""Two dirty boxes are mapped as one when their bounding box has at most this many
pixels more than the two apart: one more mapping call costs about as much as mapping
that many pixels."""


def _map(image: Image.Image, pal: Image.Image) -> Image.Image:
    return image.quantize(palette=pal, dither=Image.Dither.NONE)


def static_rows(board_id: str, arcade: bool) -> Image.Image:
    """The static layer mapped onto the board's palette, one column wider: column 0 holds
    each PNG scanline's filter byte (0). Cached per process and language; do not modify
    it."""
    return _static_rows(board_id, arcade, i18n.current())


@lru_cache(maxsize=16)
def _static_rows(board_id: str, arcade: bool, locale: str) -> Image.Image:
    static = static_board(board_id, arcade)
    rows = Image.new("P", (static.width + 1, static.height), 0)
    rows.paste(_map(static, board_palette(board_id, arcade)), (1, 0))
    return rows


@lru_cache(maxsize=4096)
def piece_patch(
    board_id: str, arcade: bool, box: Box, side: str, size: int, locale: str
) -> Image.Image:
    """A piece over the static layer of ``locale`` (the current language when called) in
    ``box``, mapped onto the palette (cached; a few KB each, at most fields x 6 sides x 3
    sizes per board and language)."""
    patch = static_board(board_id, arcade).crop(box)
    sprite = pyramid.sprite(side, size)
    patch.paste(sprite, (0, 0), sprite)
    return _map(patch, board_palette(board_id, arcade))


def _area(b: Box) -> int:
    return (b[2] - b[0]) * (b[3] - b[1])


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def merge(boxes: list[Box], size: tuple[int, int], slack: int = MERGE_SLACK) -> list[Box]:
    """Clip ``boxes`` to an image of ``size`` and merge those whose bounding box wastes
    at most ``slack`` pixels (repeatedly), so that few mapping calls cover them all."""
    w, h = size
    out: list[Box] = []
    for b in boxes:
        c = (max(0, b[0]), max(0, b[1]), min(w, b[2]), min(h, b[3]))
        if c[0] < c[2] and c[1] < c[3]:
            out.append(c)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                u = _union(out[i], out[j])
                if _area(u) - _area(out[i]) - _area(out[j]) <= slack:
                    out[i] = u
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


class _Parts:
    """A bounded, thread-safe cache of mapped panel parts (least recently used go first).

    Keys hold everything a part shows and the palette it was mapped onto, so a part is
    the same pixels whatever board first drew it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        """The most bytes (pixels) of parts kept."""
        self.size = 0
        """The bytes of the parts kept now."""
        self.items: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
        self.lock = threading.Lock()
        os.register_at_fork(after_in_child=self._fresh_lock)

    def _fresh_lock(self) -> None:
        # a child forked while another thread holds the lock must not inherit it held
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Image.Image | None:
        with self.lock:
            part = self.items.get(key)
            if part is not None:
                self.items.move_to_end(key)
            return part

    def put(self, key: tuple[Any, ...], part: Image.Image) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= old.width * old.height
            self.items[key] = part
            self.size += part.width * part.height
            while self.size > self.limit and self.items:
                _, dropped = self.items.popitem(last=False)
                self.size -= dropped.width * dropped.height

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.size = 0


PARTS = _Parts(PANEL_PART_BYTES)

_SCRATCH = threading.local()
"""Per thread: an RGB canvas per board layout, equal to its static layer between boards
(drawn on, then the drawn boxes put back: cheaper than copying the 4 MB layer)."""


def _take_canvas(board_id: str, arcade: bool) -> Image.Image:
    canvases: dict[tuple[str, bool, str], Image.Image] = _SCRATCH.__dict__.setdefault(
        "canvases", {}
    )
    canvas = canvases.pop((board_id, arcade, i18n.current()), None)
    return canvas if canvas is not None else static_board(board_id, arcade).copy()


def _give_back(canvas: Image.Image, board_id: str, arcade: bool, touched: list[Box]) -> None:
    static = static_board(board_id, arcade)
    for box in merge(touched, canvas.size):
        canvas.paste(static.crop(box), box)
    _SCRATCH.__dict__.setdefault("canvases", {})[(board_id, arcade, i18n.current())] = canvas


def board_rows(
    view: pyramids.View, names: Sequence[str], events: Sequence[rules.Event], arcade: bool
) -> tuple[bytes, tuple[int, int]]:
    """Draw a board and return its PNG scanlines (filter byte 0, then palette indices)
    and its size; the bytes equal those of mapping the whole :func:`board_image`."""
    pal = board_palette(view.board_id, arcade)
    patches: list[tuple[Image.Image, Box]] = []
    fresh: list[Box] = []
    parts_drawn: list[Box] = []

    def element(
        canvas: Image.Image, key: tuple[Any, ...], box: Box, draw: Callable[[], None]
    ) -> None:
        if key[0] in UNCACHED_PARTS:
            draw()
            fresh.append(box)
            return
        full = (view.board_id, arcade, i18n.current(), box, key)
        part = PARTS.get(full)
        if part is None:
            draw()
            parts_drawn.append(box)
            part = _map(canvas.crop(box), pal)
            PARTS.put(full, part)
        patches.append((part, box))

    # a canvas left half drawn by an error is dropped (never given back)
    canvas = _take_canvas(view.board_id, arcade)
    drawn = draw_board(
        view, names, events, arcade, lone_pieces=True, element=element, canvas=canvas
    )
    rows = static_rows(view.board_id, arcade).copy()
    for box in merge(drawn.dirty + fresh, layout.BOARD_SIZE):
        rows.paste(_map(canvas.crop(box), pal), (box[0] + 1, box[1]))
    _give_back(canvas, view.board_id, arcade, drawn.dirty + fresh + parts_drawn)
    for _field, side, size, box in drawn.lone:
        patch = piece_patch(view.board_id, arcade, box, side, size, i18n.current())
        patches.append((patch, box))
    for part, box in patches:
        rows.paste(part, (box[0] + 1, box[1]))
    return rows.tobytes(), canvas.size
