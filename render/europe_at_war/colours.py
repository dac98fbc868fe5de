"""Europe at War's map colours, and each seat's fill and pattern.

A territory is filled in a light tint of its owner's seat colour (Okabe-Ito colours,
chosen to stay apart with colour-vision deficiencies) and hatched in the full colour with
the seat's own pattern, so colour is never the only cue; a territory nobody holds is
plain parchment.
"""

from __future__ import annotations

from render.palette import BLACK, DARK_OUTLINE, RGB, WHITE, PieceColour, hex_rgb, mix

SEA: RGB = hex_rgb("#a9cbe3")
SEA_EDGE: RGB = hex_rgb("#7ea7c7")
"""The lines between sea zones."""
SEA_TEXT: RGB = hex_rgb("#2f5d80")
COAST: RGB = hex_rgb("#4d6f8a")
NEUTRAL_LAND: RGB = hex_rgb("#d8d3c6")
"""Land of no country of the game (Morocco, Persia, ...)."""
NEUTRAL_TEXT: RGB = hex_rgb("#8a8474")
WASTELAND: RGB = hex_rgb("#bdb5a3")
"""Land between two territories that are not adjacent."""
UNHELD: RGB = hex_rgb("#f4eedc")
"""A territory nobody holds."""
BORDER: RGB = hex_rgb("#a39a87")
"""Between two territories of one country."""
COUNTRY_BORDER: RGB = hex_rgb("#4a4339")
LINK: RGB = hex_rgb("#5b4636")
"""Straits and crossings."""
NAME: RGB = hex_rgb("#2a2620")
HALO: RGB = hex_rgb("#fbf8ef")
CITY: RGB = hex_rgb("#2a2620")
COIN: RGB = hex_rgb("#f2c14e")
COIN_EDGE: RGB = hex_rgb("#8a6a12")
BATTLE: RGB = hex_rgb("#e0483e")

SEAT_COLOURS: tuple[PieceColour, ...] = (
    PieceColour("blue", hex_rgb("#0072b2"), DARK_OUTLINE, WHITE),
    PieceColour("vermillion", hex_rgb("#d55e00"), DARK_OUTLINE, WHITE),
    PieceColour("yellow", hex_rgb("#f0e442"), DARK_OUTLINE, BLACK),
    PieceColour("sky blue", hex_rgb("#56b4e9"), DARK_OUTLINE, BLACK),
    PieceColour("reddish purple", hex_rgb("#cc79a7"), DARK_OUTLINE, BLACK),
)
"""Each seat's piece colours (a table has at most five seats)."""


def seat_colour(seat: int) -> PieceColour:
    """The piece colours of ``seat`` (0-based)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


PATTERNS: tuple[str, ...] = ("rising", "falling", "dots", "rows", "cross")
"""Each seat's hatching: rising or falling diagonals, dots, horizontal rows, a cross-hatch."""


def fill(seat: int) -> RGB:
    """The tint a territory of ``seat`` is filled with."""
    return mix(seat_colour(seat).fill, (255, 255, 255), 0.58)


def hatch(seat: int) -> RGB:
    """The colour of ``seat``'s pattern lines."""
    return mix(seat_colour(seat).fill, (255, 255, 255), 0.12)
