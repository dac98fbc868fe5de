"""Colour checks: piece colours under colour-vision deficiencies, outlines, fonts, layout."""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import ImageFont

from render.fonts import font
from render.pyramids import layout, palette

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied in linear RGB.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
MIN_DELTA_E = 20.0
"""Smallest CIE76 distance allowed between two seats' piece colours, in every simulation."""
MIN_OUTLINE_CONTRAST = 3.0
"""Smallest WCAG contrast ratio between a piece colour and its outline (WCAG 2.1's
non-text contrast minimum for graphical objects)."""


def _linear(rgb: palette.RGB) -> list[float]:
    out = []
    for c in rgb:
        v = c / 255
        out.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    return out


def _simulate(rgb: palette.RGB, kind: str) -> list[float]:
    m = CVD_MATRICES[kind]
    lin = _linear(rgb)
    return [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]


def _lab(lin: list[float]) -> tuple[float, float, float]:
    x = 0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = 0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x / 0.95047), f(y / 1.0), f(z / 1.08883)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def _luminance(rgb: palette.RGB) -> float:
    r, g, b = _linear(rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: palette.RGB, b: palette.RGB) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("kind", sorted(CVD_MATRICES))
def test_piece_colours_stay_apart_under_colour_blindness(kind: str) -> None:
    colours = [p.fill for p in palette.PIECE_COLOURS]
    assert len(colours) == 6
    for a, b in itertools.combinations(colours, 2):
        distance = math.dist(_lab(_simulate(a, kind)), _lab(_simulate(b, kind)))
        assert distance >= MIN_DELTA_E, (kind, a, b, distance)


def test_piece_outlines_and_text_contrast_with_the_fill() -> None:
    for piece in palette.PIECE_COLOURS:
        assert _contrast(piece.fill, piece.outline) >= MIN_OUTLINE_CONTRAST, piece.name
        assert _contrast(piece.fill, piece.text) >= 3.0, piece.name


def test_piece_colour_lookup() -> None:
    assert palette.piece_colour(0) is palette.PIECE_COLOURS[0]
    with pytest.raises(IndexError):
        palette.piece_colour(6)


def test_every_owner_has_a_family_of_light_distinct_tints() -> None:
    owners = (
        "britain_allies",
        "france_allies",
        "central_powers",
        "russian_empire",
        "ottoman_empire",
        "north_america",
        "south_america",
        "europe",
        "africa",
        "asia",
        "australia",
    )
    for owner in owners:
        fam = palette.FAMILIES[owner]
        assert len(set(fam.fills)) == 3
        for fill in fam.fills:
            # light enough for dark text even without its halo (WCAG AA), not sea-like
            assert _contrast(fill, palette.TEXT) >= 4.5, owner
            assert math.dist(fill, palette.SEA) > 30, owner


def test_fonts_ship_with_the_package_and_are_cached() -> None:
    regular = font(14)
    bold = font(14, bold=True)
    assert isinstance(regular, ImageFont.FreeTypeFont)
    assert font(14) is regular
    assert regular.getname()[0] == "DejaVu Sans"
    assert bold.getname()[1] == "Bold"
    with pytest.raises(ValueError):
        font(0)


def test_layout_constants_and_to_px() -> None:
    assert layout.BOARD_SIZE == (1280, 800)
    assert layout.MAP_BOX == (0, 0, 960, 800)
    assert layout.PANEL_BOX == (960, 0, 1280, 800)
    assert layout.to_px(0, 0) == (0, 0)
    assert layout.to_px(1, 1) == (960, 800)
    assert layout.to_px(0.5, 0.25) == (480, 200)
    left, top, right, bottom = layout.piece_box(0.5, 0.5)
    assert (right - left, bottom - top) == (layout.PIECE_WIDTH, layout.PIECE_HEIGHT)
    assert layout.name_origin(0.5, 0.5)[1] > bottom
