"""The baked territory shapes against the map files: what the picture shows as touching
is exactly what the map calls adjacent (``tools/bake_europe_at_war.py`` makes them)."""

from __future__ import annotations

import pytest

from render.drawing import Region
from render.europe_at_war.shapes import load_shapes, shared_borders
from render.pyramids.regions import region_area, region_contains
from rules.europe_at_war.data import game_map


@pytest.fixture(params=[False, True], ids=["default", "compact"])
def compact(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


def _adjacent(compact: bool) -> set[frozenset[str]]:
    m = game_map(compact)
    return {frozenset((t.id, n)) for t in m.territories.values() for n in t.adjacent}


def test_every_territory_and_sea_zone_is_drawn(compact: bool) -> None:
    m = game_map(compact)
    shapes = load_shapes(compact)
    assert set(shapes.territories) == set(m.territories)
    assert set(shapes.seas) == set(m.seas)
    for t in shapes.territories.values():
        assert region_area(t.region) > 10, t.id
        assert region_contains(t.region, *t.label), f"{t.id}'s name is outside its land"
        assert region_contains(t.region, *t.stack), f"{t.id}'s stack is outside its land"
    for s in shapes.seas.values():
        assert region_area(s.region) > 100, s.id


def test_no_two_territories_share_a_border_unless_adjacent(compact: bool) -> None:
    shapes = load_shapes(compact)
    regions: dict[str, Region] = {tid: t.region for tid, t in shapes.territories.items()}
    touching = shared_borders(regions)
    assert len(touching) > 100
    assert touching <= _adjacent(compact), sorted(map(sorted, touching - _adjacent(compact)))


def test_every_adjacency_is_a_shared_border_or_a_drawn_link(compact: bool) -> None:
    m = game_map(compact)
    shapes = load_shapes(compact)
    touching = shared_borders({tid: t.region for tid, t in shapes.territories.items()})
    links = {frozenset((x.a, x.b)): x for x in shapes.links}
    assert len(links) == len(shapes.links)
    for pair in _adjacent(compact):
        assert pair in touching or pair in links, sorted(pair)
    straits = {frozenset(s) for s in m.straits}
    assert {p for p, x in links.items() if x.kind == "strait"} == straits
    for pair, link in links.items():
        assert pair in _adjacent(compact), sorted(pair)
        if link.kind == "crossing":
            assert pair not in touching, f"{sorted(pair)} is drawn twice"
        else:
            assert link.kind == "strait"


def test_land_and_sea_do_not_overlap(compact: bool) -> None:
    """A sea zone's label lies in its water and on no territory; a territory's stack
    spot on no other territory's land."""
    shapes = load_shapes(compact)
    for s in shapes.seas.values():
        assert region_contains(s.region, *s.label), s.id
        assert not any(region_contains(t.region, *s.label) for t in shapes.territories.values())
    for t in shapes.territories.values():
        others = [o for o in shapes.territories.values() if o.id != t.id]
        assert not any(region_contains(o.region, *t.stack) for o in others), t.id


@pytest.mark.slow
def test_the_bake_reproduces_the_committed_shapes(tmp_path: object) -> None:
    """Re-running the development tool gives the committed files byte for byte (needs
    the ``maps`` extra and the Natural Earth wheel; about a minute)."""
    pytest.importorskip("shapely")
    pytest.importorskip("shapefile")
    from pathlib import Path

    from tools import bake_europe_at_war, bake_maps

    try:
        bake_maps.find_wheel(bake_maps.NE_10M, bake_maps.DEFAULT_SOURCE_DIR)
    except FileNotFoundError:
        pytest.skip("the Natural Earth wheel is not downloaded")
    out = Path(str(tmp_path))
    assert bake_europe_at_war.main(["--out", str(out)]) == 0
    for name in bake_europe_at_war.MAP_FILES:
        baked = (out / name).read_bytes()
        assert baked == (bake_europe_at_war.OUT_DIR / name).read_bytes(), name
