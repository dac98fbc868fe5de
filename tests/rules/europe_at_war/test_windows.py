"""The Move Phase procedure and the reactions (EA-15, EA-33)."""

from __future__ import annotations

from rules.europe_at_war.actions import (
    Avoid,
    Compel,
    Done,
    Interdict,
    LostOrders,
    Move,
    Negate,
    Pass,
    React,
    Submit,
)
from rules.europe_at_war.options import Options
from tests.rules.europe_at_war.playout import refuses_unchanged
from tests.rules.europe_at_war.scenario import (
    add,
    give,
    keep,
    names,
    ref,
    run,
    table,
    through_windows,
)


def test_ea15_plan_then_w1_then_the_orders_then_w2_then_battles() -> None:
    g = table("france", "austria", "russia")
    keep(g, 1, 2)
    general = ref(add(g, 0, "General", "paris")[0])
    add(g, 1, "Reserves", "lyon")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    # the plan is private until it is shown
    assert g.view_for(1).plan is None and g.view_for(0).plan
    run(g, (0, Submit()))
    assert {(d.seat, d.kind) for d in g.deciders()} == {(1, "w1"), (2, "w1")}
    assert g.view_for(1).plan and g.units[int(general[1:])].space == "paris"
    run(g, (1, Done()), (2, Done()))
    # carried out: the General is in Lyon; W2 is open to both others at once
    assert g.units[int(general[1:])].space == "lyon"
    assert {(d.seat, d.kind) for d in g.deciders()} == {(1, "w2"), (2, "w2")}
    run(g, (2, Done()), (1, Done()))
    assert g.battle is not None and g.battle.at == "lyon"


def test_ea15_a_window_waits_for_every_player_whatever_he_holds() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    give(g, 1, "logistical_problems")
    run(g, (0, Submit()))
    assert {d.seat for d in g.deciders()} == {1, 2}


def test_ea36_fast_windows_pass_players_with_no_card_at_once() -> None:
    g = table("france", "austria", "russia", options=Options(fast_windows=True))
    keep(g, 1, 2)
    general = ref(add(g, 0, "General", "paris")[0])
    give(g, 1, "logistical_problems")
    run(g, (0, Move(general, "lyon", "lyon", "free")), (0, Submit()))
    assert [d.seat for d in g.deciders()] == [1]


def test_ea15_a_negated_order_is_spent_and_one_made_illegal_returns_its_card() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    give(g, 0, "tactical_move")
    give(g, 1, "logistical_problems")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    run(g, (0, Move(general, "marseille", "marseille", "tactical_move")))
    through_windows(g, (1, Negate("logistical_problems", 1)))
    uid = int(general[1:])
    assert g.units[uid].space == "paris" and g.units[uid].free_used
    assert [o.status for o in g.plan] == ["cancelled", "skipped"]
    assert "tactical_move" in g.hands[0] and "logistical_problems" in g.discard


def test_ea33_storms_at_sea_cancel_only_moves_with_ships() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    admiral = ref(add(g, 0, "Admiral", "channel")[0])
    give(g, 1, "storms_at_sea")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    run(g, (0, Move(admiral, "north_sea", "north_sea", "free")), (0, Submit()))
    assert {a for a in g.legal_actions(1) if isinstance(a, Negate)} == {Negate("storms_at_sea", 2)}
    refuses_unchanged(g, 1, Negate("storms_at_sea", 1))


def test_ea33_winter_quarters_cancels_every_order() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    give(g, 0, "tactical_move")
    give(g, 1, "winter_quarters")
    run(g, (0, Move(general, "lyon", "lyon", "tactical_move")))
    through_windows(g, (1, React("winter_quarters")))
    assert g.units[int(general[1:])].space == "paris"
    assert g.plan[0].status == "cancelled" and "tactical_move" in g.discard


def test_ea33_diplomacy_forbids_moving_into_and_fighting_the_card_player() -> None:
    g = table("france", "austria", "russia")
    keep(g, 1, 2)
    general = ref(add(g, 0, "General", "paris")[0])
    add(g, 1, "Reserves", "lyon")
    add(g, 1, "Reserves", "strasbourg")
    add(g, 0, "Reserves", "strasbourg")
    give(g, 1, "diplomacy")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    through_windows(g, (1, React("diplomacy")))
    assert g.plan[0].status == "cancelled" and g.units[int(general[1:])].free_used
    # no battle against Austria in Strasbourg either
    assert g.step == "recruit" and g.battle is None


def test_ea33_lost_orders_in_w1_saves_an_order_from_a_negate_card() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    give(g, 0, "lost_orders")
    give(g, 1, "logistical_problems")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    through_windows(
        g, (1, Negate("logistical_problems", 1)), (0, LostOrders("logistical_problems"))
    )
    assert g.units[int(general[1:])].space == "lyon"
    assert "lost_orders" in g.discard and "logistical_problems" in g.discard


def test_ea33_a_reactor_s_lost_orders_cancels_a_planned_move_card() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    give(g, 0, "tactical_move")
    give(g, 1, "lost_orders")
    run(g, (0, Move(general, "lyon", "lyon", "tactical_move")), (0, Submit()))
    run(g, (1, Done()))
    assert [(d.seat, d.kind) for d in g.deciders()] == [(1, "answer")]
    assert LostOrders("tactical_move") in g.legal_actions(1)
    run(g, (1, LostOrders("tactical_move")))
    assert g.plan[0].status == "cancelled" and "tactical_move" in g.discard


def test_ea33_avoid_battle_leaves_the_shared_space() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    add(g, 1, "Reserves", "lyon", 2)
    add(g, 1, "Fortifications", "lyon")
    give(g, 1, "avoid_battle")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    through_windows(g, (1, Avoid("avoid_battle", "lyon", "geneva")))
    assert names(g, "geneva", 1) == ["Reserves", "Reserves"]
    # the Fortification stays, so the battle is a siege
    assert g.battle is not None and g.battle.kind == "siege"


def test_ea33_interdiction_moves_a_group_into_the_active_player_s_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "Reserves", "strasbourg")
    general = ref(add(g, 1, "General", "swabia")[0])
    give(g, 1, "interdiction")
    run(g, (0, Submit()), (1, Done()))
    options = [a for a in g.legal_actions(1) if isinstance(a, Interdict)]
    assert {a.dest for a in options} == {"strasbourg"}
    run(g, (1, Interdict("interdiction", general, "strasbourg", "strasbourg")), (1, Done()))
    run(g, (0, Pass()))  # the active player may answer with Lost Orders
    # it moved in, so it attacks (EA-16); out of turn, it counts no move (EA-10(e))
    assert g.battle is not None and (g.battle.attacker, g.battle.defender) == (1, 0)
    assert g.units[int(general[1:])].moves == 0


def test_ea33_compel_action_sends_a_stack_with_a_general_one_space() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    add(g, 1, "General", "swabia")
    add(g, 1, "Fortifications", "swabia")
    add(g, 1, "Reserves", "swabia")
    add(g, 2, "Reserves", "bavaria")
    give(g, 0, "compel_action")
    options = {(a.at, a.dest) for a in g.legal_actions(0) if isinstance(a, Compel)}
    assert ("swabia", "tyrol") in options
    assert ("swabia", "bavaria") not in options  # a third player is there
    run(g, (0, Compel("compel_action", "swabia", 1, "tyrol")))
    through_windows(g)
    assert names(g, "tyrol", 1) == ["General", "Reserves"]
    assert names(g, "swabia", 1) == ["Fortifications"]


def test_ea16_revenge_target_attacks() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "Old Guard", "strasbourg", 3)
    add(g, 1, "General", "swabia")
    add(g, 1, "Reserves", "swabia")
    give(g, 0, "revenge")
    options = {(a.at, a.dest) for a in g.legal_actions(0) if isinstance(a, Compel)}
    assert options == {("swabia", "strasbourg")}
    run(g, (0, Compel("revenge", "swabia", 1, "strasbourg")))
    through_windows(g)
    b = g.battle
    assert b is not None and (b.attacker, b.defender) == (1, 0) and b.at == "strasbourg"


def test_ea33_force_battle_must_end_where_another_player_has_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    add(g, 1, "Reserves", "lyon")
    give(g, 0, "force_battle")
    paid = {m.dest for m in g.legal_actions(0) if isinstance(m, Move) and m.pay == "force_battle"}
    assert paid == {"lyon"}
    refuses_unchanged(g, 0, Move(general, "rouen", "rouen", "force_battle"))


def test_ea33_a_w2_card_made_illegal_returns_to_the_hand() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    add(g, 0, "Reserves", "bavaria")
    add(g, 1, "Reserves", "bavaria")
    russian = ref(add(g, 2, "General", "strasbourg")[0])
    give(g, 1, "avoid_battle")
    give(g, 2, "interdiction")
    through_windows(
        g,
        (1, Avoid("avoid_battle", "bavaria", "swabia")),
        (2, Interdict("interdiction", russian, "bavaria", "swabia>bavaria")),
    )
    # Austria sits first on France's left: its Avoid Battle resolves first and blocks
    # Swabia, so Russia's Interdiction through it is illegal and returns to the hand
    assert names(g, "swabia", 1) == ["Reserves"]
    assert "avoid_battle" in g.discard and "interdiction" in g.hands[2]
    assert g.units[int(russian[1:])].space == "strasbourg"


def test_ea33_lost_orders_chains_alternate_and_the_last_answer_stands() -> None:
    """The deck holds one Lost Orders, so a real chain stops after one answer; the rule
    that settles a chain is checked on its own: each answer cancels the card before it."""
    from rules.europe_at_war.state import Window
    from rules.europe_at_war.windows import LOST_ORDERS, cancelled

    w = Window("w1")
    w.answers = [[0, "logistical_problems"]]
    assert cancelled(w) == {"logistical_problems"}
    w.answers.append([1, LOST_ORDERS])  # the negate card's owner answers: it stands again
    assert cancelled(w) == set()
    w.answers.append([0, LOST_ORDERS])  # and the active player answers that
    assert cancelled(w) == {"logistical_problems"}
