"""The deflater of every PNG the bot draws (swapped into the renderer by
:mod:`bot.render_worker`, see :func:`render.pngwrite.use_zlib`): zlib-ng, except at
the fast levels (1 and 2: the boards' level), which go to ISA-L's level 1.

A module with the standard :mod:`zlib`'s interface, as far as the PNG writer uses it.
Boards are deflated in bands that are each ended with a full flush, so every segment
is a plain raw deflate stream: any deflater's segments join into one valid zlib
stream, and ISA-L's, like zlib-ng's, depend only on the band's bytes. Over the bands
of 80 boards of random playouts (all 50 of each deflated, one core): ISA-L level 1
took 1.6 ms a board for 97.5 / 111 KB median / max, zlib-ng level 2 3.4 ms for 93.7 /
107 KB, zlib-ng level 4 5.2 ms for 89.8 / 102 KB. Hands and duels (level 4) stay with
zlib-ng. Both pick their code by CPU features at run time: equal images give equal
bytes in every process of one machine.
"""

from __future__ import annotations

from typing import Any

from isal import isal_zlib
from zlib_ng import zlib_ng

DEFLATED = zlib_ng.DEFLATED
MAX_WBITS = zlib_ng.MAX_WBITS
Z_FULL_FLUSH = zlib_ng.Z_FULL_FLUSH
FAST_LEVELS = frozenset({1, 2})
"""zlib levels deflated by ISA-L (at its level 1)."""
ISAL_LEVEL = 1

crc32 = zlib_ng.crc32
adler32 = zlib_ng.adler32


def compress(data: Any, level: int = -1) -> bytes:
    """``data`` deflated in a zlib stream at ``level`` (see the module docstring)."""
    if level in FAST_LEVELS:
        return isal_zlib.compress(data, ISAL_LEVEL)
    return zlib_ng.compress(data, level)


def compressobj(level: int = -1, method: int = DEFLATED, wbits: int = MAX_WBITS) -> Any:
    """A compressor at ``level`` (see the module docstring); ``wbits`` < 0: raw deflate."""
    if level in FAST_LEVELS:
        return isal_zlib.compressobj(ISAL_LEVEL, method, wbits)
    return zlib_ng.compressobj(level, method, wbits)
