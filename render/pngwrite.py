"""A palette-mode PNG writer: one zlib stream, deflated by the process's chosen zlib.

The standard library's :mod:`zlib` by default; a front end may swap in a faster module
with the same interface once per process (:func:`use_zlib`): the bot's drawing
processes use :mod:`bot.deflate` (zlib-ng, which makes the same zlib streams about twice
as fast at the same level on a board, with SIMD match finding and hashing; and ISA-L
for boards). The image is deflated on the calling thread: the bot draws in worker
processes, one per core, so splitting one image over threads would only add work (see
:mod:`render.encode` for the numbers).

The output is a plain PNG (IHDR, PLTE, one IDAT, IEND) with no row filters, which suits
palette images (Up, Sub and Average filters made boards 15-55% larger and were no faster
to deflate). :func:`write_rows` takes scanlines already laid out (boards: see
:mod:`render.pyramids.compose`). Equal images give equal bytes for one zlib (zlib-ng and
ISA-L: for one build and CPU family, as they pick their code by CPU features at run time).

**Bands** (``band_rows``, for images drawn again and again with small changes, such as
a game's boards): the scanlines are cut into bands of that many rows, each deflated on
its own and ended with a full flush (the pigz technique: the segments, an empty final
block and the Adler-32 of all the scanlines make one valid zlib stream). A band's
compressed bytes then depend on its raw bytes alone, so the process keeps them
(:data:`SEGMENTS`, bounded) and a band seen before, on any earlier image, is not
deflated again. A band's key is 96 bits: Python's own hash of the bytes (SipHash-1-3
under a key drawn at random when the process starts, so nobody can aim a collision
at it) and their CRC-32; it costs about half of a SHA-256 (0.35 against 0.75 ms a
board), and a wrong band would take two bands of one process, among the few thousand
kept, agreeing on all 96 bits. The bytes of an image do not depend on
what the process drew before: a test compares cold and warm caches and other processes.

The module keeps no threads or pools; its one lock is replaced in a forked child, so a
process forked at any moment can go on encoding.
"""

from __future__ import annotations

import os
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from types import ModuleType

from PIL import Image

_zlib: list[ModuleType] = [zlib]

SEGMENT_BYTES = 24 * 1024 * 1024
"""Compressed band segments kept per process, in bytes (a board's 50 bands of 16 rows
come to ~90 KB, so about 270 boards' worth)."""


class _Segments:
    """A bounded, thread-safe LRU of compressed bands: (level, hash, CRC-32) -> segment."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        os.register_at_fork(after_in_child=self._fresh_lock)

    def _fresh_lock(self) -> None:
        # a child forked while another thread holds the lock must not inherit it held
        self.lock = threading.Lock()

    def get(self, key: tuple[int, int, int]) -> bytes | None:
        with self.lock:
            seg = self.items.get(key)
            if seg is None:
                self.misses += 1
            else:
                self.hits += 1
                self.items.move_to_end(key)
            return seg

    def put(self, key: tuple[int, int, int], seg: bytes) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= len(old)
            self.items[key] = seg
            self.size += len(seg)
            while self.size > self.limit and self.items:
                _, dropped = self.items.popitem(last=False)
                self.size -= len(dropped)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.size = self.hits = self.misses = 0


SEGMENTS = _Segments(SEGMENT_BYTES)
"""This process's compressed bands (see the module docstring)."""


def use_zlib(module: ModuleType) -> None:
    """Deflate every PNG this process writes from now on with ``module`` (a drop-in for
    the standard :mod:`zlib`: ``compress``, ``compressobj``, ``adler32``), such as
    zlib-ng's ``zlib_ng.zlib_ng``. Kept bands of the previous module are forgotten."""
    _zlib[0] = module
    SEGMENTS.clear()


def _chunk(tag: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + tag
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))
    )


def write_png(image: Image.Image, level: int = 4) -> bytes:
    """Encode a ``P`` image as a PNG, deflated at ``level`` (0-9).

    Raises:
        ValueError: the image is not in ``P`` mode.
    """
    if image.mode != "P":
        raise ValueError(f"write_png needs a P image, not {image.mode}")
    width, height = image.size
    # one filter byte (0: none) before every row: paste one column to the right
    padded = Image.new("P", (width + 1, height), 0)
    padded.paste(image, (1, 0))
    return write_rows(padded.tobytes(), width, height, image.getpalette() or [0, 0, 0], level)


def write_rows(
    rows: bytes,
    width: int,
    height: int,
    colours: Sequence[int],
    level: int = 4,
    *,
    band_rows: int = 0,
) -> bytes:
    """A palette PNG from its raw scanlines: ``height`` rows of a filter byte (0) and
    ``width`` palette indices; ``colours`` is the flat RGB palette (at most 256 entries).
    ``band_rows`` > 0 deflates in bands of that many rows, reusing the kept segments of
    bands seen before (see the module docstring); 0 deflates in one piece.

    Raises:
        ValueError: ``rows`` is not ``height * (width + 1)`` bytes long.
    """
    if len(rows) != height * (width + 1):
        raise ValueError(f"{len(rows)} bytes are not {height} rows of {width} pixels")
    if band_rows > 0:
        body = deflate_bands(rows, band_rows * (width + 1), level)
    else:
        body = _zlib[0].compress(rows, level)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours[: 3 * 256])),
            _chunk(b"IDAT", body),
            _chunk(b"IEND", b""),
        ]
    )


def _zlib_header(level: int) -> bytes:
    """A zlib stream header: deflate, 32 KB window, no preset dictionary, ``level``'s
    FLEVEL hint (as zlib writes it)."""
    cmf = 0x78
    flevel = 0 if level < 2 else 1 if level < 6 else 2 if level == 6 else 3
    flg = flevel << 6
    flg += 31 - (cmf * 256 + flg) % 31
    return bytes((cmf, flg))


EMPTY_FINAL_BLOCK = b"\x03\x00"
"""A final deflate block with no data (fixed Huffman codes): ends the stream of segments."""


def deflate_bands(data: bytes | bytearray, band: int, level: int) -> bytes:
    """A zlib stream of ``data`` deflated in independent ``band``-byte segments, each
    ended with a full flush; a segment kept from before is reused (:data:`SEGMENTS`).

    Each segment depends only on its band's bytes and ``level``: after a full flush the
    compressor starts over (no match reaches back, its hash tables are cleared), as a
    fresh one would."""
    z = _zlib[0]
    data = bytes(data)  # a no-op for bytes; a band's hash needs immutable bytes below
    view = memoryview(data)
    parts = [_zlib_header(level)]
    compressor = None
    for start in range(0, len(data), band):
        chunk = view[start : start + band]
        key = (level, hash(chunk), z.crc32(chunk))
        seg = SEGMENTS.get(key)
        if seg is None:
            if compressor is None:
                compressor = z.compressobj(level, z.DEFLATED, -15)
            seg = compressor.compress(chunk) + compressor.flush(z.Z_FULL_FLUSH)
            SEGMENTS.put(key, seg)
        parts.append(seg)
    parts.append(EMPTY_FINAL_BLOCK)
    parts.append(struct.pack(">I", z.adler32(data) & 0xFFFFFFFF))
    return b"".join(parts)
