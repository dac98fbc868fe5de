"""A player's hand: the cards in rows on a dark background, with an optional title.

Order: number cards by rank (2..10), then figures (J, Q, K, A), each rank by suit
(♣ ♦ ♥ ♠) — see :func:`render.cards.sort_key`. Up to ``PER_ROW`` cards per row.

The hand of a seat whose side is known carries that side's colour, as its pieces do on
the board and in the duel: a band of it across the top, and one of its pieces before
the title.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render.fonts import font
from render.text import fit_text, put

from . import palette, pyramid
from .cards import CARD_HEIGHT, CARD_WIDTH, SHADOW, card_sprite, empty_slot, sort_key
from .catalogue import _, n_

PAD = 16
GAP = 10
PER_ROW = 8
TITLE_HEIGHT = 34
EMPTY_WIDTH = 420
BAND = 4
"""Height of the side's colour across the top."""
PIECE_SCALE = 0.42
"""The side's piece before the title, at this share of its size on the board."""
PIECE_ROOM = 30
"""What the piece takes from the title's line."""

Box = tuple[int, int, int, int]


def hand_layout(count: int, title: bool = False) -> tuple[tuple[int, int], list[Box]]:
    """The image size of a hand of ``count`` cards and each card's box (in hand order)."""
    top = PAD + (TITLE_HEIGHT if title else 0)
    if count == 0:
        return (EMPTY_WIDTH, top + CARD_HEIGHT + PAD), []
    cols = min(count, PER_ROW)
    rows = (count + PER_ROW - 1) // PER_ROW
    width = 2 * PAD + cols * CARD_WIDTH + (cols - 1) * GAP
    height = top + rows * CARD_HEIGHT + (rows - 1) * GAP + PAD
    boxes = []
    for i in range(count):
        r, c = divmod(i, PER_ROW)
        x = PAD + c * (CARD_WIDTH + GAP)
        y = top + r * (CARD_HEIGHT + GAP)
        boxes.append((x, y, x + CARD_WIDTH, y + CARD_HEIGHT))
    return (max(width, EMPTY_WIDTH if title else width), height), boxes


def ordered(cards: Sequence[int]) -> list[int]:
    """``cards`` in hand order."""
    return sorted(cards, key=sort_key)


def hand_image(cards: Sequence[int], *, title: str = "", side: str | None = None) -> Image.Image:
    """Draw a hand (RGB); ``side`` (a power or continent id) gives it that side's colour.
    Raises ValueError for a value that is not a card (0..51)."""
    hand = ordered(cards)
    for c in hand:
        if not 0 <= c < 52:
            raise ValueError(f"no card {c}")
    size, boxes = hand_layout(len(hand), bool(title))
    img = Image.new("RGB", size, palette.PANEL_BACKGROUND)
    if side is not None:
        img.paste(palette.side_colour(side).fill, (0, 0, size[0], BAND))
    if title:
        x = PAD
        if side is not None:
            sp = pyramid.sprite(side, pyramid.LARGE, PIECE_SCALE)
            base = PAD + 22  # where the piece stands: level with the title's baseline
            img.paste(sp, (PAD - 8, base - round(pyramid.BASE_Y * PIECE_SCALE)), sp)
            x += PIECE_ROOM
        text, tf = fit_text((title,), size[0] - x - PAD - 80, (18, 16, 14), bold=True)
        put(img, (x, PAD + 10), text, tf, palette.PANEL_TEXT, "lm")
        count = n_("{n} card", "{n} cards", len(hand)).format(n=len(hand))
        put(img, (size[0] - PAD, PAD + 10), count, font(14), palette.PANEL_MUTED, "rm")
    if not hand:
        top = PAD + (TITLE_HEIGHT if title else 0)
        slot = empty_slot()
        img.paste(slot, (PAD - SHADOW, top - SHADOW), slot)
        put(
            img,
            (PAD + CARD_WIDTH + 24, top + CARD_HEIGHT / 2),
            _("No cards in hand"),
            font(20, bold=True),
            palette.PANEL_MUTED,
            "lm",
        )
        return img
    for card, (x, y, _r, _b) in zip(hand, boxes, strict=True):
        sp = card_sprite(card)
        img.paste(sp, (x - SHADOW, y - SHADOW), sp)
    return img
