"""Playing cards as images: white rounded cards with rank, suit, duel value and power.

A card shows its rank and suit in the top-left corner, a big rank and suit in the
middle (red for ♦ ♥, black for ♣ ♠), for a figure (J, Q, K, A) a band with its power
(Sabotage, Espionage, Diplomacy, Wild), and at the bottom a badge with its duel value
(face value, figures 4). Each of the 52 is drawn once per process (supersampled, with a
soft shadow) into a cached RGBA sprite.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render.fonts import font
from rules.pyramids import cards as C

from . import palette

CARD_WIDTH = 112
CARD_HEIGHT = 160
SHADOW = 5
"""Transparent margin around a card sprite, holding its shadow."""
RADIUS = 10

_SS = 3


def ink(card: int) -> palette.RGB:
    """The card's suit colour: red for diamonds and hearts, black for clubs and spades."""
    return palette.CARD_RED if C.suit(card) in (1, 2) else palette.CARD_BLACK


def _face(draw: ImageDraw.ImageDraw, card: int, ox: float, oy: float, k: float) -> None:
    colour = ink(card)
    rank = C.rank_name(card)
    suit = C.SUITS[C.suit(card)]
    w, h = CARD_WIDTH * k, CARD_HEIGHT * k
    draw.rounded_rectangle(
        (ox, oy, ox + w - 1, oy + h - 1),
        RADIUS * k,
        fill=palette.CARD_FACE,
        outline=palette.CARD_EDGE,
        width=max(1, round(1.2 * k)),
    )
    # corner index
    cx = ox + 15 * k
    draw.text((cx, oy + 8 * k), rank, font=font(round(19 * k), bold=True), fill=colour, anchor="mt")
    draw.text((cx, oy + 30 * k), suit, font=font(round(17 * k)), fill=colour, anchor="mt")
    mid = ox + w / 2 + 4 * k
    if C.is_figure(card):
        draw.text(
            (mid, oy + 56 * k), rank, font=font(round(50 * k), bold=True), fill=colour, anchor="mm"
        )
        draw.text((mid, oy + 91 * k), suit, font=font(round(24 * k)), fill=colour, anchor="mm")
        band = palette.FIGURE_BANDS[C.rank(card)]
        top = oy + 106 * k
        draw.rectangle((ox + 1.2 * k, top, ox + w - 1.2 * k, top + 21 * k), fill=band)
        draw.text(
            (ox + w / 2, top + 10.5 * k),
            C.FIGURE_POWERS[C.rank(card)],
            font=font(round(13 * k), bold=True),
            fill=palette.WHITE,
            anchor="mm",
        )
    else:
        size = 50 if len(rank) == 1 else 44
        draw.text(
            (mid, oy + 62 * k),
            rank,
            font=font(round(size * k), bold=True),
            fill=colour,
            anchor="mm",
        )
        draw.text((mid, oy + 104 * k), suit, font=font(round(30 * k)), fill=colour, anchor="mm")
    # duel value badge
    value = str(C.duel_value(card))
    bf = font(round(12 * k), bold=True)
    label = f"duel {value}"
    bw = bf.getlength(label) + 14 * k
    bx, by = ox + w / 2 - bw / 2, oy + h - 26 * k
    draw.rounded_rectangle((bx, by, bx + bw, by + 18 * k), 9 * k, fill=palette.CARD_BADGE)
    draw.text((bx + bw / 2, by + 9.5 * k), label, font=bf, fill=palette.WHITE, anchor="mm")


@lru_cache(maxsize=64)
def card_sprite(card: int) -> Image.Image:
    """The cached RGBA sprite of ``card`` (``CARD_WIDTH + 2 * SHADOW`` wide; do not modify).

    Raises:
        ValueError: not a card (0..51).
    """
    if not 0 <= card < 52:
        raise ValueError(f"no card {card}")
    k = _SS
    w, h = (CARD_WIDTH + 2 * SHADOW) * k, (CARD_HEIGHT + 2 * SHADOW) * k
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    shadow = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle(
        (SHADOW * k + 2 * k, SHADOW * k + 3 * k, w - SHADOW * k + 2 * k, h - SHADOW * k + 3 * k),
        RADIUS * k,
        fill=(0, 0, 0, 120),
    )
    img = Image.alpha_composite(img, shadow.filter(ImageFilter.GaussianBlur(2.5 * k)))
    _face(ImageDraw.Draw(img), card, SHADOW * k, SHADOW * k, k)
    return img.reduce(k)


@lru_cache(maxsize=4)
def empty_slot(label: str = "") -> Image.Image:
    """A dashed card outline (a card not played yet), same size as a card sprite."""
    k = _SS
    w, h = (CARD_WIDTH + 2 * SHADOW) * k, (CARD_HEIGHT + 2 * SHADOW) * k
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = SHADOW * k, SHADOW * k, w - SHADOW * k, h - SHADOW * k
    draw.rounded_rectangle((x0, y0, x1, y1), RADIUS * k, fill=(*palette.PANEL_CARD, 255))
    colour = (*palette.PANEL_FAINT, 255)
    dash, gap = 9 * k, 6 * k
    for a, b, horizontal in (
        ((x0 + RADIUS * k, y0), (x1 - RADIUS * k, y0), True),
        ((x0 + RADIUS * k, y1), (x1 - RADIUS * k, y1), True),
        ((x0, y0 + RADIUS * k), (x0, y1 - RADIUS * k), False),
        ((x1, y0 + RADIUS * k), (x1, y1 - RADIUS * k), False),
    ):
        length = (b[0] - a[0]) if horizontal else (b[1] - a[1])
        pos = 0.0
        while pos < length:
            end = min(pos + dash, length)
            if horizontal:
                draw.line([(a[0] + pos, a[1]), (a[0] + end, a[1])], fill=colour, width=2 * k)
            else:
                draw.line([(a[0], a[1] + pos), (a[0], a[1] + end)], fill=colour, width=2 * k)
            pos += dash + gap
    if label:
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2),
            label,
            font=font(14 * k, bold=True),
            fill=colour,
            anchor="mm",
            align="center",
        )
    return img.reduce(k)


def sort_key(card: int) -> tuple[int, int, int]:
    """Hand order: number cards by rank, then figures J Q K A; each rank by suit."""
    return (1 if C.is_figure(card) else 0, C.rank(card), C.suit(card))
