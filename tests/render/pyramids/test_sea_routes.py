"""Voyage arrows follow baked sea routes, and arrows along land links baked land routes:
equal to a fresh search, read without one."""

from __future__ import annotations

import itertools
import math

import pytest

from render import arrows
from render.pyramids import landroutes, layout, searoutes
from render.pyramids.board import last_action
from rules import pyramids
from tests.render.helpers import ev, made_up_view


@pytest.mark.parametrize("board_id", ["european_war", "world_war_5"])
def test_baked_routes_equal_a_fresh_search_for_every_voyage(board_id: str) -> None:
    pairs = searoutes.voyage_pairs(board_id)
    baked = searoutes._baked(board_id)
    assert sorted(baked) == sorted(pairs), "run: python -m tools.bake_sea_routes"
    for src, dst in pairs:
        route = searoutes.search_route(board_id, src, dst)
        assert len(route) >= 2
        assert baked[(src, dst)] == route, (src, dst)


def test_a_baked_route_is_read_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    src, dst = searoutes.voyage_pairs("european_war")[0]
    expected = searoutes._baked("european_war")[(src, dst)]
    searoutes.sea_route.cache_clear()

    def no_search(*_: object) -> tuple[tuple[float, float], ...]:
        raise AssertionError("searched a baked route")

    monkeypatch.setattr(searoutes, "search_route", no_search)
    try:
        assert searoutes.sea_route("european_war", src, dst) == expected
    finally:
        searoutes.sea_route.cache_clear()


@pytest.mark.parametrize("board_id", ["european_war", "world_war_5"])
def test_baked_land_routes_equal_a_fresh_search_for_every_land_link_over_water(
    board_id: str,
) -> None:
    pairs = landroutes.land_pairs(board_id)
    baked = landroutes._baked(board_id)
    assert sorted(baked) == sorted(pairs), "run: python -m tools.bake_sea_routes"
    for src, dst in pairs:
        route = landroutes.search_route(board_id, src, dst)
        assert len(route) >= 2
        assert baked[(src, dst)] == route, (src, dst)


def _water_share(board_id: str, pts: list[tuple[float, float]]) -> float:
    """The share of a polyline's length that lies over water."""
    grid, width, _height, _ = landroutes._land(board_id)
    wet = total = 0.0
    for a, b in itertools.pairwise(pts):
        steps = max(1, round(math.dist(a, b)))
        for i in range(steps):
            x = a[0] + (b[0] - a[0]) * (i + 0.5) / steps
            y = a[1] + (b[1] - a[1]) * (i + 0.5) / steps
            cell = int(y // searoutes.CELL) * width + int(x // searoutes.CELL)
            wet += grid[cell] == 0
            total += 1
    return wet / total


def test_a_land_attack_from_north_africa_to_the_middle_east_is_drawn_over_land() -> None:
    assert ("north_africa", "middle_east") in landroutes.land_pairs("european_war")
    b = pyramids.load_board("european_war")
    view = made_up_view("european_war", {"north_africa": (0, 3), "middle_east": (1, 1)})
    act = last_action(
        view, [ev("attack_declared", seat=0, defender=1, src="north_africa", dst="middle_east")], b
    )
    (arrow,) = act.arrows
    assert arrow.via == landroutes.land_route("european_war", "north_africa", "middle_east")
    (body,) = arrows.path(arrow, layout.MAP_BOX)
    straight = [arrow.src, arrow.dst]
    assert _water_share("european_war", straight) > 0.5  # the old arc's chord: the sea
    assert _water_share("european_war", body) < 0.1
    # and it stops short of both pieces
    assert math.dist(body[0], arrow.src) >= arrows.START_GAP - 1
    assert math.dist(body[-1], arrow.dst) >= arrows.END_GAP - 1


def test_a_land_link_over_land_keeps_its_gentle_curve() -> None:
    assert landroutes.land_route("european_war", "germany", "austria") == ()
    assert landroutes.water_crossed("european_war", "germany", "austria") == 0
    # straits and sea lanes are not walked over land
    assert landroutes.land_route("european_war", "britain", "france_benelux") == ()
