"""Small marks around a piece box: a glow for a new piece, badges, a cross for a loss.

All marks stay inside the field's piece box (``layout.piece_box``), which names never
cover; they are drawn once per process into cached RGBA sprites (supersampled).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render.fonts import font

from . import layout, palette

_SS = 4
BADGE_RADIUS = 10
"""Radius of a corner badge, board pixels."""


@lru_cache(maxsize=4)
def glow() -> Image.Image:
    """A soft light ellipse the size of the piece box, put under a piece just placed."""
    w, h = layout.PIECE_WIDTH, layout.PIECE_HEIGHT
    img = Image.new("RGBA", (w * 2, h * 2), (*palette.HIGHLIGHT, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((w * 0.35, h * 0.55, w * 1.65, h * 1.78), fill=(*palette.HIGHLIGHT, 235))
    blurred = img.filter(ImageFilter.GaussianBlur(7))
    return blurred.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def badge(text: str, fill: palette.RGB, ink: palette.RGB = palette.WHITE) -> Image.Image:
    """A round badge with a short text, ``2 * BADGE_RADIUS + 4`` pixels across."""
    d = (2 * BADGE_RADIUS + 4) * _SS
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, d - 1, d - 1), fill=(*palette.WHITE, 255))
    inset = 2 * _SS
    draw.ellipse((inset, inset, d - 1 - inset, d - 1 - inset), fill=(*fill, 255))
    size = 13 if len(text) < 2 else 11
    draw.text(
        (d / 2, d / 2 + _SS * 0.5), text, font=font(size * _SS, bold=True), fill=ink, anchor="mm"
    )
    return img.reduce(_SS)


@lru_cache(maxsize=4)
def cross() -> Image.Image:
    """A bold red cross with a white rim, the size of the piece box (a destroyed piece)."""
    w, h = layout.PIECE_WIDTH * _SS, layout.PIECE_HEIGHT * _SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    m = 17 * _SS
    top, bottom = 26 * _SS, h - 8 * _SS
    for width, colour in ((10 * _SS, palette.WHITE), (5 * _SS, palette.ALERT)):
        draw.line([(m, top), (w - m, bottom)], fill=(*colour, 255), width=width)
        draw.line([(w - m, top), (m, bottom)], fill=(*colour, 255), width=width)
    return img.reduce(_SS)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste an RGBA ``sprite`` with its centre on ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)


def corner(anchor: tuple[float, float], which: str) -> tuple[float, float]:
    """Centre of a corner badge inside the piece box: ``which`` is "tl" or "tr"."""
    half_w = layout.PIECE_WIDTH / 2 - BADGE_RADIUS
    top = anchor[1] - layout.PIECE_HEIGHT / 2 + BADGE_RADIUS + 2
    return (anchor[0] + (half_w if which == "tr" else -half_w), top)
