"""PNG encoding: palette-mode PNGs, which are far smaller and faster than RGB ones.

Two ways to reach 256 colours:

- a *fixed* palette (:func:`fixed_palette`), built once per process from a sample image
  plus colours that must be in it (piece colours, text); mapping an image onto it costs
  ~1 ms for a board. Pillow maps through a cache of 4x4x4-value cells, so a colour may
  come out as a palette neighbour a few values away; :func:`mapped_colour` tells which
  (pixel checks compare against it);
- an *adaptive* palette (fast octree) per image, for images with no fixed palette.

Measured on a 1280x800 board (Pillow 13, one core): RGB PNG level 6 ~35 ms and ~390 KB;
fixed-palette mapping ~1.1 ms; adaptive octree quantizing alone ~6 ms. Deflating the
palette data (1 MB) with zlib-ng (the bot's deflater, :mod:`render.pngwrite`) takes, against
the standard zlib at the same level, ~0.5x at level 1, ~0.4x at level 2, ~0.7x at level 3,
~0.55x at level 4 and ~0.55x at level 6. Over 100 boards of random playouts on the flat
map (:mod:`render.pyramids.static_layer`), CPU median and PNG size median / max: level 1 1.6 ms,
115 / 130 KB; level 2 2.4 ms, 90 / 100 KB; level 3 3.6 ms, 87 / 97 KB; level 4 4.6 ms,
84 / 94 KB (the RLE strategy: 2.2 ms but up to 124 KB). Level 4 is the default (as with
the standard zlib before); boards, drawn after every action, use level 2
(:data:`render.pyramids.BOARD_LEVEL`). No dithering: flat map colours stay flat and
compress well. A board is deflated in one piece: split in two bands on two threads it
finished sooner alone, but in the bot's pool of one worker process per core the second
thread only competes with the other workers and costs ~0.7 ms more CPU per board.
Boards are deflated in row bands, each after a full flush, so that a band equal to one
deflated before is not deflated again (:mod:`render.pngwrite`): every row crosses the
side panel, which changes on every board, so over distinct positions of many games few
bands match, but the bot draws a game's board after every action, and successive boards
of a game share ~69% of their 16-row bands (the flushes make deflating the others ~20%
slower and the PNG ~6 KB larger). Zlib-ng's other settings at level 4 (window, memory
level, strategy, PNG row filters) were no faster or gave larger files.

Boards do not go through :func:`png_bytes`: :mod:`render.pyramids.compose` maps only what was
drawn on each board onto the fixed palette (same indices, far fewer pixels).
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from .palette import RGB
from .pngwrite import write_png

DEFAULT_LEVEL = 4
"""zlib level of the PNG data (see the module docstring for the trade-off)."""


def fixed_palette(sample: Image.Image, reserved: Iterable[RGB], colours: int = 256) -> Image.Image:
    """Build a palette image: the ``reserved`` colours exactly, then the ``sample``'s own.

    The rest of the ``colours`` entries come from median-cut quantizing ``sample`` (RGB).
    The result is a 1x1 ``P`` image to pass to :func:`png_bytes`.

    Raises:
        ValueError: more reserved colours than ``colours``.
    """
    exact: list[RGB] = []
    for c in reserved:
        c = (int(c[0]), int(c[1]), int(c[2]))
        if c not in exact:
            exact.append(c)
    room = colours - len(exact)
    if room < 0:
        raise ValueError(f"{len(exact)} reserved colours do not fit in {colours}")
    entries = list(exact)
    if room:
        q = sample.convert("RGB").quantize(
            room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
        flat = q.getpalette() or []
        counts = q.histogram()
        used = [i for i in range(256) if counts[i]]
        for i in used:
            c = (flat[3 * i], flat[3 * i + 1], flat[3 * i + 2])
            if c not in entries:
                entries.append(c)
    entries = entries[:colours]
    flat_out = [v for c in entries for v in c]
    flat_out += list(entries[0]) * (256 - len(entries))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat_out)
    return pal


def to_palette(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """Map an RGB ``image`` to a ``P`` image: onto ``palette``, or an adaptive one."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if palette is not None:
        return rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    return rgb.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def mapped_colour(colour: RGB, palette: Image.Image) -> RGB:
    """The colour that ``colour`` becomes when an image is mapped onto ``palette``."""
    one = to_palette(Image.new("RGB", (1, 1), colour), palette).convert("RGB")
    px = one.getpixel((0, 0))
    assert isinstance(px, tuple)
    return (int(px[0]), int(px[1]), int(px[2]))


def png_bytes(
    image: Image.Image, palette: Image.Image | None = None, level: int = DEFAULT_LEVEL
) -> bytes:
    """Encode ``image`` as a palette-mode PNG (see :func:`to_palette`); equal images
    give equal bytes in every process."""
    return write_png(to_palette(image, palette), level)
