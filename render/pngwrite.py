"""A palette-mode PNG writer: one zlib stream, deflated by the process's chosen deflater.

The standard library's ``zlib.compress`` by default; a front end may swap in a faster
one with the same signature once per process (:func:`use_deflate`): the bot's drawing
processes use zlib-ng, which makes the same zlib streams about twice as fast at the same
level on a board (SIMD match finding and hashing). The image is deflated in one piece on
the calling thread: the bot draws in a pool of worker processes, one per core, so
splitting one image over threads would only add work (see :mod:`render.encode` for the
numbers). The module keeps no threads, pools or locks, so a process forked at any moment
can go on encoding.

The output is a plain PNG (IHDR, PLTE, one IDAT, IEND) with no row filters, which suits
palette images (Up, Sub and Average filters made boards 15-55% larger and were no faster
to deflate). :func:`write_rows` takes scanlines already laid out (boards: see
:mod:`render.pyramids.compose`). Equal images give equal bytes for one deflater (zlib-ng: for one
build and CPU family, as it picks its match finder by CPU features at run time).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence

from PIL import Image

Deflate = Callable[[bytes, int], bytes]
"""``(data, level) -> zlib stream``: ``zlib.compress`` or a drop-in such as zlib-ng's."""

_deflate: list[Deflate] = [zlib.compress]


def use_deflate(deflate: Deflate) -> None:
    """Deflate every PNG this process writes from now on with ``deflate``."""
    _deflate[0] = deflate


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
    rows: bytes, width: int, height: int, colours: Sequence[int], level: int = 4
) -> bytes:
    """A palette PNG from its raw scanlines: ``height`` rows of a filter byte (0) and
    ``width`` palette indices; ``colours`` is the flat RGB palette (at most 256 entries).

    Raises:
        ValueError: ``rows`` is not ``height * (width + 1)`` bytes long.
    """
    if len(rows) != height * (width + 1):
        raise ValueError(f"{len(rows)} bytes are not {height} rows of {width} pixels")
    body = _deflate[0](rows, level)
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
