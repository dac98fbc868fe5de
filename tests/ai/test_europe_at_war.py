"""Europe at War's heuristic computer players: each rule of thumb, from the seat's own
view only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.europe_at_war import EaPlayer
from rules.europe_at_war import economy as E
from rules.europe_at_war import flow
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
    Place,
    Submit,
)
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from rules.events import Event
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
    through_windows,
)

BOT = EaPlayer()


def choose(g: EaState, seat: int, seed: int = 1) -> Any:
    """The bot's choice for ``seat`` from its own view and its legal actions."""
    return BOT.choose(g.view_for(seat), g.legal_actions(seat), "normal", seed)


def plan_turn(g: EaState) -> list[Any]:
    """Let the active player's bot give its whole plan (own-turn cards, orders and
    drop-offs) up to its Submit, which is not applied."""
    out = []
    while True:
        action = choose(g, g.current)
        out.append(action)
        if action == Submit():
            return out
        run(g, (g.current, action))


def end_turn(g: EaState) -> list[Event]:
    """Submit the plan, let the windows pass and finish the turn (no recruits)."""
    events = through_windows(g)
    while g.current == 0 and not g.over:
        d = g.deciders()[0]
        action = Done() if Done() in g.legal_actions(d.seat) else g.legal_actions(d.seat)[0]
        events += g.apply(d.seat, action)
    return events


def claimed(events: list[Event]) -> list[str]:
    return next(e.data["taken"] for e in events if e.kind == "control")


def test_a_general_grabs_land_dropping_single_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "lyon")[0]
    add(g, 0, "Hussars", "lyon", 4)
    g.treasury[0] = 20
    plan = plan_turn(g)
    move = plan[0]
    assert isinstance(move, Move) and move.group == ref(general) and move.pay == "free"
    drops = [a for a in plan if isinstance(a, Drop)]
    path = move.via.split(">")
    # one unit in each territory the group enters on its way, none of them held before
    assert len(path) == 3 and sorted(d.at for d in drops) == sorted(path[:-1])
    assert not any(t in g.control for t in path)
    taken = claimed(end_turn(g))
    assert sorted(taken) == sorted(path)


def test_a_move_card_takes_the_general_on_leaving_a_unit_where_he_stood() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "lyon")[0]
    add(g, 0, "Hussars", "lyon", 4)
    give(g, 0, "tactical_move")
    g.treasury[0] = 20
    plan = plan_turn(g)
    moves = [a for a in plan if isinstance(a, Move)]
    assert [m.pay for m in moves] == ["free", "tactical_move"]
    assert all(m.group == ref(general) for m in moves)
    second = plan.index(moves[1])
    assert Drop(plan[second + 1].unit, moves[0].dest) == plan[second + 1]
    taken = claimed(end_turn(g))
    assert moves[0].dest in taken and moves[1].dest in taken and len(taken) >= 4


def test_a_general_with_nothing_to_spare_goes_back_for_idle_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "geneva")
    g.control["geneva"] = 0
    add(g, 0, "Line Battalion", "paris", 5)
    plan = plan_turn(g)
    assert isinstance(plan[0], Move) and plan[0].dest == "paris"


def test_ships_come_for_a_general_waiting_on_the_coast_then_carry_his_group() -> None:
    g = table("britain", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "london")[0]
    add(g, 0, "Line Battalion", "london", 3)
    admiral = add(g, 0, "Admiral", "channel")[0]
    add(g, 0, "Frigates", "channel")
    g.treasury[0] = 20
    plan = plan_turn(g)
    # London touches only the North Sea: the Admiral brings the frigate there first
    assert plan[0] == Move(ref(admiral), "north_sea", "north_sea", "free")
    sea = plan[1]
    assert isinstance(sea, Move) and sea.group == ref(general) and sea.via.startswith("north_sea>")
    end_turn(g)
    assert g.control[g.units[general].space] == 0 and len(g.stack(sea.dest, 0)) == 4


def test_it_does_not_attack_a_stronger_stack() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 1, "Guard Infantry", "geneva", 5)
    add(g, 0, "General", "lyon")
    assert any(isinstance(a, Move) and a.dest == "geneva" for a in g.legal_actions(0))
    assert not any(isinstance(a, Move) and a.dest == "geneva" for a in plan_turn(g))


def test_it_attacks_a_stack_it_clearly_outweighs() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 1, "Reserves", "geneva")
    add(g, 0, "General", "lyon")
    add(g, 0, "Old Guard", "lyon", 3)
    g.control.update({t: 0 for t in g.map.territories if t not in g.control})
    g.control["geneva"] = 1
    plan = plan_turn(g)
    assert any(isinstance(a, Move) and a.dest == "geneva" for a in plan)


def _drawn(g: EaState, *names: str) -> None:
    """Recruit Phase with ``names`` drawn; the income as the Revenue Phase left it."""
    g.step = "recruit"
    g.income = E.income(g, 0)
    for name in names:
        uid = next(c for c in g.piles[0] if g.kind(c).name == name)
        g.piles[0].remove(uid)
        g.drawn[0].append(uid)


def test_recruits_generals_first_then_fast_units_as_the_upkeep_allows() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "Reserves", "paris", 3)
    _drawn(g, "Old Guard", "General", "Hussars", "Line Battalion")
    g.treasury[0] = 19
    first = choose(g, 0)
    assert isinstance(first, Buy) and g.kind(int(first.chit[1:])).name == "General"
    run(g, (0, first))
    # while land is left to take, the fast Hussars (3 RP) come before the Old Guard
    second = choose(g, 0)
    assert isinstance(second, Buy) and g.kind(int(second.chit[1:])).name == "Hussars"
    run(g, (0, second))
    # 6 RP left for 5 units' upkeep: one more unit would leave it unpaid
    assert choose(g, 0) == Done()


def test_recruits_are_placed_with_a_general() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "marseille")
    _drawn(g, "Hussars")
    g.treasury[0] = 30
    buy = choose(g, 0)
    assert isinstance(buy, Buy) and buy.at == "marseille"


def test_setup_puts_the_general_on_the_frontier_with_the_fast_units() -> None:
    g, _ = EaPlayerGame.new()
    while g.step == "setup" and g.setup_seat == 0:
        run(g, (0, choose(g, 0)))
    general = next(u for u in g.units_of(0) if g.kind(u).general)
    home = g.map.home(g.nations[0])
    at = g.units[general].space
    assert at != home.capital and any(
        g.map.territories[n].country != home.id for n in g.map.territories[at].adjacent
    )
    fast = [u for u in g.units_of(0) if g.kind(u).speed >= 3 and not g.kind(u).naval]
    assert all(g.units[u].space == at for u in fast)


class EaPlayerGame:
    """A fresh two-player game in setup, France first."""

    @staticmethod
    def new() -> tuple[EaState, list[Event]]:
        from rules.europe_at_war.game import EaGame

        return EaGame().new_game(["france", "austria"], 4, Options(), arranged=True)


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
    # 22 against 26: the attacker needs 5; Bayonet Charge gives 3, High Ground 10
    assert choose(g, 0) == BattleCard("high_ground")


def test_the_cheapest_card_that_wins_is_played() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Line Battalion", "swabia", 5)  # 20
    new_turn(g)
    add(g, 0, "Old Guard", "swabia", 2)  # 14
    give(g, 0, "bayonet_charge", "encirclement", "high_ground")
    battle_phase(g)
    # behind by 6: Bayonet Charge (+6) is not enough for the attacker, High Ground is;
    # Encirclement (x2) would do too but is worth more in the hand
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
    # and a fresh player, who has worked out no plan before, makes the same choice
    assert EaPlayer().choose(g.view_for(0), g.legal_actions(0), "normal", 7) == choose(g, 0, 7)


def test_a_plan_is_carried_on_by_a_fresh_player_step_by_step() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "lyon")
    add(g, 0, "Hussars", "lyon", 4)
    give(g, 0, "tactical_move")
    twin = g.copy()
    whole = plan_turn(g)
    steps = []
    while True:
        action = EaPlayer().choose(twin.view_for(0), twin.legal_actions(0), "normal", 1)
        steps.append(action)
        if action == Submit():
            break
        run(twin, (0, action))
    assert steps == whole


def test_gifts_are_placed_like_recruits() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "bordeaux")
    give(g, 0, "reinforcements")
    events: list[Event] = []
    g.step = "plan"
    flow.advance(g, events)
    run(g, (0, choose(g, 0)))
    assert g.deciders()[0].kind == "place"
    action = choose(g, 0)
    assert isinstance(action, Place) and action.at == "bordeaux"


def bot_policy(g: EaState, seat: int, kind: str, legal: Any, rng: random.Random) -> Any:
    """The computer player, deciding from the seat's own view."""
    return BOT.choose(g.view_for(seat), legal, "normal", rng.randrange(1 << 30))


BOT_TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {"leaders_in_play": True}),
    (3, {"sealed_battle_cards": True, "protected_leaders": True}),
    (5, {}),
    (4, {"teams": True, "compact_map": True, "fast_windows": True, "basic_set": True}),
]


@pytest.mark.parametrize(("players", "options"), BOT_TABLES)
def test_bot_openings_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    """The default run: each table's first two rounds (the whole games are slow)."""
    p = play(players, 3, Options.from_dict(options), bot_policy, views_every=60, sample=2, rounds=2)
    assert p.state is not None and (p.state.over or p.state.round == 3)
    assert any(step["kind"] == "drop" for _, step in p.log)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), BOT_TABLES)
def test_bot_playouts_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    p = play(players, 3, Options.from_dict(options), bot_policy, views_every=60, sample=4)
    assert p.state is not None and p.state.over
