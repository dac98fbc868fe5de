"""A palette-mode PNG writer that deflates the image in bands on several threads.

zlib releases the GIL, so the bands of one image compress at the same time on a
multi-core machine (as pigz does): each band but the last ends with a sync flush, and
each band after the first is primed with the 32 KB of image data before it (``zdict``),
so the bands join into one ordinary zlib stream and compress almost as well as one
piece. The output is a plain PNG (IHDR, PLTE, one IDAT, IEND) with no row filters,
which suits palette images. Rows are numbered the same way every time, so equal
images give equal bytes.
"""

from __future__ import annotations

import struct
import zlib
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

WINDOW = 32 * 1024
"""Deflate's window: how much earlier data a band may refer to."""

_POOL = ThreadPoolExecutor(max_workers=3, thread_name_prefix="render-png")


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def _deflate(raw: memoryview, start: int, end: int, level: int, last: bool) -> bytes:
    zdict = bytes(raw[max(0, start - WINDOW):start])
    if zdict:
        comp = zlib.compressobj(level, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, zdict)
    else:
        comp = zlib.compressobj(level, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY)
    out = comp.compress(raw[start:end])
    return out + comp.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def _zlib_header(level: int) -> bytes:
    cmf = 0x78  # deflate, 32 KB window
    flevel = 0 if level <= 1 else (1 if level <= 5 else (2 if level == 6 else 3))
    flg = flevel << 6
    flg += (31 - (cmf * 256 + flg) % 31) % 31
    return bytes((cmf, flg))


def write_png(image: Image.Image, level: int = 4, bands: int = 2) -> bytes:
    """Encode a ``P`` image as a PNG, deflating ``bands`` row bands in parallel.

    Raises:
        ValueError: the image is not in ``P`` mode.
    """
    if image.mode != "P":
        raise ValueError(f"write_png needs a P image, not {image.mode}")
    width, height = image.size
    # one filter byte (0: none) before every row: paste one column to the right
    padded = Image.new("P", (width + 1, height), 0)
    padded.paste(image, (1, 0))
    raw = memoryview(padded.tobytes())
    row = width + 1
    bands = max(1, min(bands, height))
    cuts = [round(height * i / bands) * row for i in range(bands + 1)]
    jobs = [_POOL.submit(_deflate, raw, cuts[i], cuts[i + 1], level, False)
            for i in range(bands - 1)]
    tail = _deflate(raw, cuts[-2], cuts[-1], level, True)
    body = b"".join([_zlib_header(level), *(job.result() for job in jobs), tail,
                     struct.pack(">I", zlib.adler32(raw))])
    colours = image.getpalette() or [0, 0, 0]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", bytes(colours[: 3 * 256])),
        _chunk(b"IDAT", body),
        _chunk(b"IEND", b""),
    ])
