"""Battles, one ruling at a time (EA-16 to EA-26, EA-33's battle cards)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.europe_at_war import battle as B
from rules.europe_at_war.actions import (
    BattleCard,
    Capture,
    Casualty,
    Destroy,
    Done,
    LostOrders,
    Pass,
    Retreat,
)
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from tests.rules.europe_at_war.playout import refuses_unchanged
from tests.rules.europe_at_war.scenario import (
    add,
    battle_phase,
    give,
    keep,
    names,
    new_turn,
    ref,
    result_of,
    run,
    table,
)


def _text_example() -> tuple[EaState, list[int]]:
    """EA-20's worked example: 13 French units attack 12 British in a Major City."""
    g = table("france", "britain")
    add(g, 1, "Line Battalion", "lancashire", 8)
    add(g, 1, "Riflemen", "lancashire", 2)
    add(g, 1, "Foot Artillery", "lancashire", 2)
    new_turn(g)
    french = add(g, 0, "General", "lancashire")
    french += add(g, 0, "Old Guard", "lancashire")
    french += add(g, 0, "Line Battalion", "lancashire", 6)
    french += add(g, 0, "Hussars", "lancashire", 2)
    french += add(g, 0, "Foot Artillery", "lancashire", 2)
    french += add(g, 0, "Chasseurs", "lancashire")
    give(g, 0, "bayonet_charge", "encirclement")
    give(g, 1, "defensive_formation", "lost_orders")
    return g, french


def test_ea20_text_example_13_vs_12() -> None:
    g, french = _text_example()
    battle_phase(g)
    b = g.battle
    assert b is not None and (b.attacker, b.defender, b.kind) == (0, 1, "battle")
    att, dfn = B.breakdown(g, b, 0), B.breakdown(g, b, 1)
    assert (att.unit_sum, att.leader, att.total) == (65, 5, 70)
    assert (dfn.unit_sum, dfn.leader, dfn.total) == (78, 0, 78)
    hussar = next(u for u in att.units if u.name == "Hussars")
    assert (hussar.printed, hussar.kind, hussar.force) == (3, 1, 4)
    gunner = next(u for u in dfn.units if u.name == "Foot Artillery")
    assert (gunner.printed, gunner.kind, gunner.city, gunner.force) == (6, -1, 2, 7)
    run(
        g,
        (0, BattleCard("bayonet_charge")),
        (1, BattleCard("defensive_formation")),
        (0, BattleCard("encirclement")),
        (1, LostOrders("encirclement")),
        (0, Pass()),
        (1, Pass()),
    )
    result = g.battle.result if g.battle else {}
    assert result["attacker"]["total"] == 91 and result["defender"]["total"] == 102
    assert result["attacker"]["multiplier"] == "1"  # Encirclement was cancelled
    assert result["winner"] == 1
    assert (result["base"], result["loser_loses"], result["winner_loses"]) == (3, 3, 1)
    general = french[0]
    # the winner picks the first casualty: he takes the General, who is set aside
    assert g.deciders()[0].seat == 1 and g.deciders()[0].kind == "casualties"
    run(g, (1, Casualty(ref(general))))
    assert general in g.aside
    # the loser picks his other two, then the winner his one
    assert g.deciders()[0].seat == 0
    run(g, (0, Casualty(ref(french[-1]))), (0, Casualty(ref(french[-2]))))
    assert g.deciders()[0].seat == 1
    line = next(u for u in g.stack("lancashire", 1) if g.kind(u).name == "Line Battalion")
    run(g, (1, Casualty(ref(line))))
    assert len(g.stack("lancashire", 1)) == 11
    # the French retreat
    assert g.deciders()[0].kind == "retreat" and g.deciders()[0].seat == 0
    run(g, (0, Retreat("midlands")))
    assert len(g.stack("midlands", 0)) == 10 and not g.stack("lancashire", 0)


def test_ea20_a_tie_goes_to_the_defender() -> None:
    g = table("france", "austria")
    add(g, 1, "Grenadiers", "lyon")  # 6, +2 in a Major City: 8
    new_turn(g)
    add(g, 0, "Grenadiers", "lyon")
    add(g, 0, "Reserves", "lyon")  # 6 + 2
    battle_phase(g)
    run(g, (0, Pass()), (1, Pass()))
    assert g.battle is not None and g.battle.result["winner"] == 1


def test_ea20_the_total_is_rounded_down_after_multipliers_and_never_below_zero() -> None:
    g = table("france", "austria")
    add(g, 1, "Fusiliers", "bavaria")
    new_turn(g)
    add(g, 0, "General", "bavaria")
    add(g, 0, "Hussars", "bavaria")  # 10 + 4 + 5 (leader) = 19
    give(g, 1, "blunder", "dispersed", "disorganized")
    battle_phase(g)
    run(g, (0, Pass()), (1, BattleCard("blunder")))
    b = g.battle
    assert b is not None
    assert B.breakdown(g, b, 0).total == 9  # 19 x 1/2 rounded down
    run(g, (0, Pass()), (1, BattleCard("dispersed")), (0, Pass()), (1, BattleCard("disorganized")))
    assert B.breakdown(g, b, 0).total == 0  # (19 - 20) / 2 is below 0


def test_ea19_kind_modifiers_city_defence_and_vs_forts() -> None:
    g = table("britain", "prussia")
    fort = add(g, 1, "Fortifications", "berlin")
    cav = add(g, 1, "Cuirassiers", "berlin")
    new_turn(g)
    sappers = add(g, 0, "Sappers", "berlin")
    siege = add(g, 0, "Siege Artillery", "berlin")
    add(g, 0, "Horse Guards", "berlin")
    battle_phase(g)
    b = g.battle
    assert b is not None and b.kind == "siege"
    att = {u.unit: u for u in B.breakdown(g, b, 0).units}
    dfn = {u.unit: u for u in B.breakdown(g, b, 1).units}
    assert att[sappers[0]].vs_forts == 2 and att[sappers[0]].force == 4
    assert att[siege[0]].vs_forts == 4 and att[siege[0]].kind == 1 and att[siege[0]].force == 9
    assert dfn[cav[0]].kind == -1 and dfn[cav[0]].city == 2 and dfn[cav[0]].force == 7
    assert dfn[fort[0]].force == 12
    # C3: once the Fortification is gone, the bonus against it goes too (a siege stays a siege)
    give(g, 0, "siege")
    run(g, (0, Destroy("siege", ref(fort[0]))))
    att = {u.unit: u for u in B.breakdown(g, b, 0).units}
    assert att[sappers[0]].vs_forts == 0 and b.kind == "siege"


def test_ea19_a_unit_s_force_is_never_below_zero() -> None:
    g = table("france", "austria")
    add(g, 1, "Reserves", "swabia")
    new_turn(g)
    add(g, 0, "Reserves", "swabia")
    give(g, 0, "disordered_infantry", "broken_ground")
    battle_phase(g)
    run(g, (0, BattleCard("disordered_infantry")), (1, Pass()), (0, BattleCard("broken_ground")))
    b = g.battle
    assert b is not None
    assert [u.force for u in B.breakdown(g, b, 1).units] == [0]


def test_ea21_leader_advantage_reputation_and_lost_leaders_set_aside() -> None:
    g = table("france", "austria")
    add(g, 1, "Line Battalion", "bavaria", 2)
    new_turn(g)
    general = add(g, 0, "General", "bavaria")[0]
    add(g, 0, "Reserves", "bavaria")
    battle_phase(g)
    b = g.battle
    assert b is not None
    assert B.breakdown(g, b, 0).leader == 5 and B.breakdown(g, b, 1).leader == 0
    run(g, (0, Pass()), (1, Pass()))
    assert g.units[general].rep == 1  # a winner: experienced
    assert g.battle is None or g.battle.stage != "cards"


def test_ea22_casualty_counts_rearguard_and_extra_casualty_cards() -> None:
    g = table("france", "austria")
    add(g, 1, "Line Battalion", "swabia", 11)  # N = 11: L = 3, W = 1
    new_turn(g)
    add(g, 0, "General", "swabia")
    add(g, 0, "Old Guard", "swabia", 5)
    give(g, 0, "attrition", "take_prisoners")
    give(g, 1, "rearguard_action", "costly_victory")
    battle_phase(g)
    run(
        g,
        (0, BattleCard("take_prisoners")),
        (1, BattleCard("rearguard_action")),
        (0, BattleCard("attrition")),
        (1, BattleCard("costly_victory")),
        (0, Pass()),
        (1, Pass()),
    )
    r = g.battle.result if g.battle else {}
    assert r["winner"] == 0 and r["base"] == 3
    # L: 3 halved to 1, +1 Take Prisoners, +1 Attrition = 3; W: 1 +1 Attrition +1 Costly = 3
    assert (r["loser_loses"], r["winner_loses"]) == (3, 3)


def test_ea22_losses_are_clamped_to_the_stack_once_at_the_end() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Reserves", "bavaria")
    new_turn(g)
    add(g, 0, "General", "bavaria")
    give(g, 0, "crowding")
    give(g, 1, "orderly_withdrawal", "bloody_fight")
    battle_phase(g)
    events = run(
        g,
        (0, BattleCard("crowding")),
        (1, BattleCard("orderly_withdrawal")),
        (0, Pass()),
        (1, BattleCard("bloody_fight")),
        (0, Pass()),
        (1, Pass()),
    )
    r = result_of(events)
    # N = 1: L = 1 -1 +1 +1 = 2, clamped to 1; W = 0 +1 = 1 (the General alone)
    assert (r["loser_loses"], r["winner_loses"]) == (1, 1)


def test_ea23_forts_fall_first_winner_picks_first_then_loser_then_winner() -> None:
    g = table("austria", "prussia")
    forts = add(g, 1, "Fortifications", "breslau", 2)
    add(g, 1, "Landwehr", "breslau", 8)  # N = 10: L = 2 (both forts), W = 1
    new_turn(g)
    add(g, 0, "General", "breslau")
    add(g, 0, "Guard Infantry", "breslau", 5)
    add(g, 0, "Siege Artillery", "breslau", 5)
    give(g, 0, "vigorous_attack")
    battle_phase(g)
    run(g, (0, BattleCard("vigorous_attack")), (1, Pass()), (0, Pass()))
    assert all(f in g.piles[1] for f in forts)
    # both losses were the Fortifications: the winner loses 1 of his own
    assert g.deciders()[0].seat == 0 and g.deciders()[0].kind == "casualties"
    assert len(g.stack("breslau", 1)) == 8


def test_ea23_protected_leaders_keep_the_first_pick_off_leaders() -> None:
    g = table("france", "austria", options=Options(protected_leaders=True))
    general = add(g, 1, "General", "bavaria")[0]
    add(g, 1, "Reserves", "bavaria", 5)  # L = 2
    new_turn(g)
    add(g, 0, "General", "bavaria")
    add(g, 0, "Old Guard", "bavaria", 5)
    battle_phase(g)
    run(g, (0, Pass()), (1, Pass()))
    d = g.deciders()[0]
    assert (d.seat, d.kind) == (0, "casualties")
    assert all(g.kind(int(a.unit[1:])).name == "Reserves" for a in g.legal_actions(0))
    refuses_unchanged(g, 0, Casualty(ref(general)))


def test_ea24_attacker_retreats_the_way_he_came_defender_anywhere_none_destroyed() -> None:
    g = table("france", "austria")
    add(g, 1, "Guard Infantry", "bavaria", 3)
    new_turn(g)
    general = add(g, 0, "General", "swabia")[0]
    add(g, 0, "Reserves", "swabia")
    from rules.europe_at_war.actions import Move, Submit

    run(g, (0, Move(ref(general), "bavaria", "bavaria", "free")), (0, Submit()))
    run(g, (1, Done()), (1, Done()))
    assert g.battle is not None and g.battle.entered == ["swabia"]
    run(g, (0, Pass()), (1, Pass()))
    run(g, (1, Casualty(ref(general))))
    # the attacker's survivor goes back to Swabia: the only space he entered from
    assert names(g, "swabia", 0) == ["Reserves"]
    assert B.retreat_spaces is not None


def test_ea24_no_legal_retreat_destroys_the_survivors() -> None:
    g = table("france", "britain")
    # Ireland: its land neighbours are Lancashire and Scotland, both held by France
    add(g, 1, "Line Battalion", "ireland", 6)
    add(g, 0, "Reserves", "lancashire")
    add(g, 0, "Reserves", "scotland")
    new_turn(g)
    add(g, 0, "General", "ireland")
    add(g, 0, "Old Guard", "ireland", 5)
    add(g, 0, "Foot Artillery", "ireland", 5)
    battle_phase(g)
    run(g, (0, Pass()), (1, Pass()))
    while g.deciders() and g.deciders()[0].kind == "casualties":
        d = g.deciders()[0]
        run(g, (d.seat, g.legal_actions(d.seat)[0]))
    assert not g.stack("ireland", 1)


def test_ea25_siege_cards_only_in_sieges_and_battle_cards_not_in_sieges() -> None:
    g = table("france", "austria")
    add(g, 1, "Fortifications", "vienna")
    new_turn(g)
    add(g, 0, "General", "vienna")
    give(g, 0, "long_siege", "flanks_protected", "bombardment")
    battle_phase(g)
    kinds = {getattr(a, "card", a.kind) for a in g.legal_actions(0)}
    assert "long_siege" in kinds and "bombardment" in kinds and "flanks_protected" not in kinds


def test_ea18_only_the_side_named_may_play_and_two_passes_end_it() -> None:
    g = table("france", "austria")
    add(g, 1, "Reserves", "bavaria", 2)
    new_turn(g)
    add(g, 0, "General", "bavaria")
    give(g, 0, "ambush", "distraction")
    give(g, 1, "strong_position", "surprise")
    battle_phase(g)
    offered = {getattr(a, "card", None) for a in g.legal_actions(0)}
    assert "distraction" in offered and "ambush" not in offered
    refuses_unchanged(g, 0, BattleCard("ambush"))
    run(g, (0, Pass()))
    offered = {getattr(a, "card", None) for a in g.legal_actions(1)}
    assert "strong_position" in offered and "surprise" not in offered
    run(g, (1, BattleCard("strong_position")), (0, Pass()))
    assert g.battle is not None and g.battle.stage == "cards"  # a pass, a card, a pass
    run(g, (1, Pass()))
    assert g.battle is None or g.battle.stage != "cards"


def test_ea18_a_destroy_card_acts_at_once_and_lost_orders_brings_it_back() -> None:
    g = table("france", "austria")
    gun = add(g, 1, "Foot Artillery", "bavaria")[0]
    add(g, 1, "Reserves", "bavaria")
    new_turn(g)
    add(g, 0, "General", "bavaria")
    give(g, 0, "target_artillery")
    give(g, 1, "lost_orders")
    battle_phase(g)
    run(g, (0, Destroy("target_artillery", ref(gun))))
    assert gun not in g.units and gun in g.piles[1]
    run(g, (1, LostOrders("target_artillery")))
    assert g.units[gun].space == "bavaria"


def test_ea18_glorious_death_sets_the_leader_aside() -> None:
    g = table("france", "austria")
    general = add(g, 1, "General", "bavaria")[0]
    add(g, 1, "Reserves", "bavaria")
    new_turn(g)
    add(g, 0, "Reserves", "bavaria", 2)
    give(g, 0, "glorious_death")
    battle_phase(g)
    run(g, (0, Destroy("glorious_death", ref(general))))
    assert general in g.aside


def test_ea33_leader_and_experienced_leader_cards_need_their_leader() -> None:
    g = table("france", "austria")
    add(g, 1, "Reserves", "bavaria", 2)
    new_turn(g)
    add(g, 0, "Old Guard", "bavaria")
    add(g, 0, "General", "swabia")
    give(g, 0, "lead_column", "veteran_troops", "bullet_wound", "demoralized")
    battle_phase(g)
    offered = {getattr(a, "card", None) for a in g.legal_actions(0)}
    assert {"lead_column", "veteran_troops", "bullet_wound"}.isdisjoint(offered)
    assert "demoralized" in offered
    run(g, (0, BattleCard("demoralized")))
    b = g.battle
    assert b is not None
    assert [u.cards for u in B.breakdown(g, b, 1).units] == [-1, -1]  # EA-33: -1 each


def test_ea33_experienced_leader_cards_with_a_veteran() -> None:
    g = table("france", "austria")
    add(g, 1, "Reserves", "bavaria", 2)
    new_turn(g)
    add(g, 0, "General", "bavaria", rep=1)
    add(g, 0, "Old Guard", "bavaria")
    give(g, 0, "veteran_troops", "encirclement", "counterattack")
    battle_phase(g)
    offered = {getattr(a, "card", None) for a in g.legal_actions(0)}
    assert "veteran_troops" in offered and "counterattack" not in offered
    run(g, (0, BattleCard("veteran_troops")), (1, Pass()), (0, BattleCard("encirclement")))
    b = g.battle
    assert b is not None
    att = B.breakdown(g, b, 0)
    # General 10+1 rep +1, Old Guard 7+1, leader advantage 5, all x2
    assert (att.unit_sum, att.leader, att.multiplier, att.total) == (20, 5, Fraction(2), 50)


def test_ea16_kinds_sea_siege_and_battle() -> None:
    g = table("britain", "france")
    add(g, 1, "Frigates", "channel")
    new_turn(g)
    add(g, 0, "Ships of the Line", "channel")
    battle_phase(g)
    assert g.battle is not None and g.battle.kind == "sea"
    assert B.has_leader(g, g.battle, 0) is False


def test_ea16_both_there_before_the_turn_the_active_player_attacks() -> None:
    g = table("france", "austria")
    add(g, 0, "Reserves", "bavaria")
    add(g, 1, "Reserves", "bavaria")
    new_turn(g)
    battle_phase(g)
    assert g.battle is not None and (g.battle.attacker, g.battle.defender) == (0, 1)


def test_ea17_several_opponents_one_by_one_in_the_active_player_s_order() -> None:
    g = table("france", "austria", "russia")
    add(g, 1, "Reserves", "bavaria")
    add(g, 2, "Reserves", "bavaria")
    new_turn(g)
    add(g, 0, "General", "bavaria")
    add(g, 0, "Old Guard", "bavaria", 3)
    battle_phase(g)
    from rules.europe_at_war.actions import Fight

    assert set(g.legal_actions(0)) >= {Fight("bavaria", 1), Fight("bavaria", 2)}
    run(g, (0, Fight("bavaria", 2)))
    assert g.battle is not None and g.battle.defender == 2


def test_ea17_when_the_active_stack_is_gone_the_rest_do_not_happen() -> None:
    g = table("france", "austria", "russia")
    add(g, 1, "Guard Infantry", "bavaria", 5)
    add(g, 2, "Guard Infantry", "bavaria", 5)
    new_turn(g)
    add(g, 0, "Reserves", "bavaria")
    battle_phase(g)
    from rules.europe_at_war.actions import Fight

    run(g, (0, Fight("bavaria", 1)), (0, Pass()), (1, Pass()))
    # the lone Reserves is lost: no battle with Russia follows
    assert not g.stack("bavaria", 0)
    assert g.step in ("recruit", "upkeep", "plan", "discard") or g.over


def test_ea26_both_participants_draw_up_to_seven() -> None:
    g = table("france", "austria", "russia")
    keep(g, 1)
    add(g, 1, "Reserves", "bavaria")
    new_turn(g)
    add(g, 0, "General", "bavaria")
    add(g, 0, "Old Guard", "bavaria")
    give(g, 0, "bayonet_charge")
    battle_phase(g)
    run(g, (0, BattleCard("bayonet_charge")), (1, Pass()), (0, Pass()))
    assert len(g.hands[0]) == 7 and len(g.hands[1]) == 7 and len(g.hands[2]) == 0


def test_ea33_capture_ship_takes_a_surviving_ship() -> None:
    g = table("britain", "france")
    add(g, 1, "Ships of the Line", "channel", 6)
    new_turn(g)
    add(g, 0, "Admiral", "channel")
    add(g, 0, "Ships of the Line", "channel", 6)
    give(g, 0, "capture_ship", "cross_the_t")
    battle_phase(g)
    run(g, (0, BattleCard("capture_ship")), (1, Pass()), (0, BattleCard("cross_the_t")))
    run(g, (1, Pass()), (0, Pass()))
    while g.deciders()[0].kind == "casualties":
        d = g.deciders()[0]
        run(g, (d.seat, g.legal_actions(d.seat)[0]))
    d = g.deciders()[0]
    assert (d.seat, d.kind) == (0, "capture")
    ship = int(g.legal_actions(0)[0].unit[1:])
    run(g, (0, g.legal_actions(0)[0]))
    assert g.units[ship].owner == 0 and g.chits.origin[ship] == 1


@pytest.mark.parametrize("sealed", [True])
def test_ea36_sealed_battle_cards_are_chosen_at_once_then_one_lost_orders_round(
    sealed: bool,
) -> None:
    g = table("france", "austria", options=Options(sealed_battle_cards=sealed))
    add(g, 1, "Reserves", "bavaria", 2)
    new_turn(g)
    add(g, 0, "General", "bavaria")
    give(g, 0, "encirclement", "bayonet_charge")
    give(g, 1, "lost_orders", "high_ground")
    battle_phase(g)
    assert {d.seat for d in g.deciders()} == {0, 1}
    run(g, (0, BattleCard("encirclement")))
    # the defender does not see the attacker's choice
    view = g.view_for(1)
    assert view.battle is not None and not view.battle.plays
    run(g, (1, BattleCard("high_ground")), (1, Done()), (0, Done()))
    assert g.deciders()[0].seat == 0 and g.deciders()[0].kind == "answer"
    events = run(g, (0, Pass()), (1, LostOrders("encirclement")))
    assert result_of(events)["attacker"]["multiplier"] == "1"  # type: ignore[index]


def test_ea18_a_stack_emptied_by_a_destroy_card_loses_unless_lost_orders_answers() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    general = add(g, 1, "General", "swabia")[0]
    new_turn(g)
    add(g, 0, "Reserves", "swabia", 2)
    give(g, 0, "glorious_death")
    give(g, 1, "lost_orders")
    battle_phase(g)
    run(g, (0, Destroy("glorious_death", ref(general))))
    # the emptied stack's owner may still answer the card just played
    assert g.deciders()[0].seat == 1 and LostOrders("glorious_death") in g.legal_actions(1)
    run(g, (1, LostOrders("glorious_death")))
    assert g.units[general].space == "swabia" and general not in g.aside


def test_ea18_an_emptied_stack_loses_the_battle() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    general = add(g, 1, "General", "swabia")[0]
    new_turn(g)
    add(g, 0, "Reserves", "swabia", 2)
    give(g, 0, "glorious_death")
    battle_phase(g)
    run(g, (0, Destroy("glorious_death", ref(general))), (1, Pass()))
    events = run(g, (0, Pass()))
    assert result_of(events) == {"winner": 0, "empty": True}
    assert general in g.aside and g.battle is None


def test_ea8_dragoons_are_cavalry_and_heavy_infantry_and_a_card_counts_once_per_unit() -> None:
    g = table("austria", "france")
    keep(g, 0, 1)
    add(g, 1, "Line Battalion", "bavaria", 6)
    new_turn(g)
    dragoons = add(g, 0, "Dragoons", "bavaria")[0]
    hussars = add(g, 0, "Hussars", "bavaria")[0]
    uhlans = add(g, 0, "Uhlans", "bavaria")[0]
    give(g, 0, "bayonet_charge", "wheel_about", "bugles", "lance_charge")
    battle_phase(g)
    run(g, (0, BattleCard("bayonet_charge")), (1, Pass()), (0, BattleCard("wheel_about")))
    run(g, (1, Pass()), (0, BattleCard("bugles")), (1, Pass()), (0, BattleCard("lance_charge")))
    b = g.battle
    assert b is not None
    cards = {u.unit: u.cards for u in B.breakdown(g, b, 0).units}
    # Dragoons: heavy infantry (+3) and cavalry (+2 Wheel About, +3 Bugles); Lance Charge
    # is for Lancers only, and the Uhlans are Lancers by name (EA-8)
    assert cards[dragoons] == 3 + 2 + 3
    # Hussars are light and cavalry: Bugles ("Light Units & Cavalry") counts once
    assert cards[hussars] == 2 + 3
    assert cards[uhlans] == 2 + 3 + 5


def test_ea21_every_leader_of_the_winner_gains_and_a_lost_leader_is_set_aside() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    beaten = add(g, 1, "General", "bavaria")[0]
    add(g, 1, "Reserves", "bavaria", 4)  # N = 5: L = 1, W = 0
    new_turn(g)
    a, b = add(g, 0, "General", "bavaria", 2)
    add(g, 0, "Old Guard", "bavaria", 3)
    battle_phase(g)
    run(g, (0, Pass()), (1, Pass()))
    assert (g.units[a].rep, g.units[b].rep) == (1, 1)
    run(g, (0, Casualty(ref(beaten))))
    assert beaten in g.aside and beaten not in g.piles[1] and beaten not in g.units


def test_ea24_the_beaten_defender_chooses_any_free_adjacent_space() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Reserves", "bavaria", 6)
    add(g, 0, "Reserves", "linz")  # not free: France's units
    new_turn(g)
    add(g, 0, "General", "bavaria")
    add(g, 0, "Old Guard", "bavaria", 5)
    battle_phase(g)
    run(g, (0, Pass()), (1, Pass()))
    while g.deciders()[0].kind == "casualties":
        d = g.deciders()[0]
        run(g, (d.seat, g.legal_actions(d.seat)[0]))
    d = g.deciders()[0]
    assert (d.seat, d.kind) == (1, "retreat")
    assert {a.dest for a in g.legal_actions(1)} == {"nuremberg", "prague", "swabia", "tyrol"}
    refuses_unchanged(g, 1, Retreat("linz"))
    run(g, (1, Retreat("prague")))
    assert names(g, "prague", 1) == ["Reserves"] * 4


def test_ea24_c10_an_attacker_landed_from_the_sea_retreats_to_any_free_land() -> None:
    from rules.europe_at_war.actions import Move, Submit

    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Guard Infantry", "bilbao", 3)
    general = add(g, 0, "General", "brest")[0]
    add(g, 0, "Reserves", "brest")
    add(g, 0, "Frigates", "atlantic")
    run(g, (0, Move(ref(general), "bilbao", "atlantic>bilbao", "free")), (0, Submit()))
    run(g, (1, Done()), (1, Done()))
    b = g.battle
    assert b is not None and b.entered == ["atlantic"]
    run(g, (0, Pass()), (1, Pass()))
    run(g, (1, Casualty(ref(general))))
    # it came from the sea: any adjacent territory free of other players will do
    assert {a.dest for a in g.legal_actions(0)} == {"bordeaux", "leon", "madrid", "zaragoza"}


def test_ea33_capture_ship_takes_a_lost_ship_if_none_survive_and_it_goes_home_if_sunk() -> None:
    g = table("britain", "france")
    keep(g, 0, 1)
    lost = add(g, 1, "Frigates", "channel")[0]  # N = 1: the loser loses it
    new_turn(g)
    add(g, 0, "Admiral", "channel")
    add(g, 0, "Ships of the Line", "channel", 2)
    give(g, 0, "capture_ship")
    battle_phase(g)
    run(g, (0, BattleCard("capture_ship")), (1, Pass()), (0, Pass()))
    d = g.deciders()[0]
    assert (d.seat, d.kind) == (0, "capture") and g.legal_actions(0) == [Capture(ref(lost))]
    run(g, (0, Capture(ref(lost))))
    assert g.units[lost].owner == 0 and g.units[lost].space == "channel"
    # sunk later, it returns to the pile of the nation it came from
    g.remove(lost)
    assert lost in g.piles[1] and lost not in g.piles[0]
