"""PNG encoding: the writer (the standard zlib here, zlib-ng in the bot) gives ordinary PNGs
equal to Pillow's decoding and the same bytes every time (in other processes too:
tests/render/test_fork.py and tests/bot/test_images.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import pngwrite
from render.encode import fixed_palette, mapped_colour, png_bytes, to_palette
from render.pngwrite import deflate_bands, write_png, write_rows


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


def _rows(width: int, height: int, seed: int) -> bytes:
    """Scanlines that repeat in places (as boards do) and differ in others."""
    out = bytearray()
    for y in range(height):
        row = bytes(((x // 7 + (y // 5) * seed) % 11) for x in range(width))
        out += b"\x00" + (row if y % 9 else bytes(width))
    return bytes(out)


@pytest.mark.parametrize("module", ["zlib", "zlib_ng"])
def test_banded_streams_are_valid_and_each_band_depends_on_itself_alone(module: str) -> None:
    import importlib
    import zlib

    z = importlib.import_module("zlib_ng.zlib_ng" if module == "zlib_ng" else "zlib")
    before = pngwrite._zlib[0]
    pngwrite.use_zlib(z)
    try:
        width, height, band_rows = 301, 70, 16
        band = band_rows * (width + 1)
        for seed in (1, 2, 3):
            rows = _rows(width, height, seed)
            stream = deflate_bands(rows, band, 4)
            assert zlib.decompress(stream) == rows  # a valid zlib stream, adler32 included
            # every segment is what a fresh compressor makes of that band alone
            fresh = []
            for start in range(0, len(rows), band):
                c = z.compressobj(4, z.DEFLATED, -15)
                fresh.append(c.compress(rows[start : start + band]) + c.flush(z.Z_FULL_FLUSH))
            assert stream[2:-6] == b"".join(fresh)
            hits = pngwrite.SEGMENTS.hits
            assert deflate_bands(rows, band, 4) == stream  # from the kept bands
            assert pngwrite.SEGMENTS.hits == hits + len(fresh)
        # cold or warm, the same bytes
        rows = _rows(width, height, 5)
        warm = deflate_bands(rows, band, 4)
        pngwrite.SEGMENTS.clear()
        assert deflate_bands(rows, band, 4) == warm
        assert deflate_bands(bytearray(rows), band, 4) == warm
        png = write_rows(rows, width, height, [0, 0, 0] * 11, 4, band_rows=band_rows)
        img = Image.open(io.BytesIO(png))
        img.load()
        assert img.size == (width, height) and img.tobytes() == b"".join(
            rows[y * (width + 1) + 1 : (y + 1) * (width + 1)] for y in range(height)
        )
    finally:
        pngwrite.use_zlib(before)


def test_kept_bands_are_bounded_and_keyed_by_level() -> None:
    segments = pngwrite._Segments(100)
    segments.put((4, 1, 1), b"x" * 60)
    segments.put((4, 2, 2), b"y" * 60)  # over the limit: the oldest goes
    assert segments.get((4, 1, 1)) is None and segments.get((4, 2, 2)) == b"y" * 60
    assert segments.size == 60 and segments.get((2, 2, 2)) is None
