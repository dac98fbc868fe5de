"""Colours every game's images share: colour arithmetic, the seats' colours and the
dark side panel's interface colours.

- Seats: one colour per seat (up to 6), from the Okabe-Ito palette, which was designed
  to stay distinguishable with colour-vision deficiencies. How the six were checked:
  each colour was passed through the Machado et al. (2009) simulation matrices for
  protanopia, deuteranopia and tritanopia (severity 1.0, in linear RGB) and the
  CIELAB distance (CIE76) of every pair was computed; the six chosen (of the eight
  Okabe-Ito colours) maximise the smallest distance, which is 20.7 (normal vision:
  larger). Every seat colour has an outline whose WCAG contrast ratio with it is at
  least 3 (WCAG 2.1's non-text contrast for graphical objects; most are far above).
  ``tests/render/test_palette.py`` recomputes both.
- Interface: the side panel's background, boxes, text shades and accents.

A game's own colours (its map, its powers, its cards) live in its room, e.g.
:mod:`render.pyramids.palette`.
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


# --------------------------------------------------------------------------- seats
@dataclass(frozen=True)
class PieceColour:
    """A seat's piece colours: fill, outline (clearly different) and text on the fill."""

    name: str
    fill: RGB
    outline: RGB
    text: RGB


_DARK_OUTLINE: RGB = hex_rgb("#141414")

PIECE_COLOURS: tuple[PieceColour, ...] = (
    PieceColour("blue", hex_rgb("#0072b2"), _DARK_OUTLINE, WHITE),
    PieceColour("vermillion", hex_rgb("#d55e00"), _DARK_OUTLINE, WHITE),
    PieceColour("yellow", hex_rgb("#f0e442"), _DARK_OUTLINE, BLACK),
    PieceColour("sky blue", hex_rgb("#56b4e9"), _DARK_OUTLINE, BLACK),
    PieceColour("reddish purple", hex_rgb("#cc79a7"), _DARK_OUTLINE, BLACK),
    PieceColour("black", hex_rgb("#000000"), hex_rgb("#e8e8e8"), WHITE),
)
"""Piece colours by seat index (0..5), Okabe-Ito based; see the module docstring."""


def piece_colour(seat: int) -> PieceColour:
    """Return the piece colours of seat ``seat`` (0-based).

    Raises:
        IndexError: if ``seat`` is not in 0..5.
    """
    if not 0 <= seat < len(PIECE_COLOURS):
        raise IndexError(f"seat {seat} out of range 0..{len(PIECE_COLOURS) - 1}")
    return PIECE_COLOURS[seat]


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
