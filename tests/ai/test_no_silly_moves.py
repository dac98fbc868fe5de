"""No silly moves: the normal and hard levels never take an action of the list in
:mod:`tests.ai.silly` — over every decision of seeded games between the levels, and in
the positions where such a waste was once seen."""

from __future__ import annotations

import random

import pytest

import ai.pyramids
from rules import pyramids
from rules.pyramids import Attack, Pass, PlayCard, StopPlaying
from rules.pyramids.state import DUEL
from tests.ai.silly import silly
from tests.ai.support import EW, SMALL_BUDGET, WW, decide
from tests.rules.positions import BRIT, FRAN, OTTO, RUSS, cards, position

SMART = ("normal", "hard")
TABLES = [
    (EW, ("normal", "hard", "normal", "easy"), 40, range(3)),
    (EW, ("hard", "normal", "easy"), 40, range(3, 5)),
    (EW, ("normal", "normal", "normal", "normal"), 200, range(5, 6)),
    (EW, ("hard", "normal"), 60, range(6, 10)),
    (WW, ("normal", "hard", "normal", "hard"), 60, range(10, 13)),
]


@pytest.mark.parametrize(("variant", "levels", "rounds", "seeds"), TABLES)
def test_no_silly_move_in_seeded_games(
    variant: str, levels: tuple[str, ...], rounds: int, seeds: range
) -> None:
    checked = 0
    wastes = []
    for seed in seeds:
        g, _ = pyramids.new_game(
            variant, [None] * len(levels), seed, pyramids.Options(round_limit=rounds)
        )
        pick = random.Random(seed)
        step = 0
        while not g.over:
            deciders = g.deciders()
            seat = deciders[pick.randrange(len(deciders))].seat
            level = levels[seat]
            action = ai.pyramids.choose(
                pyramids.view_for(g, seat),
                level,
                seed * 7919 + step,
                iterations=SMALL_BUDGET if level == "hard" else None,
            )
            if level in SMART and len(g.legal_actions(seat)) > 1:
                checked += 1
                why = silly(g, seat, action)
                if why is not None:
                    wastes.append(f"seed {seed} step {step} {level}: {action} {why}")
            g.apply(seat, action)
            step += 1
    assert checked > 50
    assert not wastes, "\n".join(wastes)


@pytest.mark.parametrize("level", SMART)
def test_does_not_arm_with_both_piles_empty(level: str) -> None:
    # Every field is taken and every card is in a hand; France's high cards make any
    # attack hopeless. Arming would draw nothing ("drew 0 cards"): a plain pass is it.
    g = position(
        [RUSS, FRAN],
        {
            **{"north_russia": (0, 3), "west_russia": (0, 3), "south_russia": (0, 3)},
            **{"germany": (0, 2), "austria": (0, 2), "south_balkans": (0, 2)},
            **{"anatolia": (0, 1), "spain": (0, 1)},
            **{"france_benelux": (1, 3), "italy": (1, 2), "north_africa": (1, 1)},
            **{"britain": (1, 2), "south_scandinavia": (1, 3), "hungary": (1, 2)},
            "middle_east": (1, 3),
        },
        hands=[list(range(0, 26)), list(range(26, 52))],
    )
    assert not g.pile and not g.discard
    assert {a.kind for a in g.legal_actions(0)} == {"attack", "arm", "pass"}
    for seed in range(3):
        assert decide(g, 0, level, seed) == Pass()


@pytest.mark.parametrize("level", SMART)
def test_an_attacker_keeps_its_cards_once_the_duel_is_lost(level: str) -> None:
    # France's large has 10 against Ottoman's 13 with one card left each; whatever France
    # adds, the Ottoman's last card (from 5, 6, K) answers it: its 4 or 7 is wasted.
    g = position(
        [FRAN, OTTO],
        {
            **{"north_africa": (0, 3), "italy": (0, 2), "france_benelux": (0, 1)},
            **{"middle_east": (1, 3), "anatolia": (1, 2), "south_balkans": (1, 1)},
        },
        hands=[
            cards("8S", "2D", "2H", "3C", "4C", "4H", "4S", "7H"),
            cards("9D", "4D", "5S", "6D", "KD"),
        ],
    )
    g.apply(0, Attack("north_africa", "middle_east"))
    for seat, card in ((0, "8S"), (1, "9D"), (0, "2D"), (1, "4D")):
        g.apply(seat, PlayCard(cards(card)[0]))
    assert g.phase == DUEL and g.deciders()[0].seat == 0
    for seed in range(3):
        assert decide(g, 0, level, seed) == StopPlaying()


@pytest.mark.parametrize("level", SMART)
def test_a_medium_does_not_attack_a_large_without_a_card_edge(level: str) -> None:
    # Britain's medium (best two: 9 and 6) against the Ottoman large on Germany, whose
    # owner holds eight cards: about one chance in seventy.
    g = position(
        [FRAN, OTTO, BRIT, RUSS],
        {
            **{"north_africa": (0, 3), "britain": (0, 2), "austria": (0, 3)},
            **{"hungary": (1, 2), "south_balkans": (1, 3), "south_russia": (1, 3)},
            "germany": (1, 3),
            **{"spain": (2, 3), "north_russia": (2, 1), "south_scandinavia": (2, 2)},
            **{"west_russia": (3, 3), "italy": (3, 3)},
        },
        hands=[
            cards("7H", "QD"),
            cards("5S", "6D", "8S", "9S", "10C", "10S", "KS", "AH"),
            cards("3H", "6C", "6H", "9H", "JD", "JS", "AC", "AD"),
            cards("5C", "5H", "6S", "KC"),
        ],
        current=2,
    )
    assert Attack("south_scandinavia", "germany") in g.legal_actions(2)
    for seed in range(3):
        action = decide(g, 2, level, seed)
        assert action != Attack("south_scandinavia", "germany")
        assert silly(g, 2, action) is None, action
