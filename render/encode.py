"""PNG encoding: palette-mode PNGs, which are far smaller and faster than RGB ones.

Two ways to reach 256 colours:

- a *fixed* palette (:func:`fixed_palette`), built once per process from a sample image
  plus colours that must be in it (piece colours, text); mapping an image onto it costs
  ~1 ms for a board. Pillow maps through a cache of 4x4x4-value cells, so a colour may
  come out as a palette neighbour a few values away; :func:`mapped_colour` tells which
  (pixel checks compare against it);
- an *adaptive* palette (fast octree) per image, for images with no fixed palette.

Measured on a 1280x800 board (Pillow 13, one core): RGB PNG level 6 ~35 ms and ~390 KB;
fixed-palette mapping ~1.1 ms, then zlib level 1 ~3.5 ms / ~117 KB, level 3 ~4 ms /
~112 KB, level 6 ~8 ms / ~103 KB, level 9 ~44 ms / ~100 KB; adaptive octree quantizing
alone ~6 ms. Level 4 is the default: level 3 is ~1.3 ms faster, but boards from
random playouts reach ~123 KB with it (level 4: at most ~116 KB). No dithering: flat
map colours stay flat and compress well. The zlib work of a board is split over two
threads (:mod:`render.pngwrite`), which halves it in wall time when a core is free.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from .palette import RGB
from .pngwrite import write_png

DEFAULT_LEVEL = 4
"""zlib level of the PNG data (see the module docstring for the trade-off)."""
PARALLEL_ROWS = 400
"""Images this tall or taller are deflated in two bands on two threads."""


def fixed_palette(sample: Image.Image, reserved: Iterable[RGB], colours: int = 256
                  ) -> Image.Image:
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
        q = sample.convert("RGB").quantize(room, method=Image.Quantize.MEDIANCUT,
                                           dither=Image.Dither.NONE)
        flat = q.getpalette() or []
        used = sorted({i for i in range(256) if q.histogram()[i]})
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


def png_bytes(image: Image.Image, palette: Image.Image | None = None,
              level: int = DEFAULT_LEVEL) -> bytes:
    """Encode ``image`` as a palette-mode PNG (see :func:`to_palette`).

    Images of at least ``PARALLEL_ROWS`` rows are deflated in two bands at once
    (:mod:`render.pngwrite`); the bytes are the same whatever the machine.
    """
    indexed = to_palette(image, palette)
    return write_png(indexed, level, bands=2 if indexed.height >= PARALLEL_ROWS else 1)
