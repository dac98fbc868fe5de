"""Computer players that drive a four-player game to its end: a K kept for the attacks
that end games, the winning attack declared every turn, the stopper's K taken back, and
no pass when nothing is left to draw."""

from __future__ import annotations

import pytest

import ai
import ai.pyramids
from rules import i18n, pyramids
from rules.pyramids import Arm, Attack, LetPass, Pass, Spy, StopAttack
from rules.pyramids.state import TURN, GameState
from tests.ai.scenes import britain_must_stop, france_attacks_hungary
from tests.ai.support import SMALL_BUDGET, decide
from tests.ai.test_behaviour import attack_ends_game
from tests.rules.positions import BRIT, CENT, OTTO, RUSS, cards, position

SMART = ("normal", "hard")


def lesser_attack() -> GameState:
    """France holds only Germany of the Central Powers: beating Russia's small on
    Hungary would end nothing. Britain holds a K."""
    g = france_attacks_hungary(
        {"france_benelux": (0, 3), "germany": (0, 2), "south_balkans": (0, 3)}
    )
    assert not attack_ends_game(g)
    return g


@pytest.mark.parametrize("level", SMART)
def test_keeps_its_k_for_an_attack_that_ends_the_game(level: str) -> None:
    # EW-13: the same K stops the attack that would win France the Central Powers.
    lesser = lesser_attack()
    ending = britain_must_stop()
    for seed in range(3):
        assert decide(lesser, 2, level, seed) == LetPass()
        assert decide(ending, 2, level, seed) == StopAttack(False)


def france_can_win_by_attack() -> GameState:
    """France (seat 0, to move, four strong cards) holds Germany and Austria and can
    attack Russia's small on Hungary for the Central Powers; Britain holds a K."""
    g = britain_must_stop()
    g.apply(2, StopAttack(False))  # last turn's try, stopped
    g.apply(0, Arm())
    g.apply(1, Arm())
    g.apply(2, Arm())
    assert g.phase == TURN and g.current == 0
    return g


def test_hard_declares_the_winning_attack_though_a_k_may_stop_it() -> None:
    # EW-14: stopped, the attack costs France nothing, and Britain its K.
    g = france_can_win_by_attack()
    for seed in range(3):
        h = g.copy()
        action = decide(h, 0, "hard", seed)
        while isinstance(action, Spy):  # a look at Britain's hand first is fine
            h.apply(0, action)
            action = decide(h, 0, "hard", seed)
        assert action == Attack("south_balkans", "hungary")


def stopped_with_the_pile_spent() -> GameState:
    """France's winning attack on Hungary was just stopped by Britain's K. France's home
    fields hold larges (nothing to conscript); the draw pile is empty, so arming would
    reshuffle the discard pile — the K and two low cards — into it."""
    home = {"france_benelux": (0, 3), "italy": (0, 3), "north_africa": (0, 3)}
    g = france_attacks_hungary(
        {**home, "germany": (0, 2), "austria": (0, 2), "south_balkans": (0, 2)}
    )
    assert attack_ends_game(g)
    g.discard = cards("2D", "3D")
    g.hands[1] += [c for c in g.pile if c not in g.discard]  # every card is somewhere
    g.pile = []
    g.apply(2, StopAttack(False))
    assert g.phase == TURN and g.current == 0 and g.attack_barred
    return g


@pytest.mark.parametrize("level", SMART)
def test_arms_to_take_the_k_that_stopped_it(level: str) -> None:
    # EW-3: the K is one of three cards to be drawn; left there, Russia draws from them
    # next, and whoever holds it can stop France's attack again.
    g = stopped_with_the_pile_spent()
    for seed in range(3):
        assert decide(g, 0, level, seed) == Arm()


@pytest.mark.parametrize("level", SMART)
def test_does_not_arm_a_big_hand_from_a_pile_of_unknown_cards(level: str) -> None:
    g = stopped_with_the_pile_spent()
    g.pile, g.discard = g.discard, []  # the same cards, face down: nothing is known
    g.hands[0] += cards("5H", "6H", "7H", "8H")
    for seed in range(3):
        assert decide(g, 0, level, seed) != Arm()


def everyone_passes() -> GameState:
    """A table met in a seeded game: all 52 cards are in hands, both piles are empty,
    and every player, Russia (seat 3, to move, 28 cards) too, had passed each turn
    since round 25."""
    pieces = {
        "france_benelux": (0, 2),
        "italy": (0, 3),
        "spain": (0, 3),
        "britain": (1, 1),
        "germany": (1, 3),
        "hungary": (1, 3),
        "south_scandinavia": (1, 1),
        "anatolia": (2, 3),
        "middle_east": (2, 3),
        "north_africa": (2, 1),
        "south_balkans": (2, 3),
        "north_russia": (3, 3),
        "south_russia": (3, 3),
        "west_russia": (3, 3),
    }
    others = [
        [2, 3, 8, 17, 18, 19, 46],
        [1, 6, 7, 9, 10, 15, 21, 44],
        [0, 5, 16, 22, 39, 42, 47, 48, 49],
    ]
    russia = [c for c in range(52) if not any(c in hand for hand in others)]
    g = position([BRIT, CENT, OTTO, RUSS], pieces, [*others, russia], current=3)
    assert not g.pile and not g.discard and len(g.hands[3]) == 28
    g.knowledge[3] = {0: [8, 17, 18, 19, 46], 1: [7, 10, 15, 21, 44], 2: [16, 22, 39, 42, 47, 49]}
    return g


def test_hard_does_not_sit_still_when_nothing_is_left_to_draw() -> None:
    # EW-3, EW-25: a pass gains no card, and a table that only passes is a draw at the
    # round limit; Russia acts, with its hand of 28 cards.
    g = everyone_passes()
    for seed in range(3):
        assert decide(g, 3, "hard", seed) != Pass()


def hint(g: GameState, seat: int, seed: int = 0) -> ai.Hint:
    return ai.pyramids.hint(pyramids.view_for(g, seat), seed, iterations=SMALL_BUDGET)


def test_hints_say_why_the_k_is_kept_and_taken_back() -> None:
    advice = hint(lesser_attack(), 2)
    assert advice.action == LetPass()
    assert advice.why == ("Keep the K for an attack that would end the game: this one would not.",)
    advice = hint(stopped_with_the_pile_spent(), 0)
    assert advice.action == Arm()
    assert advice.why == (
        "The stop card played against your attack lies among the cards you would draw: "
        "take it, and one player fewer can stop that attack next turn.",
    )
    with i18n.use("de"):
        german = hint(stopped_with_the_pile_spent(), 0).why
    assert german[0].startswith("Die Karte, mit der dein Angriff gestoppt wurde")


def test_the_winning_attack_hint_names_the_win() -> None:
    g = france_can_win_by_attack()
    h = g.copy()
    advice = hint(h, 0)
    while isinstance(advice.action, Spy):
        h.apply(0, advice.action)
        advice = hint(h, 0)
    assert advice.action == Attack("south_balkans", "hungary")
    assert advice.why[0] == (
        "If it wins, Hungary completes your hold on Central Powers: you would win."
    )
