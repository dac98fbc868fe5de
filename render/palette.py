"""Colours of the board images.

- Map: sea, land, neutral land, borders, labels and the side panel's background.
- Field fills: one colour *family* per European War power and per World War 5
  continent; a family's fields are light tints of its base colour (three slightly
  different tints, so neighbouring fields of one power stay distinguishable), its
  borders a dark shade of it. The base colour itself is for strong accents (the
  panel, badges).
- Pieces: one colour per seat (up to 6), from the Okabe-Ito palette, which was designed
  to stay distinguishable with colour-vision deficiencies. How the six were checked:
  each colour was passed through the Machado et al. (2009) simulation matrices for
  protanopia, deuteranopia and tritanopia (severity 1.0, in linear RGB) and the
  CIELAB distance (CIE76) of every pair was computed; the six chosen (of the eight
  Okabe-Ito colours) maximise the smallest distance, which is 20.7 (normal vision:
  larger). Every piece colour has an outline whose WCAG contrast ratio with it is at
  least 3 (WCAG 2.1's non-text contrast for graphical objects; most are far above).
  ``tests/render/test_palette.py`` recomputes both.
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

# --------------------------------------------------------------------------- map
SEA: RGB = hex_rgb("#8bbad4")
"""The sea: one flat colour. A vertical gradient with pale bands along the coasts made
board PNGs ~20 KB larger (their ~30 shades broke deflate's runs on every row)."""
SEA_LABEL: RGB = hex_rgb("#33617f")
LAND: RGB = hex_rgb("#efe9dc")
NEUTRAL_LAND: RGB = hex_rgb("#dcd7cc")
NEUTRAL_LABEL: RGB = hex_rgb("#6d675c")
COAST: RGB = hex_rgb("#4a6b80")
NEUTRAL_BORDER: RGB = hex_rgb("#8f887a")
POWER_BORDER: RGB = hex_rgb("#3a3631")
"""The strong border between fields of different powers (continents)."""
TEXT: RGB = hex_rgb("#1e1e24")
HALO: RGB = WHITE
LINK: RGB = hex_rgb("#2f4f66")
"""Dashed straits (European War) and sea lanes (World War 5)."""
PANEL_BACKGROUND: RGB = hex_rgb("#23272e")
PANEL_EDGE: RGB = hex_rgb("#14171c")

HARBOUR: dict[str, RGB] = {
    "atlantic": hex_rgb("#1f4e8c"),
    "mediterranean": hex_rgb("#b8561b"),
}
"""Harbour-group colours; the symbol also carries the group's letter (A / M)."""
HARBOUR_LETTER: dict[str, str] = {"atlantic": "A", "mediterranean": "M"}


@dataclass(frozen=True)
class Family:
    """A colour family: a strong base colour and what is derived from it."""

    base: RGB
    fills: tuple[RGB, RGB, RGB]
    """Light tints for the family's fields (first, second, third field)."""
    border: RGB
    """A dark shade, for borders between fields of the same family."""


def family(base_hex: str) -> Family:
    """Derive a :class:`Family` from a base colour."""
    base = hex_rgb(base_hex)
    return Family(
        base=base,
        fills=(mix(base, WHITE, 0.48), mix(base, WHITE, 0.60), mix(base, WHITE, 0.36)),
        border=mix(base, BLACK, 0.35),
    )


FAMILIES: dict[str, Family] = {
    # European War powers
    "britain_allies": family("#c4473d"),
    "france_allies": family("#4a5ccc"),
    "central_powers": family("#b88a1c"),
    "russian_empire": family("#3f8f4a"),
    "ottoman_empire": family("#a4478f"),
    # World War 5 continents
    "north_america": family("#e07b2e"),
    "south_america": family("#3c9a5f"),
    "europe": family("#4a5ccc"),
    "africa": family("#cfa21f"),
    "asia": family("#b8434c"),
    "australia": family("#8757a6"),
}
"""Colour family per European War power id and per World War 5 continent id."""

FALLBACK_FAMILY: Family = family("#8a8a8a")


def family_for(owner: str) -> Family:
    """Return the colour family of a power / continent id (grey if unknown)."""
    return FAMILIES.get(owner, FALLBACK_FAMILY)


# --------------------------------------------------------------------------- pieces
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
HIGHLIGHT: RGB = hex_rgb("#fff6b0")
"""The glow under a piece that was just placed, conscripted, grown or built."""

CARD_FACE: RGB = hex_rgb("#fbfaf6")
CARD_EDGE: RGB = hex_rgb("#b9b5ab")
CARD_RED: RGB = hex_rgb("#c8102e")
CARD_BLACK: RGB = hex_rgb("#1b1c20")
CARD_BADGE: RGB = hex_rgb("#2b2f36")
FIGURE_BANDS: dict[int, RGB] = {
    11: hex_rgb("#8c2f1b"),  # J: Sabotage
    12: hex_rgb("#5b3a8c"),  # Q: Espionage
    13: hex_rgb("#1d5c7a"),  # K: Diplomacy
    14: hex_rgb("#7a5a00"),  # A: Wild
}
"""Band colour behind a figure's power name, per rank (white text on each: contrast >= 4.5)."""

DIE_FACE: RGB = hex_rgb("#fbfaf6")
DIE_PIP: RGB = hex_rgb("#1b1c20")


def faces(colour: RGB) -> tuple[RGB, RGB]:
    """A pyramid's lit (left) and shaded (right) face colours; one of them is ``colour``.

    The lit face is the piece colour itself and the shaded one a darker shade, except
    for a very dark colour (black), whose lit face is a lighter grey instead.
    """
    if max(colour) < 60:
        return (mix(colour, WHITE, 0.32), colour)
    return (colour, mix(colour, BLACK, 0.28))


def on_dark(colour: RGB) -> RGB:
    """A power's base colour lightened enough to read as text on the dark panel."""
    return mix(colour, WHITE, 0.45)
