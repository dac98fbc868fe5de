"""Colours of the pyramid games' images (the shared ones come from :mod:`render.palette`).

- Map: sea, land, neutral land, borders, links and harbours.
- Sides: one colour per European War power and per World War 5 continent
  (:data:`SIDE_COLOURS`). It belongs to the side, not to the seat that plays it: the
  side's pieces, arrows, panel key and name, its duel column and its home fields' tints
  all show it, whoever sits where.
- Field fills: one colour *family* per side; a family's fields are light tints of the
  side's colour at three clearly different lightnesses (so the fields of one side stay
  apart, Australia's three too), its borders a dark shade of it.
- Pieces: the side's colour on a pyramid's two faces (:func:`faces`); marks, cards and
  dice.

How the side colours were chosen: every pair of sides that can meet in one game (the
five powers; the six continents) must stay apart for normal vision and for the two
common colour-vision deficiencies. Each colour is passed through the Machado, Oliveira
& Fernandes (2009) simulation matrices for protanopia and deuteranopia (severity 1.0,
in linear RGB) and the CIEDE2000 distance of every pair is computed. A search over
sRGB colours (each power kept near a colour of its own: Britain the red of its
uniforms, France a horizon blue, the Central Powers the Habsburg yellow, Russia a
green, the Ottomans a plum; tints kept off the sea and the neutral land) maximised the
smallest distance: 22.9 for the powers and 22.0 for the continents (normal vision:
26.2 and 25.4; tritanopia, rare: 21.6 and 17.3). Colour alone tells the sides apart
(20 is far above what a glance needs), so pieces carry no second cue. Every colour
keeps a WCAG contrast of at least 3 with its outline and 4.5 with its pips, and its
tints 4.5 with the map's dark text. ``tests/render/test_palette.py`` recomputes all of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.palette import ALERT as ALERT
from render.palette import BLACK as BLACK
from render.palette import DARK_OUTLINE as DARK_OUTLINE
from render.palette import GOLD as GOLD
from render.palette import HALO as HALO
from render.palette import LIGHT_OUTLINE as LIGHT_OUTLINE
from render.palette import MARK_TEXT as MARK_TEXT
from render.palette import PANEL_BACKGROUND as PANEL_BACKGROUND
from render.palette import PANEL_CARD as PANEL_CARD
from render.palette import PANEL_CARD_ACTIVE as PANEL_CARD_ACTIVE
from render.palette import PANEL_EDGE as PANEL_EDGE
from render.palette import PANEL_FAINT as PANEL_FAINT
from render.palette import PANEL_MUTED as PANEL_MUTED
from render.palette import PANEL_RULE as PANEL_RULE
from render.palette import PANEL_TEXT as PANEL_TEXT
from render.palette import RGB as RGB
from render.palette import TEXT as TEXT
from render.palette import WHITE as WHITE
from render.palette import PieceColour as PieceColour
from render.palette import contrast as contrast
from render.palette import hex_rgb as hex_rgb
from render.palette import mix as mix
from render.palette import on_dark as on_dark
from render.palette import piece as piece

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
LINK: RGB = hex_rgb("#2f4f66")
"""Dashed straits (European War) and sea lanes (World War 5)."""

HARBOUR: dict[str, RGB] = {
    "atlantic": hex_rgb("#1f4e8c"),
    "mediterranean": hex_rgb("#b8561b"),
}
"""Harbour-group colours; the symbol also carries the group's letter (A / M)."""
HARBOUR_LETTER: dict[str, str] = {"atlantic": "A", "mediterranean": "M"}


SIDE_COLOURS: dict[str, str] = {
    # European War powers
    "britain_allies": "#e11e1e",
    "france_allies": "#8787e1",
    "central_powers": "#e1d21e",
    "russian_empire": "#87e1c3",
    "ottoman_empire": "#965a78",
    # World War 5 continents
    "north_america": "#d29687",
    "south_america": "#69e1e1",
    "europe": "#7887e1",
    "africa": "#e1e11e",
    "asia": "#c32d1e",
    "australia": "#965a78",
}
"""Each side's colour, by European War power id and World War 5 continent id (see the
module docstring)."""

FALLBACK_COLOUR = "#8a8a8a"
"""The colour of a side this palette does not know."""


@dataclass(frozen=True)
class Family:
    """A side's colours on the map: its base colour and what is derived from it."""

    base: RGB
    fills: tuple[RGB, RGB, RGB]
    """Light tints for the family's fields (first, second, third field)."""
    border: RGB
    """A dark shade, for borders between fields of the same family."""


TINTS: tuple[float, float, float] = (0.55, 0.80, 0.32)
"""How far towards white each of a family's three field fills is (first, second, third
field): three clearly different lightnesses."""


def family(base_hex: str) -> Family:
    """Derive a :class:`Family` from a base colour."""
    base = hex_rgb(base_hex)
    a, b, c = (mix(base, WHITE, t) for t in TINTS)
    return Family(base=base, fills=(a, b, c), border=mix(base, BLACK, 0.45))


FAMILIES: dict[str, Family] = {side: family(colour) for side, colour in SIDE_COLOURS.items()}
"""Colour family per European War power id and per World War 5 continent id."""

FALLBACK_FAMILY: Family = family(FALLBACK_COLOUR)

PIECES: dict[str, PieceColour] = {
    side: piece(side.replace("_", " "), colour) for side, colour in SIDE_COLOURS.items()
}
"""Piece colours per side."""

FALLBACK_PIECE: PieceColour = piece("unknown", FALLBACK_COLOUR)


def family_for(owner: str) -> Family:
    """Return the colour family of a power / continent id (grey if unknown)."""
    return FAMILIES.get(owner, FALLBACK_FAMILY)


def side_colour(side: str) -> PieceColour:
    """Return the piece colours of a power / continent id (grey if unknown)."""
    return PIECES.get(side, FALLBACK_PIECE)


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
