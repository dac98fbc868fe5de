"""Setup placement (EW-5, WW-6): the big pieces where the enemies are.

A home field's *danger* counts its links to fields of played powers (an unplayed power's
fields only count half: nobody starts there). The large goes on the most dangerous
field, the small on the safest; when placing by size, each small and medium takes the
safest field still free, so the large ends up on the most exposed one.
"""

from __future__ import annotations

from rules.pyramids import Action, GameState, PlaceAll, PlacePiece

from .boardinfo import BoardInfo


def danger(g: GameState, info: BoardInfo, seat: int, field: str) -> float:
    """How exposed ``field`` is to the other players' pieces."""
    own = g.seats[seat]
    total = 0.0
    for o in info.moves[field]:
        power = info.owner[o]
        if power == own:
            continue
        total += 1.0 if power in g.seats else 0.5
    return total


def placement(g: GameState, info: BoardInfo, seat: int) -> Action:
    """The placement action ``seat`` should take now (a legal one)."""
    acts = g.legal_actions(seat)
    home = g.home_fields(seat)
    order = sorted(home, key=lambda f: (-danger(g, info, seat, f), home.index(f)))
    if isinstance(acts[0], PlaceAll):
        return PlaceAll(order[0], order[1], order[2])
    free = [f for f in reversed(order) if f not in g.pieces]
    size = g.setup_queue[0][1]
    choice = free[0] if size < 3 else free[-1]
    return PlacePiece(choice) if PlacePiece(choice) in acts else acts[0]
