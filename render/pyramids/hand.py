"""A player's hand: the cards in rows on a dark background, with an optional title.

Order: number cards by rank (2..10), then figures (J, Q, K, A), each rank by suit
(♣ ♦ ♥ ♠) — see :func:`render.cards.sort_key`. Up to ``PER_ROW`` cards per row.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render.fonts import font
from render.text import fit_text, put

from . import palette
from .cards import CARD_HEIGHT, CARD_WIDTH, SHADOW, card_sprite, empty_slot, sort_key

PAD = 16
GAP = 10
PER_ROW = 8
TITLE_HEIGHT = 34
EMPTY_WIDTH = 420

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


def hand_image(cards: Sequence[int], *, title: str = "") -> Image.Image:
    """Draw a hand (RGB). Raises ValueError for a value that is not a card (0..51)."""
    hand = ordered(cards)
    for c in hand:
        if not 0 <= c < 52:
            raise ValueError(f"no card {c}")
    size, boxes = hand_layout(len(hand), bool(title))
    img = Image.new("RGB", size, palette.PANEL_BACKGROUND)
    if title:
        text, tf = fit_text((title,), size[0] - 2 * PAD - 80, (18, 16, 14), bold=True)
        put(img, (PAD, PAD + 10), text, tf, palette.PANEL_TEXT, "lm")
        count = f"{len(hand)} card{'s' if len(hand) != 1 else ''}"
        put(img, (size[0] - PAD, PAD + 10), count, font(14), palette.PANEL_MUTED, "rm")
    if not hand:
        top = PAD + (TITLE_HEIGHT if title else 0)
        slot = empty_slot()
        img.paste(slot, (PAD - SHADOW, top - SHADOW), slot)
        put(
            img,
            (PAD + CARD_WIDTH + 24, top + CARD_HEIGHT / 2),
            "No cards in hand",
            font(20, bold=True),
            palette.PANEL_MUTED,
            "lm",
        )
        return img
    for card, (x, y, _r, _b) in zip(hand, boxes, strict=True):
        sp = card_sprite(card)
        img.paste(sp, (x - SHADOW, y - SHADOW), sp)
    return img
