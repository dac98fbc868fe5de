"""Europe at War's heuristic computer players: each rule of thumb, from the seat's own
view only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.europe_at_war import EaPlayer
from rules.europe_at_war.actions import (
    BattleCard,
    Buy,
    Casualty,
    Done,
    Drop,
    LostOrders,
    Move,
    Negate,
    Pass,
    Submit,
)
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from tests.rules.europe_at_war.playout import play
from tests.rules.europe_at_war.scenario import (
    add,
    battle_phase,
    give,
    keep,
    new_turn,
    ref,
    run,
    table,
)

BOT = EaPlayer()


def choose(g: EaState, seat: int, seed: int = 1) -> Any:
    """The bot's choice for ``seat`` from its own view and its legal actions."""
    return BOT.choose(g.view_for(seat), g.legal_actions(seat), "normal", seed)


def test_a_general_grabs_land_dropping_single_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "lyon")[0]
    add(g, 0, "Hussars", "lyon", 4)
    first = choose(g, 0)
    assert isinstance(first, Move) and first.group == ref(general)
    assert first.dest not in g.control  # toward land nobody holds
    run(g, (0, first))
    drops = []
    while True:
        action = choose(g, 0)
        if not isinstance(action, Drop):
            break
        drops.append(action)
        run(g, (0, action))
    path = first.via.split(">")
    assert drops and all(d.at in path[:-1] for d in drops)
    assert len({d.at for d in drops}) == len(drops)  # one unit per territory
    # the General keeps two units with him
    assert 4 - len(drops) >= 2


def test_it_does_not_attack_a_stronger_stack() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 1, "Guard Infantry", "geneva", 5)
    add(g, 0, "General", "lyon")
    moves = [a for a in g.legal_actions(0) if isinstance(a, Move) and a.dest == "geneva"]
    assert moves
    action = choose(g, 0)
    assert not (isinstance(action, Move) and action.dest == "geneva")


def test_recruits_generals_first_then_keeps_the_upkeep_paid() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "Reserves", "paris", 3)
    g.step = "recruit"
    g.treasury[0] = 16
    for name in ("Old Guard", "General", "Hussars"):
        uid = next(c for c in g.piles[0] if g.kind(c).name == name)
        g.piles[0].remove(uid)
        g.drawn[0].append(uid)
    first = choose(g, 0)
    assert isinstance(first, Buy) and g.kind(int(first.chit[1:])).name == "General"
    run(g, (0, first))
    # 6 RP left for 4 units: a 3 RP Hussar leaves 3, not enough for 5 units' upkeep
    assert choose(g, 0) == Done()


def test_battle_cards_while_behind_pass_when_ahead() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Line Battalion", "swabia", 4)
    new_turn(g)
    add(g, 0, "General", "swabia")
    add(g, 0, "Old Guard", "swabia")
    give(g, 0, "bayonet_charge", "high_ground")
    give(g, 1, "flanks_protected")
    battle_phase(g)
    # 10 + 7 + 5 = 22 against 16: ahead, so France passes
    assert choose(g, 0) == Pass()
    run(g, (0, Pass()))
    # Austria is behind: it plays
    assert choose(g, 1) == BattleCard("flanks_protected")
    run(g, (1, BattleCard("flanks_protected")))
    # now 22 against 26: France plays its best swing (High Ground +10, not +3)
    assert choose(g, 0) == BattleCard("high_ground")


def test_lost_orders_is_kept_for_multipliers() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Line Battalion", "swabia", 4)
    new_turn(g)
    add(g, 0, "General", "swabia")
    add(g, 0, "Old Guard", "swabia")
    give(g, 0, "lost_orders")
    give(g, 1, "flanks_protected", "encirclement")
    battle_phase(g)
    run(g, (0, Pass()), (1, BattleCard("flanks_protected")))
    assert choose(g, 0) != LostOrders("flanks_protected")
    run(g, (0, Pass()), (1, BattleCard("encirclement")))
    assert choose(g, 0) == LostOrders("encirclement")


def test_it_negates_the_move_that_threatens_the_most_revenue() -> None:
    g = table("france", "austria")
    keep(g, 1)
    a = ref(add(g, 0, "General", "swabia")[0])
    b = ref(add(g, 0, "General", "tyrol")[0])
    give(g, 0, "tactical_move")
    give(g, 1, "logistical_problems")
    run(g, (0, Move(a, "bavaria", "bavaria", "free")))  # Rhineland's: nobody's
    run(g, (0, Move(b, "linz", "linz", "free")))  # Austria's: 2 RP
    run(g, (0, Move(b, "vienna", "vienna", "tactical_move")))  # Austria's capital: 5 RP
    run(g, (0, Submit()))
    assert choose(g, 1) == Negate("logistical_problems", 3)


def test_casualties_lowest_force_first_and_the_enemy_leader_when_winning() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    leader = add(g, 1, "General", "swabia")[0]
    add(g, 1, "Reserves", "swabia", 5)  # L = 2
    new_turn(g)
    add(g, 0, "General", "swabia")
    add(g, 0, "Old Guard", "swabia", 5)
    battle_phase(g)
    run(g, (0, Pass()), (1, Pass()))
    assert choose(g, 0) == Casualty(ref(leader))
    run(g, (0, Casualty(ref(leader))))
    pick = choose(g, 1)
    assert isinstance(pick, Casualty) and g.kind(int(pick.unit[1:])).name == "Reserves"


def test_the_choice_depends_only_on_the_view_and_the_seed() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "lyon")
    add(g, 0, "Hussars", "lyon", 2)
    twin = g.copy()
    twin.hands[1] = ["forage", "depots"]  # what France cannot see
    assert choose(g, 0, seed=7) == choose(twin, 0, seed=7)


def bot_policy(g: EaState, seat: int, kind: str, legal: Any, rng: random.Random) -> Any:
    """The computer player, deciding from the seat's own view."""
    return BOT.choose(g.view_for(seat), legal, "normal", rng.randrange(1 << 30))


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"leaders_in_play": True}),
        (3, {"sealed_battle_cards": True, "protected_leaders": True}),
        (5, {}),
        (4, {"teams": True, "compact_map": True, "fast_windows": True, "basic_set": True}),
    ],
)
def test_bot_playouts_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    p = play(players, 3, Options.from_dict(options), bot_policy, views_every=60, sample=4)
    assert p.state is not None and p.state.over
