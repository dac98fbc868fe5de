"""Voyage arrows follow baked sea routes: equal to a fresh search, read without one."""

from __future__ import annotations

import pytest

from render.pyramids import searoutes


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
