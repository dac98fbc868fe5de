"""PNG encoding: the writer (the standard zlib here, zlib-ng in the bot) gives ordinary PNGs
equal to Pillow's decoding and the same bytes every time (in other processes too:
tests/render/test_fork.py and tests/bot/test_images.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.encode import fixed_palette, mapped_colour, png_bytes, to_palette
from render.pngwrite import write_png


def _sample(width: int, height: int) -> Image.Image:
    img = Image.new("RGB", (width, height))
    img.putdata(
        [
            ((x * 7) % 256, (y * 3) % 256, ((x ^ y) * 5) % 256)
            for y in range(height)
            for x in range(width)
        ]
    )
    return img


@pytest.mark.parametrize(
    ("size", "level"), [((1, 1), 4), ((37, 5), 1), ((300, 420), 4), ((64, 64), 6), ((5, 2), 9)]
)
def test_write_png_round_trips(size: tuple[int, int], level: int) -> None:
    indexed = to_palette(_sample(*size))
    data = write_png(indexed, level)
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.mode == "P" and decoded.size == size
    assert decoded.tobytes() == indexed.tobytes()
    assert decoded.convert("RGB").tobytes() == indexed.convert("RGB").tobytes()
    Image.open(io.BytesIO(data)).verify()
    assert write_png(indexed, level) == data  # deterministic


def test_write_png_refuses_other_modes() -> None:
    with pytest.raises(ValueError):
        write_png(Image.new("RGB", (2, 2)))


def test_fixed_palette_keeps_reserved_colours_and_maps_near() -> None:
    sample = _sample(64, 64)
    reserved = [(1, 2, 3), (250, 10, 10)]
    pal = fixed_palette(sample, reserved)
    flat = pal.getpalette() or []
    entries = [tuple(flat[i : i + 3]) for i in range(0, 768, 3)]
    assert entries[:2] == reserved
    assert mapped_colour((250, 10, 10), pal) == (250, 10, 10)
    data = png_bytes(sample, pal)
    assert Image.open(io.BytesIO(data)).size == (64, 64)


def test_warm_up_builds_the_caches() -> None:
    import render

    render.pyramids.warm_up(("european_war",))
    from render.pyramids.png_palette import board_palette

    assert board_palette("european_war") is board_palette("european_war")
