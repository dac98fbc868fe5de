"""European War positions where one decision is plainly right, shared by the computer
players' behaviour tests and the hints' (each builds the same board, then asks its own
question of it)."""

from __future__ import annotations

from rules.pyramids import Attack
from rules.pyramids.state import DIPLOMACY, GameState
from tests.rules.positions import BRIT, FRAN, RUSS, cards, position


def russia_wins_in_one() -> GameState:
    """Russia (seat 0, to move) holds Germany and Austria of the Central Powers, unplayed,
    and can walk from South Balkans into empty Hungary."""
    return position(
        [RUSS, FRAN],
        {
            "north_russia": (0, 3),
            "west_russia": (0, 2),
            "germany": (0, 1),
            "austria": (0, 2),
            "south_balkans": (0, 1),
            "france_benelux": (1, 3),
            "italy": (1, 2),
            "north_africa": (1, 1),
        },
        hands=[cards("2C", "3C", "4C", "5C", "6C"), cards("7C", "8C", "9C")],
    )


def france_must_block() -> GameState:
    """Russia (seat 1, to move next) holds Austria and Hungary and could walk into empty
    Germany; France (seat 0, to move) has no card, and only a move into Germany blocks."""
    return position(
        [FRAN, RUSS],
        {
            "france_benelux": (0, 3),
            "italy": (0, 2),
            "north_africa": (0, 1),
            "north_russia": (1, 3),
            "west_russia": (1, 2),
            "austria": (1, 2),
            "hungary": (1, 1),
        },
        hands=[[], cards("7C", "8C", "9C")],
    )


def france_attacks_hungary(france: dict[str, tuple[int, int]]) -> GameState:
    """France (seat 0), with its pieces on ``france`` {field: (0, size)}, attacks Russia's
    small on Hungary from South Balkans; Britain (seat 2) holds a K: the diplomacy window
    is open."""
    g = position(
        [FRAN, RUSS, BRIT],
        {
            **france,
            "north_russia": (1, 3),
            "west_russia": (1, 2),
            "hungary": (1, 1),
            "britain": (2, 3),
            "spain": (2, 2),
            "south_scandinavia": (2, 1),
        },
        hands=[cards("10C", "10D", "9C", "9D"), cards("2C"), cards("KS", "3C", "4C")],
    )
    g.apply(0, Attack("south_balkans", "hungary"))
    assert g.phase == DIPLOMACY
    return g


def britain_must_stop() -> GameState:
    """France holds Germany and Austria, so beating Russia's small on Hungary would win
    it the Central Powers (:func:`france_attacks_hungary`)."""
    return france_attacks_hungary(
        {"france_benelux": (0, 3), "germany": (0, 2), "austria": (0, 2), "south_balkans": (0, 3)}
    )
