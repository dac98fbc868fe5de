"""The map layer (territories in their owners' tints and patterns) is pixel for pixel
what filling each territory and pasting each seat's pattern colour through its pattern
gives, however it is built or cached."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from render.europe_at_war import board
from render.europe_at_war import colours as C
from render.europe_at_war.static import (
    COAST,
    COUNTRY_BORDER,
    NEUTRAL,
    SEA_EDGE,
    TERRITORY_BORDER,
    WASTELAND,
    hatch,
    static,
)


def reference(key: str, compact: bool, owners: tuple[int, ...]) -> Image.Image:
    """The map drawn the plain way: every pixel in its territory's (or code's) colour,
    then each seat's pattern colour pasted where its territories meet its pattern."""
    label = static(key, compact).label
    colours = [C.SEA] * 256
    for k, seat in enumerate(owners):
        colours[k + 1] = C.fill(seat) if seat >= 0 else C.UNHELD
    for code, colour in (
        (SEA_EDGE, C.SEA_EDGE),
        (TERRITORY_BORDER, C.BORDER),
        (COUNTRY_BORDER, C.COUNTRY_BORDER),
        (COAST, C.COAST),
        (WASTELAND, C.WASTELAND),
        (NEUTRAL, C.NEUTRAL_LAND),
    ):
        colours[code] = colour
    indexed = label.copy()
    indexed.putpalette([v for c in colours for v in c])
    rgb = indexed.convert("RGB")
    for seat in sorted({s for s in owners if s >= 0}):
        lut = [255 if 0 < v <= len(owners) and owners[v - 1] == seat else 0 for v in range(256)]
        pattern = hatch(seat).crop((0, 0, *label.size))
        rgb.paste(C.hatch(seat), (0, 0), ImageChops.multiply(label.point(lut), pattern))
    return rgb


def _owners(key: str, compact: bool, rng: random.Random, seats: int) -> tuple[int, ...]:
    return tuple(rng.randrange(-1, seats) for _ in static(key, compact).territories)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


@pytest.mark.parametrize(("key", "compact"), [("full", False), ("germany", True)])
def test_the_map_layer_is_each_territory_in_its_owners_tint_and_pattern(
    key: str, compact: bool
) -> None:
    rng = random.Random(key)
    for seats in (2, 5):
        owners = _owners(key, compact, rng, seats)
        board.map_layer.cache_clear()
        assert _same(board.map_layer(key, compact, owners), reference(key, compact, owners))
