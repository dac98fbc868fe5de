"""Moves, one ruling at a time (EA-9 to EA-14)."""

from __future__ import annotations

from rules.europe_at_war.actions import Done, Drop, Move, Undo
from rules.europe_at_war.state import EaState
from tests.rules.europe_at_war.playout import refuses_unchanged
from tests.rules.europe_at_war.scenario import (
    add,
    give,
    keep,
    names,
    new_turn,
    ref,
    run,
    table,
    through_windows,
)


def _moves(g: EaState, group: str) -> list[Move]:
    return [a for a in g.legal_actions(g.current) if isinstance(a, Move) and a.group == group]


def test_ea9_a_group_moves_at_its_slowest_unit_s_speed() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "paris")[0]
    add(g, 0, "Line Battalion", "paris")
    add(g, 0, "Hussars", "paris")
    run(g, (0, Move(ref(general), "swabia", "strasbourg>swabia", "free")))
    through_windows(g)
    # the Line Battalion (Slow) cannot keep up with a two-space move: it stays
    assert names(g, "swabia", 0) == ["General", "Hussars"]
    assert names(g, "paris", 0) == ["Line Battalion"]


def test_ea9_speeds_general_3_admiral_and_frigates_4() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "paris")[0]
    far = {len(a.via.split(">")) for a in _moves(g, ref(general)) if a.via.count(">") < 4}
    assert max(far) == 3
    admiral = add(g, 0, "Admiral", "channel")[0]
    add(g, 0, "Frigates", "channel")
    sea = {len(a.via.split(">")) for a in _moves(g, ref(admiral))}
    assert max(sea) == 4


def test_ea10_units_without_a_general_stay_put() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "Hussars", "paris", 3)
    add(g, 0, "Frigates", "channel")
    give(g, 0, "tactical_move")
    groups = {a.group for a in g.legal_actions(0) if isinstance(a, Move)}
    # only the ships move, and only by a card (C5)
    assert groups == {"fleet:channel"}
    assert {a.pay for a in _moves(g, "fleet:channel")} == {"tactical_move"}


def test_ea10_one_free_move_per_general_then_cards_up_to_two_moves() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    add(g, 0, "Old Guard", "paris")
    give(g, 0, "tactical_move", "forced_march")
    run(g, (0, Move(general, "lyon", "lyon", "free")))
    assert "free" not in {a.pay for a in _moves(g, general)}
    refuses_unchanged(g, 0, Move(general, "marseille", "marseille", "free"))
    run(g, (0, Move(general, "marseille", "marseille", "tactical_move")))
    # EA-10(e): a third move is refused even with a card in hand
    assert not _moves(g, general)
    refuses_unchanged(g, 0, Move(general, "toulouse", "toulouse", "forced_march"))
    through_windows(g)
    assert names(g, "marseille", 0) == ["General", "Old Guard"]
    assert all(g.units[u].moves == 2 for u in g.stack("marseille", 0))
    assert "tactical_move" in g.discard and "forced_march" in g.hands[0]


def test_ea10_a_card_moves_as_many_different_groups_as_it_says() -> None:
    g = table("france", "austria")
    keep(g, 1)
    a = ref(add(g, 0, "General", "paris")[0])
    b = ref(add(g, 0, "General", "bordeaux")[0])
    give(g, 0, "operational_move")
    run(g, (0, Move(a, "lyon", "lyon", "operational_move")))
    # the same card may not move the same group twice
    refuses_unchanged(g, 0, Move(a, "marseille", "marseille", "operational_move"))
    run(g, (0, Move(b, "toulouse", "toulouse", "operational_move")))
    assert "operational_move" not in {m.pay for m in g.legal_actions(0) if isinstance(m, Move)}
    through_windows(g)
    assert names(g, "lyon", 0) == ["General"] and names(g, "toulouse", 0) == ["General"]
    assert "operational_move" in g.discard


def test_ea10_into_but_not_through_another_player_s_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 1, "Reserves", "strasbourg")
    general = ref(add(g, 0, "General", "paris")[0])
    dests = {(m.dest, m.via) for m in _moves(g, general)}
    assert ("strasbourg", "strasbourg") in dests
    assert not any(via.startswith("strasbourg>") for _, via in dests)
    refuses_unchanged(g, 0, Move(general, "swabia", "strasbourg>swabia", "free"))


def test_ea10_bypass_strongpoints_passes_spaces_holding_only_fortifications() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 1, "Fortifications", "strasbourg")
    general = ref(add(g, 0, "General", "paris")[0])
    give(g, 0, "bypass_strongpoints")
    passing = [m for m in _moves(g, general) if m.via == "strasbourg>swabia"]
    assert [m.pay for m in passing] == ["bypass_strongpoints"]
    run(g, (0, passing[0]))
    through_windows(g)
    assert names(g, "swabia", 0) == ["General"]


def test_ea10_drop_offs_on_the_way_and_at_the_start() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    h1, h2, h3 = add(g, 0, "Hussars", "paris", 3)
    run(g, (0, Move(general, "swabia", "strasbourg>swabia", "free")))
    refuses_unchanged(g, 0, Drop(general, "strasbourg"))  # not the leader
    refuses_unchanged(g, 0, Drop(ref(h1), "lyon"))  # not a space it enters
    run(g, (0, Drop(ref(h1), "strasbourg")), (0, Drop(ref(h2), "paris")))
    run(g, (0, Drop(ref(h3), "strasbourg")), (0, Undo()))
    through_windows(g)
    assert names(g, "strasbourg", 0) == ["Hussars"] and g.units[h1].came_from == "paris"
    assert names(g, "paris", 0) == ["Hussars"] and g.units[h2].moves == 0
    assert names(g, "swabia", 0) == ["General", "Hussars"] and g.units[h3].moves == 1


def test_ea11_land_units_never_end_a_move_at_sea() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "brest")[0])
    add(g, 0, "Frigates", "atlantic")
    assert all(m.dest in g.map.territories for m in _moves(g, general))
    refuses_unchanged(g, 0, Move(general, "atlantic", "atlantic", "free"))


def test_ea12_general_takes_a_ship_place() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "brest")[0])
    line = add(g, 0, "Line Battalion", "brest", 4)
    frigate = add(g, 0, "Frigates", "atlantic")[0]
    run(g, (0, Move(general, "bilbao", "atlantic>bilbao", "free")))
    through_windows(g)
    # one ship carries 4 land units, the General among them: one Line Battalion stays
    assert names(g, "bilbao", 0) == ["General"] + ["Line Battalion"] * 3
    assert len([u for u in line if g.units[u].space == "brest"]) == 1
    # C5: carrying troops within its own zone costs the ship no move
    assert g.units[frigate].space == "atlantic" and g.units[frigate].moves == 0


def test_ea12_a_sea_move_sails_the_ships_and_may_not_cross_other_ships() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "brest")[0])
    ship = add(g, 0, "Ships of the Line", "channel")[0]
    move = next(m for m in _moves(g, general) if m.dest == "amsterdam")
    assert move.via == "channel>north_sea>amsterdam"
    add(g, 1, "Frigates", "north_sea")
    assert not [m for m in _moves(g, general) if m.dest == "amsterdam"]
    g.remove(next(u for u in g.stack("north_sea", 1)))
    run(g, (0, move))
    through_windows(g)
    assert names(g, "amsterdam", 0) == ["General"]
    assert g.units[ship].space == "north_sea" and g.units[ship].moves == 1
    assert g.units[int(general[1:])].landed


def test_ea12_a_sea_move_may_land_on_another_player_s_units() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 1, "Reserves", "bilbao")
    general = ref(add(g, 0, "General", "brest")[0])
    add(g, 0, "Frigates", "atlantic")
    assert any(m.dest == "bilbao" for m in _moves(g, general))


def test_ea13_sea_moves_to_or_from_england_ignore_ship_speed() -> None:
    g = table("britain", "russia")
    keep(g, 1)
    general = ref(add(g, 0, "General", "london")[0])
    add(g, 0, "Ships of the Line", "north_sea")  # speed 3
    odessa = [m for m in _moves(g, general) if m.dest == "odessa"]
    assert odessa and odessa[0].via == "north_sea>atlantic>western_med>eastern_med>black_sea>odessa"
    # from Hamburg the same four lanes are beyond the ships' speed; to England they are not
    g.relocate(int(general[1:]), "hamburg")
    g.projections.clear()
    dests = {m.dest for m in _moves(g, general)}
    assert "odessa" not in dests and "ireland" in dests


def test_ea14_a_ship_move_into_another_player_s_ships_is_a_sea_battle() -> None:
    g = table("britain", "france")
    keep(g, 1)
    admiral = ref(add(g, 0, "Admiral", "channel")[0])
    add(g, 0, "Ships of the Line", "channel", 2)
    add(g, 1, "Frigates", "atlantic")
    run(g, (0, Move(admiral, "atlantic", "atlantic", "free")))
    through_windows(g)
    assert g.battle is not None and g.battle.kind == "sea" and g.battle.attacker == 0


def test_ea10_the_plan_builds_on_its_earlier_orders() -> None:
    g = table("france", "austria")
    keep(g, 1)
    a = ref(add(g, 0, "General", "paris")[0])
    add(g, 0, "Old Guard", "paris")
    give(g, 0, "tactical_move")
    run(g, (0, Move(a, "lyon", "lyon", "free")))
    # the second order starts where the first leaves the group
    assert {m.via for m in _moves(g, a)} >= {"marseille", "turin"}
    new_turn(g)


def test_ea10_a_group_picks_up_no_units_on_the_way_and_merges_at_the_end() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "paris")[0])
    add(g, 0, "Hussars", "paris")
    waiting = add(g, 0, "Old Guard", "strasbourg")  # on the way
    there = add(g, 0, "Reserves", "swabia")  # at the end
    run(g, (0, Move(general, "swabia", "strasbourg>swabia", "free")))
    through_windows(g)
    assert names(g, "strasbourg", 0) == ["Old Guard"] and g.units[waiting[0]].moves == 0
    assert names(g, "swabia", 0) == ["General", "Hussars", "Reserves"]
    assert g.units[there[0]].moves == 0


def test_ea31_units_dropped_on_the_way_claim_their_territories_at_the_control_phase() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "lyon")[0])
    h1, h2, h3 = add(g, 0, "Hussars", "lyon", 3)
    give(g, 0, "tactical_move")
    run(g, (0, Move(general, "bavaria", "strasbourg>swabia>bavaria", "free")))
    run(g, (0, Drop(ref(h1), "swabia")))
    # the card move starts where the first ended: a unit left there claims it too
    run(g, (0, Move(general, "linz", "tyrol>linz", "tactical_move")))
    run(g, (0, Drop(ref(h2), "bavaria")), (0, Drop(ref(h3), "tyrol")))
    events = through_windows(g)
    assert not any(t in g.control for t in ("swabia", "bavaria", "tyrol"))  # not yet
    while g.current == 0:
        d = g.deciders()[0]
        events += run(g, (d.seat, Done() if d.kind != "deposit" else g.legal_actions(0)[0]))
    taken = next(e.data["taken"] for e in events if e.kind == "control")
    # Strasbourg was France's already; Linz is Austria's and now France's
    assert sorted(taken) == ["bavaria", "linz", "swabia", "tyrol"]
    assert all(g.control[t] == 0 for t in taken)
