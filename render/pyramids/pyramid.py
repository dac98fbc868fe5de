"""Looney pyramids: a piece seen from the side, in its owner's colour, with its pips.

A piece is a triangle split into two faces (the left, lit one in its side's colour,
the right one in its shade), outlined in the side's outline colour, with 1, 2 or 3
pips along its base. The three sizes have clearly different heights (small 30, medium
46, large 62 pixels at board scale), so size reads from the height and the pips, and
the side (a power or a continent) from its colour-blind-checked colour
(:mod:`render.pyramids.palette`).

Pieces are drawn once per process into small RGBA *sprites* (4x supersampled, then
reduced) that are pasted onto board images; sprites are cached and never modified.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from rules import pyramids

from . import layout, palette

SMALL, MEDIUM, LARGE = 1, 2, 3
SIZE_NAMES: dict[int, str] = {SMALL: "small", MEDIUM: "medium", LARGE: "large"}

PYRAMID_SIZE: dict[int, tuple[int, int]] = {SMALL: (26, 30), MEDIUM: (37, 46), LARGE: (48, 62)}
"""Base width and height of each size, in board pixels."""

BASE_Y: float = 65.0
"""Where the base sits inside the piece box (``layout.PIECE_HEIGHT`` tall), from its top."""

_SS = 4
"""Supersampling factor of the sprites."""
_PIP_RADIUS = 3.6
_OUTLINE = 2.0

SPRITE_SIZE: tuple[int, int] = (layout.PIECE_WIDTH, layout.PIECE_HEIGHT)


def corners(
    size: int, cx: float, base_y: float, scale: float = 1.0
) -> tuple[tuple[float, float], ...]:
    """The pyramid's outline points: left corner, front corner, right corner, apex.

    The front corner (the foot of the ridge between the two visible faces) sits a little
    right of centre and a little lower, which gives the three-quarter view.
    """
    base_w, base_h = PYRAMID_SIZE[size]
    w, h = base_w * scale, base_h * scale
    drop = 2.5 * scale
    left = (cx - w / 2, base_y - drop)
    front = (cx + w * 0.12, base_y + drop * 0.4)
    right = (cx + w / 2, base_y - drop)
    apex = (cx, base_y - h)
    return (left, front, right, apex)


def pip_centres(
    size: int, cx: float, base_y: float, scale: float = 1.0
) -> list[tuple[float, float]]:
    """Centres of the ``size`` pips: a row just above the base."""
    r = _PIP_RADIUS * scale
    y = base_y - 2.5 * scale - r - 3.0 * scale
    step = 2.7 * r
    x0 = cx + 0.06 * PYRAMID_SIZE[size][0] * scale - step * (size - 1) / 2
    return [(x0 + i * step, y) for i in range(size)]


def draw_pyramid(
    draw: ImageDraw.ImageDraw, size: int, side: str, cx: float, base_y: float, scale: float = 1.0
) -> None:
    """Draw a piece of ``side`` (a power or continent id) directly (no antialiasing) with
    its base centred at ``(cx, base_y)``.

    ``scale`` multiplies every length (use the canvas's supersampling factor).
    """
    colour = palette.side_colour(side)
    left, front, right, apex = corners(size, cx, base_y, scale)
    lit, shade = palette.faces(colour.fill)
    draw.polygon([left, front, apex], fill=lit)
    draw.polygon([front, right, apex], fill=shade)
    width = max(1, round(_OUTLINE * scale))
    ridge = palette.mix(colour.fill, colour.outline, 0.55)
    draw.line([front, apex], fill=ridge, width=max(1, width // 2))
    draw.line(
        [left, front, right, apex, left, front], fill=colour.outline, width=width, joint="curve"
    )
    r = _PIP_RADIUS * scale
    ring = max(1, round(0.9 * scale))
    for px, py in pip_centres(size, cx, base_y, scale):
        draw.ellipse(
            (px - r, py - r, px + r, py + r), fill=colour.text, outline=colour.outline, width=ring
        )


def _draw_ghost(
    draw: ImageDraw.ImageDraw, size: int, side: str, cx: float, base_y: float, scale: float
) -> None:
    colour = palette.side_colour(side)
    left, front, right, apex = corners(size, cx, base_y, scale)
    draw.polygon([left, front, right, apex], fill=(*colour.fill, 90))
    dash = [left, front, right, apex, left]
    width = max(1, round(_OUTLINE * scale))
    for i in range(len(dash) - 1):
        (x0, y0), (x1, y1) = dash[i], dash[i + 1]
        steps = 7
        for k in range(steps):
            if k % 2:
                continue
            t0, t1 = k / steps, (k + 1) / steps
            draw.line(
                [
                    (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0),
                    (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
                ],
                fill=(*colour.outline, 230),
                width=width,
            )


@lru_cache(maxsize=256)
def sprite(side: str, size: int, scale: float = 1.0, ghost: bool = False) -> Image.Image:
    """Return a cached RGBA sprite of one piece of ``side`` (do not modify it).

    The sprite is the piece box (``SPRITE_SIZE`` times ``scale``): paste it with its top
    left at ``anchor - box / 2`` so the piece stands on its field's anchor. A ``ghost``
    is a faint dashed outline, for a piece that is no longer there (or no longer that big).

    Raises:
        KeyError: size outside 1..3.
    """
    if size not in PYRAMID_SIZE:
        raise KeyError(size)
    w = round(SPRITE_SIZE[0] * scale)
    h = round(SPRITE_SIZE[1] * scale)
    k = _SS * scale
    big = Image.new("RGBA", (w * _SS, h * _SS), (0, 0, 0, 0))
    cx, base = w * _SS / 2, BASE_Y * k
    if not ghost:
        shadow = Image.new("RGBA", big.size, (0, 0, 0, 0))
        sw = (PYRAMID_SIZE[size][0] / 2 + 5) * k
        ImageDraw.Draw(shadow).ellipse(
            (cx - sw, base - 3.5 * k, cx + sw, base + 3.5 * k), fill=(10, 14, 20, 110)
        )
        big = Image.alpha_composite(big, shadow.filter(ImageFilter.GaussianBlur(1.6 * k)))
    draw = ImageDraw.Draw(big)
    if ghost:
        _draw_ghost(draw, size, side, cx, base, k)
    else:
        draw_pyramid(draw, size, side, cx, base, k)
    return big.reduce(_SS)


def paste(
    canvas: Image.Image,
    side: str,
    size: int,
    centre: tuple[float, float],
    scale: float = 1.0,
    ghost: bool = False,
) -> None:
    """Paste a piece of ``side`` onto ``canvas`` (RGB or RGBA) with its box centred on
    ``centre``."""
    sp = sprite(side, size, scale, ghost)
    x = round(centre[0] - sp.width / 2)
    y = round(centre[1] - sp.height / 2)
    canvas.paste(sp, (x, y), sp)


def side_of(view: pyramids.View, seat: int) -> str:
    """The side (power or continent id) that ``seat`` plays in ``view``: what colours its
    pieces ("" for a seat the view does not have: the fallback grey)."""
    return view.seats[seat].power if 0 <= seat < len(view.seats) else ""
