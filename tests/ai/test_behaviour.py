"""Decisions a random player would often get wrong, and the computer players must not."""

from __future__ import annotations

import pytest

from rules import pyramids
from rules.pyramids import Attack, Move, StopAttack, StopPlaying
from rules.pyramids.cards import KING
from rules.pyramids.cards import rank as cards_rank
from rules.pyramids.state import DIPLOMACY, DUEL
from tests.ai.scenes import britain_must_stop, france_must_block, russia_wins_in_one
from tests.ai.support import EW, WW, decide
from tests.rules.positions import BRIT, FRAN, RUSS, cards, position

SMART = ("normal", "hard")


def attack_ends_game(g: pyramids.GameState) -> bool:
    """True when the attack declared in ``g`` would end the game if won (the attacker
    takes the last field it lacks of a power, or the defender's last home field)."""
    b = g.battle
    assert b is not None
    power = g.board.fields[b.dst].owner
    held = [
        f
        for f in g.board.powers[power].fields
        if f != b.dst and g.pieces.get(f, (-1, 0))[0] == b.attacker
    ]
    if len(held) == 2 and g.board.fields[b.src].owner != power:
        return True
    home = g.home_fields(b.defender)
    return b.dst in home and sum(1 for f in home if g.pieces.get(f, (-1, 0))[0] == b.defender) == 1


@pytest.mark.parametrize("level", SMART)
def test_takes_a_win_in_one(level: str) -> None:
    g = russia_wins_in_one()
    for seed in range(3):
        action = decide(g, 0, level, seed)
        assert action == Move("south_balkans", "hungary")
        h = g.copy()
        h.apply(0, action)
        assert h.over and h.winners == [0]


@pytest.mark.parametrize("level", SMART)
def test_takes_a_win_in_one_in_world_war_5(level: str) -> None:
    g = position(
        ["north_america", "south_america"],
        {
            "alaska": (0, 3),
            "canada": (0, 2),
            "scandinavia": (0, 1),
            "western_europe": (0, 1),
            "north_asia": (0, 2),
            "brazil": (1, 3),
            "northern_south_america": (1, 2),
            "southern_south_america": (1, 1),
        },
        variant=WW,
    )
    assert decide(g, 0, level) == Move("north_asia", "southern_europe")


@pytest.mark.parametrize("level", SMART)
def test_blocks_an_opponent_win_in_one(level: str) -> None:
    g = france_must_block()
    for seed in range(3):
        assert decide(g, 0, level, seed) == Move("france_benelux", "germany")


@pytest.mark.parametrize("level", SMART)
def test_stops_an_attack_that_would_make_an_opponent_win(level: str) -> None:
    g = britain_must_stop()
    assert g.pending == [2]
    for seed in range(3):
        assert decide(g, 2, level, seed) == StopAttack(False)


@pytest.mark.parametrize("level", SMART)
def test_lets_pass_an_attack_that_makes_it_win(level: str) -> None:
    # Russia beats France's last home piece (no retreat: it is destroyed) — France falls,
    # and Britain, whose arch-enemy France is, wins (EW-21). Britain keeps its K.
    g = position(
        [FRAN, RUSS, BRIT],
        {
            "italy": (0, 1),
            "germany": (0, 3),
            "north_russia": (1, 3),
            "austria": (1, 3),
            "france_benelux": (1, 2),
            "north_africa": (1, 1),
            "britain": (2, 3),
            "spain": (2, 2),
            "south_balkans": (2, 1),
        },
        hands=[cards("2C"), cards("10C", "10D", "9C"), cards("KS", "3C", "4C")],
        current=1,
    )
    g.apply(1, Attack("austria", "italy"))
    assert g.phase == DIPLOMACY and g.pending == [2]
    for seed in range(3):
        assert decide(g, 2, level, seed) == pyramids.LetPass()


@pytest.mark.parametrize("level", SMART)
def test_does_not_attack_without_a_chance(level: str) -> None:
    # A small with a lone 2 against a large whose owner holds six high cards.
    g = position(
        [RUSS, FRAN],
        {
            "north_russia": (0, 3),
            "west_russia": (0, 2),
            "south_russia": (0, 1),
            "germany": (0, 1),
            "france_benelux": (1, 3),
            "italy": (1, 2),
            "north_africa": (1, 1),
        },
        hands=[cards("2C"), cards("10C", "10D", "10H", "9C", "9D", "8C")],
    )
    assert Attack("germany", "france_benelux") in g.legal_actions(0)
    for seed in range(3):
        assert decide(g, 0, level, seed).kind != "attack"


@pytest.mark.parametrize("level", SMART)
def test_defender_keeps_its_cards_when_the_duel_is_lost(level: str) -> None:
    # Russia's large played 10; France's medium holds only 2, 3 and 4: no two of them
    # reach 10, so playing would only throw cards away.
    g = position(
        [RUSS, FRAN],
        {
            "north_russia": (0, 3),
            "west_russia": (0, 2),
            "germany": (0, 3),
            "france_benelux": (1, 2),
            "italy": (1, 2),
            "north_africa": (1, 1),
        },
        hands=[cards("10C", "10D", "9C"), cards("2C", "3C", "4C")],
    )
    g.apply(0, Attack("germany", "france_benelux"))
    g.apply(0, pyramids.PlayCard(cards("10C")[0]))
    assert g.phase == DUEL and g.deciders()[0].seat == 1
    assert decide(g, 1, level) == StopPlaying()


@pytest.mark.parametrize("level", SMART)
def test_does_not_leave_home_empty(level: str) -> None:
    # Moving the last home piece away would make Russia fall at once (EW-20).
    g = position(
        [RUSS, FRAN],
        {
            "north_russia": (0, 3),
            "germany": (0, 2),
            "france_benelux": (1, 3),
            "italy": (1, 2),
            "north_africa": (1, 1),
        },
        hands=[cards("2C", "3C"), cards("7C", "8C", "9C")],
    )
    for seed in range(3):
        action = decide(g, 0, level, seed)
        h = g.copy()
        h.apply(0, action)
        assert not (h.over and 0 not in h.winners), action


def test_hard_keeps_its_k_for_attacks_that_matter() -> None:
    # Every diplomacy window of a seeded four-player game where a seat could stop an
    # attack that would not end the game: the hard player, in that seat, lets each pass
    # and keeps its K for one that would (EW-13; stopping lesser attacks held games to
    # the round limit).
    game, _ = pyramids.new_game(EW, [None] * 4, 2, pyramids.Options(round_limit=30))
    asked = stopped = step = 0
    while not game.over:
        deciders = game.deciders()
        if game.phase == DIPLOMACY:
            for d in deciders:
                if not any(cards_rank(c) >= KING for c in game.hands[d.seat]):
                    continue
                if attack_ends_game(game):
                    continue
                asked += 1
                stopped += isinstance(decide(game, d.seat, "hard", step), StopAttack)
        seat = deciders[0].seat
        game.apply(seat, decide(game, seat, "normal", step))
        step += 1
    assert asked >= 20
    assert stopped == 0
