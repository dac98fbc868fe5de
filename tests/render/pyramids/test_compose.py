"""Board PNGs built from what changed (render.pyramids.compose) and deflated in bands
(render.pngwrite) decode to exactly the pixels of mapping the whole drawn image, and are
the same bytes whatever the process drew before and however full its caches (composing
and kept bands) are."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator

import pytest
from PIL import Image

import render
import rules
from render import pngwrite
from render.encode import png_bytes
from render.pyramids import compose
from render.pyramids.board import board_image, use_arcade
from render.pyramids.png_palette import board_palette
from rules import pyramids
from tests.render.helpers import NAMES, decode, ev, made_up_view, playout_positions

Position = tuple[pyramids.View, list[rules.Event], list[str]]


def _positions(variant: str, players: int, seed: int, every: int) -> Iterator[Position]:
    names = list(NAMES[:players])
    for game, events in playout_positions(variant, players, seed, every):
        yield pyramids.view_for(game, None), events, names


def _reference(view: pyramids.View, names: list[str], events: list[rules.Event]) -> bytes:
    """The plain path: the whole board drawn in RGB, then all of it mapped and encoded."""
    arcade = use_arcade(view, None)
    return png_bytes(board_image(view, names, events), board_palette(view.board_id, arcade))


def _indices(data: bytes) -> tuple[str, tuple[int, int], bytes, list[int] | None]:
    """A PNG decoded: mode, size, palette indices and palette."""
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.mode, img.size, img.tobytes(), img.getpalette()


def _over() -> Position:
    pieces = {"alaska": (0, 3), "canada": (0, 2), "usa": (0, 1), "east_asia": (3, 1)}
    view = made_up_view(
        "world_war_5", pieces, over=True, winners=(0,), phase="over", deciders=(), turn=31
    )
    events = [ev("moved_in", seat=0, src="usa", dst="canada")]
    return view, events, list(NAMES)


def _arcade() -> Position:
    view = made_up_view("world_war_5", {"scandinavia": (1, 2), "southwest_asia": (2, 3)})
    view = dataclasses.replace(view, options={**view.options, "pyramid_arcade": True})
    return view, [ev("moved", seat=1, src="southwest_asia", dst="scandinavia")], list(NAMES)


@pytest.fixture
def cold() -> Iterator[None]:
    """Empty the composing caches and the kept bands before and after (other tests keep
    theirs)."""
    compose.PARTS.clear()
    compose.piece_patch.cache_clear()
    pngwrite.SEGMENTS.clear()
    yield
    compose.PARTS.clear()
    compose.piece_patch.cache_clear()
    pngwrite.SEGMENTS.clear()


@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [
        ("european_war", 3, 21),
        ("european_war", 5, 22),
        ("world_war_5", 4, 23),
        ("world_war_5", 6, 24),
    ],
)
def test_board_png_equals_mapping_the_whole_image(
    cold: None, variant: str, players: int, seed: int
) -> None:
    positions = list(_positions(variant, players, seed, every=7))[:30]
    positions += [_over(), _arcade()]
    drawn = []
    for view, events, names in positions:
        data = render.pyramids.board_png(view, names, events)
        assert _indices(data) == _indices(_reference(view, names, events)), f"turn {view.turn}"
        drawn.append(data)
    assert pngwrite.SEGMENTS.hits > 0  # successive boards of a game share bands
    # the same again with every part, piece and band now cached: the same bytes
    for (view, events, names), data in zip(positions, drawn, strict=True):
        assert render.pyramids.board_png(view, names, events) == data


def test_a_board_is_the_same_bytes_whatever_was_drawn_before(cold: None) -> None:
    first = list(_positions("european_war", 4, 31, every=3))[:12]
    other = list(_positions("european_war", 4, 32, every=3))[:12]
    view, events, names = first[-1]
    alone = render.pyramids.board_png(view, names, events)  # nothing cached yet
    for v, e, n in other + first:
        render.pyramids.board_png(v, n, e)
    assert render.pyramids.board_png(view, names, events) == alone
    # tiny caches that keep evicting give the same bytes too
    parts, limit = compose.PARTS.limit, pngwrite.SEGMENTS.limit
    compose.PARTS.limit, pngwrite.SEGMENTS.limit = 50_000, 5000
    compose.PARTS.clear()
    pngwrite.SEGMENTS.clear()
    try:
        for v, e, n in first[:-1] + other:
            render.pyramids.board_png(v, n, e)
        assert pngwrite.SEGMENTS.size <= 5000 and compose.PARTS.size <= 50_000
        assert render.pyramids.board_png(view, names, events) == alone
    finally:
        compose.PARTS.limit, pngwrite.SEGMENTS.limit = parts, limit
    assert decode(alone).tobytes() == decode(_reference(view, names, events)).tobytes()


def test_panel_parts_are_cached_and_bounded(cold: None) -> None:
    positions = list(_positions("world_war_5", 5, 41, every=2))[:40]
    for view, events, names in positions:
        render.pyramids.board_png(view, names, events)
    assert 0 < compose.PARTS.size <= compose.PARTS.limit
    assert compose.PARTS.size == sum(p.width * p.height for p in compose.PARTS.items.values())
    assert compose.piece_patch.cache_info().currsize > 0
    keys = list(compose.PARTS.items)
    assert all(k[0] == "world_war_5" for k in keys)
    assert not any(k[3][0] in compose.UNCACHED_PARTS for k in keys)


def test_merge_clips_and_covers_every_box() -> None:
    boxes = [(-5, -5, 10, 10), (12, 0, 20, 10), (500, 500, 560, 570), (1270, 790, 1300, 820)]
    merged = compose.merge(boxes, (1280, 800))
    clipped = [(0, 0, 10, 10), (12, 0, 20, 10), (500, 500, 560, 570), (1270, 790, 1280, 800)]
    for b in clipped:
        assert any(m[0] <= b[0] and m[1] <= b[1] and m[2] >= b[2] and m[3] >= b[3] for m in merged)
    assert all(0 <= m[0] < m[2] <= 1280 and 0 <= m[1] < m[3] <= 800 for m in merged)
    assert (0, 0, 20, 10) in merged  # near neighbours are mapped as one
    assert (500, 500, 560, 570) in merged  # a far one stays apart
    assert compose.merge([(5, 5, 5, 9), (2000, 0, 2100, 10)], (1280, 800)) == []


def test_a_board_over_the_size_limit_is_deflated_again_harder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, events, names = next(_positions("world_war_5", 5, 61, every=5))
    usual = render.pyramids.board_png(view, names, events)
    monkeypatch.setattr(render.pyramids, "BOARD_MAX_BYTES", len(usual) - 1)
    harder = render.pyramids.board_png(view, names, events)
    assert len(harder) < len(usual) and _indices(harder) == _indices(usual)
