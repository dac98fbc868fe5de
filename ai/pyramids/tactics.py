"""Quick structural facts about a position: home pieces, targets one field from being
occupied, winning moves, threats to block. No engine calls, so playouts can afford them.
"""

from __future__ import annotations

from rules.pyramids import Attack, GameState, Move

from .boardinfo import BoardInfo


def home_count(g: GameState, seat: int) -> int:
    """How many of ``seat``'s pieces stand on its own home fields."""
    pieces = g.pieces
    return sum(1 for f in g.home_fields(seat) if f in pieces and pieces[f][0] == seat)


def last_fields(g: GameState, info: BoardInfo, seat: int) -> list[tuple[str, str]]:
    """(power, field) pairs where ``seat`` holds the other two fields of ``power``
    (never its own) and lacks ``field``."""
    pieces = g.pieces
    own = g.seats[seat]
    out: list[tuple[str, str]] = []
    for power in info.board.power_order:
        if power == own:
            continue
        lacking = [
            f for f in info.board.powers[power].fields if f not in pieces or pieces[f][0] != seat
        ]
        if len(lacking) == 1:
            out.append((power, lacking[0]))
    return out


def can_leave(g: GameState, seat: int, src: str, homes: int) -> bool:
    """False when moving the piece on ``src`` away would leave ``seat`` with no piece on
    its home fields (it would fall, EW-20)."""
    return homes > 1 or src not in g.home_fields(seat)


def winning_moves(
    g: GameState, info: BoardInfo, seat: int, lacking: list[tuple[str, str]] | None = None
) -> list[Move]:
    """Moves that complete an occupation at once (the target field is empty).
    ``lacking``: :func:`last_fields` of ``seat`` if already known."""
    pieces = g.pieces
    homes = home_count(g, seat)
    out: list[Move] = []
    if lacking is None:
        lacking = last_fields(g, info, seat)
    for power, field in lacking:
        if field in pieces:
            continue
        for src, (owner, _z) in pieces.items():
            if owner != seat or info.owner[src] == power or not can_leave(g, seat, src, homes):
                continue
            if field in info.moves[src]:
                out.append(Move(src, field))
    return out


def finishing_attacks(
    g: GameState, info: BoardInfo, seat: int, lacking: list[tuple[str, str]] | None = None
) -> list[Attack]:
    """Attacks that complete an occupation if won (an enemy holds the last field)."""
    pieces = g.pieces
    homes = home_count(g, seat)
    out: list[Attack] = []
    if lacking is None:
        lacking = last_fields(g, info, seat)
    for power, field in lacking:
        target = pieces.get(field)
        if target is None or target[0] == seat:
            continue
        for src, (owner, _z) in pieces.items():
            if owner != seat or info.owner[src] == power or not can_leave(g, seat, src, homes):
                continue
            if field in info.attacks[src]:
                out.append(Attack(src, field))
    return out


def threatened_fields(g: GameState, info: BoardInfo, seat: int) -> list[tuple[int, str]]:
    """(opponent, field): empty fields an opponent could move into next to complete an
    occupation — the fields ``seat`` may want to block."""
    out: list[tuple[int, str]] = []
    for t in range(len(g.seats)):
        if t == seat or g.eliminated[t]:
            continue
        for mv in winning_moves(g, info, t):
            if (t, mv.dst) not in out:
                out.append((t, mv.dst))
    return out
