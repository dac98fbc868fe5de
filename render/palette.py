"""Colours every game's images share: colour arithmetic, contrast, piece colours and
the dark side panel's interface colours.

- Pieces: :func:`piece` makes a side's :class:`PieceColour` (fill, outline, text) from
  its one colour. Which colour each side has is its game's choice (a colour belongs to a
  side, not to a seat), made in the game's room, e.g. :mod:`render.pyramids.palette`.
- Interface: the side panel's background, boxes, text shades and accents.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


def hex_rgb(value: str) -> RGB:
    """Parse ``"#rrggbb"`` into an ``(r, g, b)`` tuple of 0..255 ints."""
    value = value.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend ``a`` towards ``b`` by ``t`` (0 gives ``a``, 1 gives ``b``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)

TEXT: RGB = hex_rgb("#1e1e24")
"""Dark text on light ground."""
HALO: RGB = WHITE
"""The light halo around dark text."""


# --------------------------------------------------------------------------- pieces
@dataclass(frozen=True)
class PieceColour:
    """A side's piece colours: fill, outline (clearly different) and text on the fill."""

    name: str
    fill: RGB
    outline: RGB
    text: RGB


DARK_OUTLINE: RGB = hex_rgb("#141414")
LIGHT_OUTLINE: RGB = hex_rgb("#e8e8e8")


def _linear(channel: int) -> float:
    v = channel / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(colour: RGB) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour (0 black .. 1 white)."""
    r, g, b = (_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2.1 contrast ratio of two colours (1 .. 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def piece(name: str, fill_hex: str) -> PieceColour:
    """The piece colours of a side whose colour is ``fill_hex``: a dark outline (a light
    one on a fill too dark for it) and white or black text, whichever contrasts more."""
    fill = hex_rgb(fill_hex)
    outline = DARK_OUTLINE if contrast(fill, DARK_OUTLINE) >= 3 else LIGHT_OUTLINE
    text = WHITE if contrast(fill, WHITE) >= contrast(fill, BLACK) else BLACK
    return PieceColour(name, fill, outline, text)


# --------------------------------------------------------------------------- interface
PANEL_BACKGROUND: RGB = hex_rgb("#23272e")
PANEL_EDGE: RGB = hex_rgb("#14171c")
PANEL_CARD: RGB = hex_rgb("#2d323b")
"""A raised box on the side panel (status box, seat rows)."""
PANEL_CARD_ACTIVE: RGB = hex_rgb("#3a414d")
"""The seat row of the player to move."""
PANEL_RULE: RGB = hex_rgb("#3b414b")
PANEL_TEXT: RGB = hex_rgb("#f2f3f5")
PANEL_MUTED: RGB = hex_rgb("#a3a9b4")
PANEL_FAINT: RGB = hex_rgb("#6c727d")
GOLD: RGB = hex_rgb("#f2c14e")
"""Winners, the game-over banner, the turn marker."""
ALERT: RGB = hex_rgb("#e0483e")
"""Marks of loss: a destroyed piece's cross, a shrunk piece's badge."""
MARK_TEXT: RGB = WHITE


def on_dark(colour: RGB) -> RGB:
    """A power's base colour lightened enough to read as text on the dark panel."""
    return mix(colour, WHITE, 0.45)
