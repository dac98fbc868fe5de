"""Colour checks: side colours under colour-vision deficiencies, outlines, tints, fonts,
layout."""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import ImageFont

from render.fonts import font
from render.pyramids import layout, palette
from rules import pyramids

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
MIN_DELTA_E: dict[str, float] = {
    "normal": 20.0,
    "deuteranopia": 20.0,
    "protanopia": 20.0,
    "tritanopia": 15.0,
}
"""Smallest CIEDE2000 distance allowed between the colours of two sides that can meet in
a game, per simulated vision (tritanopia is rare: a lower bar)."""
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


def _ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh -= 360 if dh > 180 else (-360 if dh < -180 else 0)
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    rotation = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    dl, dc, dh_ = (l2 - l1) / s_l, (c2p - c1p) / s_c, d_big_h / s_h
    return math.sqrt(dl**2 + dc**2 + dh_**2 + r_t * dc * dh_)


def _distance(a: palette.RGB, b: palette.RGB, kind: str) -> float:
    return _ciede2000(_lab(_simulate(a, kind)), _lab(_simulate(b, kind)))


def test_ciede2000_matches_published_test_data() -> None:
    # pairs 1, 7, 17 and 25 of Sharma, Wu & Dalal's table of test data
    cases = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]
    for lab1, lab2, expected in cases:
        assert _ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def _sides_by_game() -> dict[str, tuple[str, ...]]:
    return {b: pyramids.load_board(b).power_order for b in ("european_war", "world_war_5")}


@pytest.mark.parametrize("kind", sorted(CVD_MATRICES))
def test_sides_that_meet_in_a_game_stay_apart_in_every_vision(kind: str) -> None:
    """Every pair of sides of one board (any two may sit at one table) keeps a CIEDE2000
    distance of at least ``MIN_DELTA_E[kind]`` in the simulated vision ``kind``; so
    pieces need no second cue (a letter, a pattern) beside their colour."""
    for board, sides in _sides_by_game().items():
        assert len(sides) == (5 if board == "european_war" else 6)
        colours = [palette.side_colour(s).fill for s in sides]
        assert len(set(colours)) == len(colours)
        for (a, ca), (b, cb) in itertools.combinations(zip(sides, colours, strict=True), 2):
            distance = _distance(ca, cb, kind)
            assert distance >= MIN_DELTA_E[kind], (board, kind, a, b, round(distance, 1))


def test_seat_order_does_not_change_a_sides_colour() -> None:
    """The colour belongs to the side: a side's pieces are the same whichever seat plays
    it (the board's pieces are checked in tests/render/pyramids/test_board.py)."""
    for side in palette.SIDE_COLOURS:
        assert palette.side_colour(side).fill == palette.hex_rgb(palette.SIDE_COLOURS[side])
        assert palette.family_for(side).base == palette.side_colour(side).fill
    assert palette.side_colour("no such side") == palette.FALLBACK_PIECE


def test_piece_outlines_and_text_contrast_with_the_fill() -> None:
    for piece in [*palette.PIECES.values(), palette.FALLBACK_PIECE]:
        assert _contrast(piece.fill, piece.outline) >= MIN_OUTLINE_CONTRAST, piece.name
        assert _contrast(piece.fill, piece.text) >= 4.5, piece.name
    dark = palette.piece("dark", "#202020")
    assert dark.outline == palette.LIGHT_OUTLINE and dark.text == palette.WHITE


def _luminance(rgb: palette.RGB) -> float:
    r, g, b = _linear(rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: palette.RGB, b: palette.RGB) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_is_wcag_contrast() -> None:
    assert palette.contrast(palette.WHITE, palette.BLACK) == pytest.approx(21.0)
    for a, b in itertools.combinations([*palette.SIDE_COLOURS.values(), "#8bbad4"], 2):
        ca, cb = palette.hex_rgb(a), palette.hex_rgb(b)
        assert palette.contrast(ca, cb) == pytest.approx(_contrast(ca, cb))


def test_every_owner_has_a_family_of_light_distinct_tints() -> None:
    owners = [side for sides in _sides_by_game().values() for side in sides]
    assert sorted(owners) == sorted(palette.FAMILIES)
    for owner in owners:
        fam = palette.FAMILIES[owner]
        for a, b in itertools.combinations(fam.fills, 2):
            # three lightnesses: a light colour has less room for them than a dark one
            assert _distance(a, b, "normal") >= 5.0, owner
        for fill in fam.fills:
            # light enough for dark text even without its halo (WCAG AA), not sea-like
            assert _contrast(fill, palette.TEXT) >= 4.5, owner
            assert _distance(fill, palette.SEA, "normal") >= 12.0, owner
            assert _distance(fill, palette.NEUTRAL_LAND, "normal") >= 7.0, owner


def test_australias_three_territories_are_told_apart() -> None:
    """Australia's territories are odd shapes (the Northern Territory's strip, the
    islands): their fills differ clearly, in every simulated vision."""
    fills = palette.FAMILIES["australia"].fills
    for kind in ("normal", "deuteranopia", "protanopia"):
        for a, b in itertools.combinations(fills, 2):
            assert _distance(a, b, kind) >= 8.0, kind


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
