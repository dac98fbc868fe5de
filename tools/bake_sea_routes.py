"""Bake the arrows' routes: voyages round the land, land links round the sea (a
development-time tool).

Searching a route costs up to ~46 ms, so the routes of every pair of harbours a voyage
may join, and of every land link whose straight line crosses the sea, are written to
``render/pyramids/data/<board>_sea_routes.json`` and ``<board>_land_routes.json``
(committed) and read at run time. Run again after changing the baked map, the harbour
symbols, the links or the searches in ``render/pyramids/searoutes.py`` and
``landroutes.py`` (``tests/render/pyramids/test_sea_routes.py`` fails until then)::

    .venv/bin/python -m tools.bake_sea_routes
"""

from __future__ import annotations

import sys

from render.pyramids import landroutes, searoutes


def main(boards: list[str]) -> None:
    """Bake the routes of each board: voyages between harbour symbols, land links."""
    for board_id in boards:
        if searoutes.voyage_pairs(board_id):
            print(searoutes.bake(board_id))
        if landroutes.land_pairs(board_id):
            print(landroutes.bake(board_id))


if __name__ == "__main__":
    main(sys.argv[1:] or ["european_war", "world_war_5"])
