"""Shapes pasted in runs of rows (opaque rows copied, the rest blended) give exactly the
pixels of blending the whole sprite through its alpha."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from render import shapes


def _background(size: tuple[int, int], seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("RGB", size)
    image.putdata([tuple(rng.randrange(256) for _ in range(3)) for _ in range(size[0] * size[1])])
    return image


@pytest.mark.parametrize(
    "shape",
    [
        shapes.rounded(290, 84, 8, (40, 44, 52)),
        shapes.rounded(5, 62, 2, (230, 180, 40)),
        shapes.rounded(24, 34, 3, (250, 248, 240), (90, 90, 90)),
        shapes.rounded(360, 70, 14, (20, 22, 26), (230, 180, 40), 3, alpha=235),
        shapes.rounded(300, 388, 12, (40, 44, 52), (230, 180, 40), 3),
        shapes.die(5, 24, (250, 250, 250), (20, 20, 20), (90, 90, 90)),
    ],
)
def test_a_shape_pastes_as_blending_it_whole(shape: shapes.Sprite) -> None:
    opaque_pixels = shape.image.getchannel("A").histogram()[255]
    assert any(opaque for _, _, opaque in shape.runs) or opaque_pixels == 0
    assert sum(rows.height for _, rows, _ in shape.runs) == shape.image.height
    for xy in ((3, 5), (-7, -4), (120, 380)):  # inside, and cut off at either edge
        expected = _background((400, 400), 1)
        expected.paste(shape.image, xy, shape.image)
        got = _background((400, 400), 1)
        shapes.paste(got, shape, xy)
        assert got.tobytes() == expected.tobytes()
    rgba = _background((400, 400), 2).convert("RGBA")
    expected = rgba.copy()
    expected.paste(shape.image, (9, 9), shape.image)
    shapes.paste(rgba, shape, (9, 9))
    assert rgba.tobytes() == expected.tobytes()
