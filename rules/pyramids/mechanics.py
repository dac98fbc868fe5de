"""Mechanics shared by every variant: supply, shrinking, retreat, movement, end-check facts."""

from __future__ import annotations

from ..events import Event
from .state import SIZE_NAMES, GameState


def shrink(state: GameState, field: str) -> tuple[list[Event], bool]:
    """Shrink the piece on ``field`` in place (EW-19, EW-9, WW-3).

    One size smaller if that size is in the owner's supply, else two sizes smaller if
    that one is; a small, or a piece that cannot shrink, is destroyed. The removed piece
    returns to supply. Returns the events and whether the piece was destroyed.
    """
    owner, size = state.pieces[field]
    supply = state.supply(owner)
    for smaller in range(size - 1, 0, -1):
        if supply[smaller] > 0:
            state.pieces[field] = (owner, smaller)
            ev = Event(
                "shrunk",
                {"seat": owner, "field": field, "from_size": size, "to_size": smaller},
            )
            return [ev], False
    del state.pieces[field]
    return [Event("destroyed", {"seat": owner, "field": field, "size": size})], True


def retreat_options(state: GameState, field: str) -> list[str]:
    """Empty fields linked to ``field`` (EW-19: never by sea; the attacker's own field is
    occupied and so never offered), in board order."""
    pieces = state.pieces
    return [n for n in state.board.adjacency[field] if n not in pieces]


def relocate(state: GameState, src: str, dst: str) -> None:
    """Move the piece on ``src`` to the empty field ``dst``."""
    state.pieces[dst] = state.pieces.pop(src)


def home_piece_count(state: GameState, seat: int) -> int:
    """How many of ``seat``'s own pieces stand on its home fields."""
    pieces = state.pieces
    return sum(1 for f in state.home_fields(seat) if f in pieces and pieces[f][0] == seat)


def holds_other_power(state: GameState, seat: int) -> str | None:
    """The id of another power all of whose fields ``seat`` holds, if any."""
    own = state.seats[seat]
    pieces = state.pieces
    for power in state.board.power_order:
        if power == own:
            continue
        fields = state.board.powers[power].fields
        if all(f in pieces and pieces[f][0] == seat for f in fields):
            return power
    return None


def occupiers(state: GameState) -> dict[int, str]:
    """Seats that hold all fields of another power and keep a piece at home (EW-20, WW-5),
    mapped to the power they occupy."""
    out: dict[int, str] = {}
    for seat in range(len(state.seats)):
        if state.eliminated[seat] or home_piece_count(state, seat) == 0:
            continue
        power = holds_other_power(state, seat)
        if power is not None:
            out[seat] = power
    return out


def fallen(state: GameState) -> list[int]:
    """Seats still in the game with no piece on their own home fields (EW-20, WW-4)."""
    return [
        s
        for s in range(len(state.seats))
        if not state.eliminated[s] and home_piece_count(state, s) == 0
    ]


def size_name(size: int) -> str:
    """'small', 'medium' or 'large' (the id; :func:`~rules.pyramids.state.size_word`
    names it for people)."""
    return SIZE_NAMES[size]
