"""The map layer (territories in their owners' tints and patterns, names and cities on
top) is pixel for pixel what filling each territory and pasting each seat's pattern
colour through its pattern gives, whether drawn anew or repainted from the frame's last
map where territories changed hands."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from render.europe_at_war import FRAMES, board
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
    for xy, tile in static(key, compact).overlay:
        rgb.paste(tile, xy, tile)
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
        board.forget_maps()
        assert _same(board.map_layer(key, compact, owners), reference(key, compact, owners))


@pytest.mark.parametrize(("key", "compact"), [("full", True), ("france", False)])
def test_a_map_repainted_where_territories_changed_hands_is_the_same(
    key: str, compact: bool
) -> None:
    rng = random.Random(key)
    board.forget_maps()
    owners = list(_owners(key, compact, rng, 5))
    board.map_layer(key, compact, tuple(owners))
    for changes in (1, 3, board.REPAINT_MAX, 1, board.REPAINT_MAX + 1, 2):
        for k in rng.sample(range(len(owners)), changes):
            owners[k] = rng.choice([s for s in range(-1, 5) if s != owners[k]])
        board.map_layer.cache_clear()  # the frame's last indices stay: a repaint
        drawn = board.map_layer(key, compact, tuple(owners))
        assert _same(drawn, reference(key, compact, tuple(owners))), changes


@pytest.mark.parametrize("compact", [False, True])
def test_each_territorys_box_holds_all_its_pixels(compact: bool) -> None:
    for key in FRAMES:
        st = static(key, compact)
        for k in range(len(st.territories)):
            lut = [0] * 256
            lut[k + 1] = 255
            found = st.label.point(lut).getbbox()
            box = board._territory_box(key, compact, k)
            if found is None:
                continue
            assert box is not None, (key, st.territories[k])
            assert box[0] <= found[0] and box[1] <= found[1], (key, st.territories[k])
            assert found[2] <= box[2] and found[3] <= box[3], (key, st.territories[k])
