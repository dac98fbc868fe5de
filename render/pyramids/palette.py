"""Colours of the pyramid games' images (the shared ones come from :mod:`render.palette`).

- Map: sea, land, neutral land, borders, links and harbours.
- Field fills: one colour *family* per European War power and per World War 5
  continent; a family's fields are light tints of its base colour (three slightly
  different tints, so neighbouring fields of one power stay distinguishable), its
  borders a dark shade of it. The base colour itself is for strong accents (the
  panel, badges).
- Pieces: each seat's colour (:func:`render.palette.piece_colour`) on a pyramid's two
  faces (:func:`faces`); marks, cards and dice.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.palette import ALERT as ALERT
from render.palette import BLACK as BLACK
from render.palette import GOLD as GOLD
from render.palette import HALO as HALO
from render.palette import MARK_TEXT as MARK_TEXT
from render.palette import PANEL_BACKGROUND as PANEL_BACKGROUND
from render.palette import PANEL_CARD as PANEL_CARD
from render.palette import PANEL_CARD_ACTIVE as PANEL_CARD_ACTIVE
from render.palette import PANEL_EDGE as PANEL_EDGE
from render.palette import PANEL_FAINT as PANEL_FAINT
from render.palette import PANEL_MUTED as PANEL_MUTED
from render.palette import PANEL_RULE as PANEL_RULE
from render.palette import PANEL_TEXT as PANEL_TEXT
from render.palette import PIECE_COLOURS as PIECE_COLOURS
from render.palette import RGB as RGB
from render.palette import TEXT as TEXT
from render.palette import WHITE as WHITE
from render.palette import PieceColour as PieceColour
from render.palette import hex_rgb as hex_rgb
from render.palette import mix as mix
from render.palette import on_dark as on_dark
from render.palette import piece_colour as piece_colour

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
