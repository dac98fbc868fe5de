"""Random legal playouts with every invariant checked after every step."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass

import rules
from rules import RulesError, pyramids
from rules.pyramids import (
    Action,
    Attack,
    Build,
    Conscript,
    GameState,
    Grow,
    Move,
    PlaceAll,
    PlacePiece,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
)

MAX_STEPS = 20_000


@dataclass
class PlayoutStats:
    """What one playout did."""

    steps: int
    turns: int
    over: bool
    winners: list[int]
    draw: bool


def check_invariants(g: GameState) -> None:
    """Assert every invariant the engine promises (see the engine issue)."""
    board = g.board
    per_colour: Counter[tuple[int, int]] = Counter()
    for field, (seat, size) in g.pieces.items():
        assert field in board.fields
        assert 0 <= seat < len(g.seats) and 1 <= size <= 3
        per_colour[seat, size] += 1
    for seat in range(len(g.seats)):
        on_board = sum(per_colour[seat, z] for z in (1, 2, 3))
        supply = g.supply(seat)
        assert on_board + sum(supply[1:]) == 9
        assert all(per_colour[seat, z] <= 3 for z in (1, 2, 3))
    if g.variant == "european_war":
        table = g.battle.attacker_cards + g.battle.defender_cards if g.battle else []
        everything = [c for h in g.hands for c in h] + g.pile + g.discard + table
        assert sorted(everything) == list(range(52))
    else:
        assert not g.pile and not g.discard and not any(g.hands)
    text = json.dumps(g.to_dict())
    assert GameState.from_dict(json.loads(text)) == g
    if not g.over:
        assert g.deciders(), "nobody must decide in an unfinished game"
        for d in g.deciders():
            assert g.legal_actions(d.seat), f"no legal action for a decider {d}"


def check_views_hide_other_hands(g: GameState, rng: random.Random) -> None:
    """A seat's view must not change when the cards it cannot see are re-dealt."""
    if g.variant != "european_war":
        return
    for viewer in range(len(g.seats)):
        other = g.copy()
        known = {c for cs in g.knowledge[viewer].values() for c in cs}
        hidden = [
            c for s, h in enumerate(other.hands) if s != viewer for c in h if c not in known
        ] + other.pile
        rng.shuffle(hidden)
        for s, h in enumerate(other.hands):
            if s == viewer:
                continue
            keep = [c for c in h if c in known]
            n_new = len(h) - len(keep)
            other.hands[s] = keep + hidden[:n_new]
            hidden = hidden[n_new:]
        other.pile = hidden
        assert pyramids.view_for(other, viewer) == pyramids.view_for(g, viewer)
        view = pyramids.view_for(g, viewer)
        assert view.hand == tuple(sorted(g.hands[viewer]))
    assert pyramids.view_for(g, None).hand is None


def unlisted_candidates(g: GameState, seat: int, rng: random.Random) -> list[Action]:
    """A few random actions of the kinds a player might type, listed or not."""
    fields = list(g.board.fields)
    f = lambda: rng.choice(fields)  # noqa: E731
    out: list[Action] = [
        Move(f(), f()),
        Attack(f(), f()),
        Conscript(f()),
        Retreat(f()),
        PlayCard(rng.randrange(52)),
        Sabotage(f()),
        Spy(rng.randrange(len(g.seats))),
        PlacePiece(f()),
        PlaceAll(f(), f(), f()),
        Grow(f()),
        Build(f()),
        pyramids.Arm(),
        pyramids.Pass(),
        pyramids.LetPass(),
        pyramids.StopAttack(),
        pyramids.StopPlaying(),
    ]
    return out


def play_random(
    variant: str,
    players: int,
    seed: int,
    options: pyramids.Options | None = None,
    *,
    full_checks: bool = True,
) -> PlayoutStats:
    """Play one random legal game, checking invariants (and, with ``full_checks``, that
    every listed action applies and a sample of unlisted ones is rejected unchanged)."""
    rng = random.Random(seed)
    g, _ = pyramids.new_game(variant, [None] * players, seed, options)
    steps = 0
    while not g.over:
        assert steps < MAX_STEPS, f"game {seed} did not end within {MAX_STEPS} steps"
        check_invariants(g)
        deciders = g.deciders()
        d = deciders[rng.randrange(len(deciders))]
        legal = g.legal_actions(d.seat)
        if full_checks:
            if steps % 7 == 0:
                check_views_hide_other_hands(g, rng)
            for action in legal:
                g.copy().apply(d.seat, action)
            before = g.to_dict()
            for action in unlisted_candidates(g, d.seat, rng):
                if action in legal:
                    continue
                try:
                    g.apply(d.seat, action)
                except RulesError:
                    assert g.to_dict() == before
                else:
                    raise AssertionError(f"unlisted {action} was accepted")
            others = [s for s in range(players) if all(x.seat != s for x in deciders)]
            if others:
                try:
                    g.apply(others[0], legal[0])
                except rules.NotYourTurn:
                    assert g.to_dict() == before
                else:
                    raise AssertionError("a non-decider's action was accepted")
        events = g.apply(d.seat, legal[rng.randrange(len(legal))])
        for ev in events:
            # chance outcomes (a shuffled deck's order) are for the log only: nobody sees them
            assert (ev.kind == "chance") == (ev.to == rules.events.HIDDEN)
            assert ev.to is None or ev.kind in ("cards_received", "spy_result", "chance")
        steps += 1
    check_invariants(g)
    return PlayoutStats(steps, g.turn, g.over, g.winners, g.draw)
