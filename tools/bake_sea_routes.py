"""Bake the voyage arrows' sea routes (a development-time tool).

Searching a route around the land costs 10-46 ms, so the routes of every pair of
harbours a voyage may join are written to ``render/pyramids/data/<board>_sea_routes.json``
(committed) and read at run time. Run again after changing the baked map, the harbour
symbols or the search in ``render/searoutes.py``
(``tests/render/pyramids/test_sea_routes.py`` fails until then)::

    .venv/bin/python -m tools.bake_sea_routes
"""

from __future__ import annotations

import sys

from render.pyramids.searoutes import bake, voyage_pairs


def main(boards: list[str]) -> None:
    """Bake the routes of each board that has voyages between harbour symbols."""
    for board_id in boards:
        if voyage_pairs(board_id):
            print(bake(board_id))


if __name__ == "__main__":
    main(sys.argv[1:] or ["european_war", "world_war_5"])
