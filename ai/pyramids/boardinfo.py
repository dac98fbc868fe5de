"""Board geometry the computer players use: movement and attack links, distances.

Computed once per (board, options) and cached. Everything is kept in the board's own
field order (tuples, never sets) so that every decision is reproducible.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

from rules.pyramids import Board, load_board


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """Precomputed facts about one board under one set of link rules."""

    board: Board
    variant: str
    moves: dict[str, tuple[str, ...]]
    """Fields a piece may move to from each field (land/special links, plus sea in EW)."""
    attacks: dict[str, tuple[str, ...]]
    """Fields a piece may attack from each field (links, plus sea with ``sea_attacks``)."""
    dist: dict[str, dict[str, int]]
    """Movement distance between fields, ignoring pieces in the way."""
    owner: dict[str, str]
    """The power each field belongs to."""
    exposure: dict[str, int]
    """How many links (land or sea) join each field to fields of other powers."""
    attack_dist: dict[str, dict[str, int]]
    """``attack_dist[target][src]``: moves a piece on ``src`` needs before it can attack
    ``target`` (0 when it can attack at once)."""
    home_dist: dict[str, dict[str, int]]
    """``home_dist[power][field]``: movement distance from the nearest of ``power``'s
    fields to ``field``."""
    home_attack_dist: dict[str, dict[str, int]]
    """``home_attack_dist[power][target]``: moves a piece on the nearest of ``power``'s
    fields needs before it can attack ``target``."""


def _bfs(moves: dict[str, tuple[str, ...]], start: str) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        f = queue.popleft()
        for n in moves[f]:
            if n not in seen:
                seen[n] = seen[f] + 1
                queue.append(n)
    return seen


@cache
def board_info(variant: str, pyramid_arcade: bool = False, sea_attacks: bool = False) -> BoardInfo:
    """The geometry of ``variant``'s board (cached)."""
    ww = variant == "world_war_5"
    board = load_board("world_war_5" if ww else "european_war", pyramid_arcade and ww)
    moves: dict[str, tuple[str, ...]] = {}
    attacks: dict[str, tuple[str, ...]] = {}
    for f in board.field_order:
        adj = board.adjacency[f]
        sea = () if ww else tuple(o for o in board.sea_reach[f] if o not in adj)
        moves[f] = adj + sea
        attacks[f] = adj + (sea if sea_attacks else ())
    dist = {f: _bfs(moves, f) for f in board.field_order}
    owner = {f: board.fields[f].owner for f in board.field_order}
    exposure = {f: sum(1 for o in moves[f] if owner[o] != owner[f]) for f in board.field_order}
    attack_dist = {
        t: {
            src: min(
                (dist[src].get(a, 99) for a in board.field_order if t in attacks[a]), default=99
            )
            for src in board.field_order
        }
        for t in board.field_order
    }
    home_dist = {
        p: {f: min(dist[h].get(f, 99) for h in board.powers[p].fields) for f in board.field_order}
        for p in board.power_order
    }
    home_attack_dist = {
        p: {t: min(attack_dist[t][h] for h in board.powers[p].fields) for t in board.field_order}
        for p in board.power_order
    }
    return BoardInfo(
        board,
        variant,
        moves,
        attacks,
        dist,
        owner,
        exposure,
        attack_dist,
        home_dist,
        home_attack_dist,
    )


def info_for(variant: str, options: dict[str, object]) -> BoardInfo:
    """The geometry for a game given its variant and its options dict (as in a View)."""
    return board_info(
        variant, bool(options.get("pyramid_arcade", False)), bool(options.get("sea_attacks", False))
    )
