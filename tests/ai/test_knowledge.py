"""A computer player sees only its own view: replacing the other hands (and the draw
pile, and the game's future dice and shuffles) by anything else consistent with what it
knows does not change its decision."""

from __future__ import annotations

import random

import pytest

import ai
import ai.pyramids
from rules import pyramids
from rules.pyramids.state import GameState
from rules.rng import Rng
from tests.ai.support import EW, SMALL_BUDGET, WW


def _positions(variant: str, players: int, seed: int, every: int) -> list[tuple[GameState, int]]:
    """Positions met in a seeded game between normal players, with their decider."""
    game, _ = pyramids.new_game(variant, [None] * players, seed, pyramids.Options(round_limit=30))
    out: list[tuple[GameState, int]] = []
    step = 0
    while not game.over:
        deciders = game.deciders()
        seat = deciders[step % len(deciders)].seat
        if step % every == 0 and len(game.legal_actions(seat)) > 1:
            out.append((game.copy(), seat))
        game.apply(seat, ai.pyramids.choose(pyramids.view_for(game, seat), "normal", step))
        step += 1
    return out


def _rehide(g: GameState, seat: int, rng: random.Random) -> GameState:
    """``g`` with every card ``seat`` cannot see dealt again at random (hand sizes kept,
    cards it knows by espionage left with their holders) and a new generator state."""
    h = g.copy()
    h.rng = Rng(rng.getrandbits(64))
    if h.variant != EW:
        return h
    known = {t: list(cs) for t, cs in h.knowledge[seat].items() if cs}
    pool = list(h.pile)
    for t in range(len(h.seats)):
        if t != seat:
            fixed = known.get(t, [])
            pool.extend(c for c in h.hands[t] if c not in fixed)
    rng.shuffle(pool)
    for t in range(len(h.seats)):
        if t == seat:
            continue
        fixed = [c for c in h.hands[t] if c in known.get(t, [])]
        need = len(h.hands[t]) - len(fixed)
        h.hands[t] = fixed + pool[:need]
        del pool[:need]
    h.pile = pool
    for t in range(len(h.seats)):  # what the others learnt is not part of seat's view
        if t != seat:
            h.knowledge[t] = {}
    return h


CASES = [(EW, 2, 3), (EW, 3, 4), (EW, 4, 5), (WW, 2, 3), (WW, 4, 4)]


@pytest.mark.parametrize(("variant", "players", "seed"), CASES)
def test_decision_depends_only_on_the_view(variant: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    hidden_changed = 0
    for g, seat in _positions(variant, players, seed, every=2)[:14]:
        other = _rehide(g, seat, rng)
        view = pyramids.view_for(g, seat)
        assert pyramids.view_for(other, seat) == view
        if variant == EW and other.hands != g.hands:
            hidden_changed += 1
        for level in ai.pyramids.LEVELS:
            a = ai.pyramids.choose(view, level, 5, iterations=SMALL_BUDGET)
            b = ai.pyramids.choose(
                pyramids.view_for(other, seat), level, 5, iterations=SMALL_BUDGET
            )
            assert a == b, (level, g.phase, a, b)
            assert a in g.legal_actions(seat) and a in other.legal_actions(seat)
        checked += 1
    assert checked >= 8
    if variant == EW:
        assert hidden_changed >= checked // 2


def test_knowledge_from_espionage_is_used_and_respected() -> None:
    """After a look, the spied cards stay with their holder in every re-deal, and the
    decision still depends only on the view."""
    from tests.rules.positions import BRIT, FRAN, RUSS, cards, position

    g = position(
        [FRAN, RUSS, BRIT],
        {
            "france_benelux": (0, 3),
            "italy": (0, 2),
            "north_africa": (0, 1),
            "north_russia": (1, 3),
            "west_russia": (1, 2),
            "south_russia": (1, 1),
            "britain": (2, 3),
            "spain": (2, 2),
            "south_scandinavia": (2, 1),
            "germany": (1, 3),
        },
        hands=[
            cards("QH", "10C", "9C", "2D", "3D", "8S"),
            cards("KS", "10D", "4H"),
            cards("5C", "6C", "7C"),
        ],
    )
    g.apply(0, pyramids.Spy(1))
    assert g.knowledge[0][1] == sorted(cards("KS", "10D", "4H"))
    view = pyramids.view_for(g, 0)
    assert view.known_cards == {1: tuple(sorted(cards("KS", "10D", "4H")))}
    rng = random.Random(3)
    for _ in range(5):
        other = _rehide(g, 0, rng)
        assert sorted(other.hands[1]) == sorted(g.hands[1])
        assert pyramids.view_for(other, 0) == view
        for level in ai.pyramids.LEVELS:
            assert ai.pyramids.choose(
                view, level, 9, iterations=SMALL_BUDGET
            ) == ai.pyramids.choose(pyramids.view_for(other, 0), level, 9, iterations=SMALL_BUDGET)
