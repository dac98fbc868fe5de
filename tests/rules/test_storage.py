"""Storage form: JSON round trip, replay from seed and actions, and corrupt input."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import InvalidState, pyramids
from rules.pyramids import GameState
from rules.pyramids.actions import ACTION_TYPES, action_from_dict
from rules.pyramids.state import SCHEMA_VERSION


def play(
    seed: int, steps: int, variant: str = "european_war"
) -> tuple[GameState, dict, list[tuple[int, pyramids.Action]]]:
    rng = random.Random(seed)
    creation = pyramids.creation_record(variant, [None, None, None], seed)
    g, _ = pyramids.new_game(variant, [None, None, None], seed)
    log = []
    for _ in range(steps):
        if g.over:
            break
        d = rng.choice(g.deciders())
        a = rng.choice(g.legal_actions(d.seat))
        g.apply(d.seat, a)
        log.append((d.seat, a))
    return g, creation, log


@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120))
@settings(max_examples=40, deadline=None)
def test_round_trip_and_replay_reproduce_the_game(seed: int, steps: int) -> None:
    g, creation, log = play(seed, steps)
    stored = json.loads(json.dumps(g.to_dict()))
    assert stored["schema"] == SCHEMA_VERSION
    assert GameState.from_dict(stored) == g
    stored_log = [(s, action_from_dict(json.loads(json.dumps(a.to_dict())))) for s, a in log]
    assert pyramids.replay(creation, stored_log) == g


def test_copy_is_independent() -> None:
    g, _, _ = play(5, 12)
    assert not g.over
    c = g.copy()
    assert c == g
    d = c.deciders()[0]
    c.apply(d.seat, c.legal_actions(d.seat)[-1])
    assert c != g


def test_every_action_kind_round_trips() -> None:
    samples = [
        pyramids.PlaceAll("a", "b", "c"),
        pyramids.PlacePiece("x"),
        pyramids.Sabotage("x", True),
        pyramids.Spy(2),
        pyramids.Conscript("x"),
        pyramids.Grow("x"),
        pyramids.Build("x"),
        pyramids.Move("a", "b"),
        pyramids.Attack("a", "b"),
        pyramids.Arm(),
        pyramids.Pass(),
        pyramids.StopAttack(True),
        pyramids.LetPass(),
        pyramids.PlayCard(51),
        pyramids.StopPlaying(),
        pyramids.Retreat("x"),
        pyramids.Timeout(),
        pyramids.AgreeDraw(),
    ]
    assert {type(a).kind for a in samples} == set(ACTION_TYPES)
    for a in samples:
        assert action_from_dict(a.to_dict()) == a


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"kind": "fly"},
        {"kind": "move", "src": "a"},
        {"kind": "move", "src": "a", "dst": 3},
        {"kind": "play_card", "card": "7"},
        {"kind": "pass", "extra": 1},
        {"kind": "spy", "target": True},
    ],
)
def test_corrupt_actions_are_rejected(bad: object) -> None:
    with pytest.raises(InvalidState):
        action_from_dict(bad)


def corrupt_variants(d: dict) -> list[dict]:
    out = []

    def change(fn):
        c = copy.deepcopy(d)
        fn(c)
        out.append(c)

    change(lambda c: c.update(schema=999))
    change(lambda c: c.update(variant="chess"))
    change(lambda c: c.pop("pile"))
    change(lambda c: c["pile"].append(c["pile"][0]))  # a duplicated card
    change(lambda c: c["pile"].pop())  # a lost card
    change(lambda c: c["pieces"].update({"atlantis": [0, 1]}))
    change(lambda c: c["pieces"].update({"britain": [0, 7]}))
    change(lambda c: c.update(phase="halftime"))
    change(lambda c: c.update(seats=["central_powers"] * 3))
    change(lambda c: c.update(options={"sea_attacks": "yes"}))
    change(lambda c: c.update(options={"nonsense": 1}))
    change(lambda c: c.update(current=9))
    change(lambda c: c.update(hands="abc"))
    return out


def test_corrupt_stored_games_raise_a_clear_error() -> None:
    g, _, _ = play(3, 30)
    good = g.to_dict()
    GameState.from_dict(good)
    for bad in corrupt_variants(good):
        with pytest.raises(InvalidState):
            GameState.from_dict(bad)
    with pytest.raises(InvalidState):
        GameState.from_dict("not a game")


def test_rng_state_is_small() -> None:
    g, _, _ = play(1, 10)
    assert isinstance(g.to_dict()["rng"], int)
    assert len(json.dumps(g.to_dict())) < 1500


def test_each_variant_is_found_whichever_module_was_imported_first() -> None:
    import subprocess
    import sys

    code = (
        "import rules.pyramids.european_war\n"
        "from rules import pyramids\n"
        "g, _ = pyramids.new_game('world_war_5', [None, None], 1)\n"
        "print(g.variant)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "world_war_5"
