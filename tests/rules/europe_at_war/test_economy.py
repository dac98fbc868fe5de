"""Money and control, one ruling at a time (EA-27 to EA-31)."""

from __future__ import annotations

from rules.europe_at_war import economy as E
from rules.europe_at_war import flow
from rules.europe_at_war.actions import Buy, Deposit, Disband, Done, PayLoss, PlayOn, Timeout
from rules.europe_at_war.state import EaState
from rules.events import Event
from tests.rules.europe_at_war.playout import refuses_unchanged
from tests.rules.europe_at_war.scenario import add, give, keep, ref, run, table


def _recruit_step(g: EaState, *names: str) -> list[Event]:
    """Run the Revenue Phase and the recruit draw, then make the draw ``names``."""
    events: list[Event] = []
    g.step = "battle"
    flow.advance(g, events)
    assert g.step == "recruit"
    me = g.current
    g.piles[me] += g.drawn[me]
    g.drawn[me] = []
    for name in names:
        uid = next(c for c in sorted(g.piles[me]) if g.kind(c).name == name)
        g.piles[me].remove(uid)
        g.drawn[me].append(uid)
    g.piles[me].sort()
    return events


def test_ea27_revenue_by_type_and_nothing_from_an_occupied_territory() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    assert sum(E.income(g, 0).values()) == 36
    add(g, 1, "Reserves", "lyon")  # a Major City: 4
    assert E.income(g, 0)["lyon"] == 0 and sum(E.income(g, 0).values()) == 32
    events = _recruit_step(g)
    assert g.treasury[0] == 32 and any(e.kind == "revenue" for e in events)


def test_ea27_two_raiders_take_two() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Hussars", "geneva")
    add(g, 1, "Chasseurs", "turin")
    add(g, 1, "Line Battalion", "vaud")  # no light unit: no raid
    assert E.income(g, 0)["lyon"] == 2
    assert E.income(g, 0)["marseille"] == 3  # Turin's raiders only
    assert E.income(g, 0)["paris"] == 5


def test_ea27_c8_raiders_reach_across_straits() -> None:
    g = table("britain", "france")
    keep(g, 0, 1)
    add(g, 1, "Hussars", "lancashire")
    assert E.income(g, 0)["ireland"] == 3  # the Irish Sea strait


def test_ea29_recruits_cost_their_force_and_go_to_cities_held_free_of_others() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Reserves", "lyon")
    add(g, 1, "Frigates", "western_med")
    _recruit_step(g, "Old Guard", "Frigates", "Fortifications", "Hussars", "General")
    buys = {(g.kind(int(a.chit[1:])).name, a.at) for a in g.legal_actions(0) if isinstance(a, Buy)}
    assert ("Old Guard", "paris") in buys and ("Old Guard", "lyon") not in buys
    assert ("Fortifications", "bordeaux") in buys and ("Hussars", "brest") not in buys
    assert {at for name, at in buys if name == "Frigates"} == {"atlantic"}
    old_guard = next(c for c in g.drawn[0] if g.kind(c).name == "Old Guard")
    before = g.treasury[0]
    run(g, (0, Buy(ref(old_guard), "paris")))
    assert g.treasury[0] == before - 7 and g.units[old_guard].space == "paris"
    unbought = list(g.drawn[0])
    run(g, (0, Done()))
    assert all(c in g.piles[0] for c in unbought) and not g.drawn[0]
    assert g.step == "upkeep"


def test_ea29_a_chit_that_cannot_be_placed_cannot_be_bought() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    for city in ("paris", "lyon", "marseille", "bordeaux"):
        add(g, 1, "Reserves", city)
    _recruit_step(g, "Old Guard", "Hussars")
    assert not [a for a in g.legal_actions(0) if isinstance(a, Buy)]


def test_ea29_buying_every_chit_draws_1d6_more_once() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    _recruit_step(g, "Reserves", "Hussars")
    g.force_chance([2])  # the die shows 3
    first = g.drawn[0][0]
    run(g, (0, Buy(ref(first), "paris")))
    events = run(g, (0, Buy(ref(g.drawn[0][0]), "paris")))
    assert [e.data["faces"] for e in events if e.kind == "rolled"] == [[3]]
    assert len(g.drawn[0]) == 3 and g.bonus_drawn
    for c in list(g.drawn[0]):
        if g.kind(c).force <= g.treasury[0] and E.placements(g, 0, c):
            run(g, (0, Buy(ref(c), E.placements(g, 0, c)[0])))
    assert not any(e.kind == "rolled" for e in run(g, (0, Done())))


def test_ea30_unit_five_steps_out_is_unsupplied() -> None:
    g = table("austria", "france")
    keep(g, 1)
    lyon = add(g, 0, "Reserves", "lyon")  # 4 steps from Austria
    brest = add(g, 0, "Reserves", "brest")  # 5 steps
    g.income = E.income(g, 0)
    g.treasury[0] = 10
    s = E.supply(g, 0)
    assert s.supplied == {"lyon": 1, "brest": 0}
    assert E.upkeep_suggestion(g, 0) == brest
    g.card_revenue = 1  # card revenue is usable anywhere
    assert E.supply(g, 0).covered == 2
    assert lyon


def test_ea30_a_unit_cut_off_by_other_players_units_is_unsupplied() -> None:
    g = table("prussia", "austria")
    keep(g, 1)
    add(g, 0, "Musketeers", "hanover")  # two steps from Berlin, but surrounded
    g.income = E.income(g, 0)
    assert E.supply(g, 0).covered == 1
    for n in ("bremen", "hamburg", "magdeburg", "saxony", "westphalia"):
        add(g, 1, "Reserves", n)
    assert E.supply(g, 0).covered == 0


def test_ea30_the_matching_is_a_max_flow_over_capacities() -> None:
    g = table("russia", "france")
    keep(g, 1)
    g.control = {"st_petersburg": 0, "kiev": 0}
    g.income = {"st_petersburg": 1, "kiev": 1}
    add(g, 0, "Reserves", "berlin")  # reaches St Petersburg (3 steps), not Kiev (6)
    add(g, 0, "Reserves", "st_petersburg")  # reaches both
    assert E.supply(g, 0).covered == 2
    g.income["kiev"] = 0
    assert E.supply(g, 0).covered == 1


def test_ea30_upkeep_needs_supply_and_payment_and_discards_go_to_the_pile() -> None:
    g = table("france", "austria")
    keep(g, 1)
    units = add(g, 0, "Reserves", "paris", 3)
    g.income = E.income(g, 0)
    g.treasury[0] = 2
    g.step = "upkeep"
    assert Done() not in g.legal_actions(0)
    refuses_unchanged(g, 0, Done())
    run(g, (0, Disband(ref(units[0]))))
    assert units[0] in g.piles[0]
    run(g, (0, Done()))
    assert g.treasury[0] == 0 and g.step != "upkeep"


def test_ea30_a_timed_out_upkeep_takes_the_suggestion() -> None:
    g = table("austria", "france")
    keep(g, 1)
    add(g, 0, "Reserves", "vienna")
    far = add(g, 0, "Reserves", "brest")
    g.income = E.income(g, 0)
    g.treasury[0] = 10
    g.step = "upkeep"
    run(g, (0, Timeout()))
    assert far[0] in g.piles[0] and g.step != "upkeep"


def test_ea28_leftover_rp_is_left_in_cities_by_default_at_the_capital() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    g.treasury[0] = 12
    g.step = "upkeep"
    g.income = E.income(g, 0)
    run(g, (0, Done()))
    assert g.deciders()[0].kind == "deposit"
    run(g, (0, Deposit("lyon", 3)))
    run(g, (0, Timeout()))
    assert g.deposits == {"lyon": 3, "paris": 8}
    assert g.treasury[0] == 11 and g.current == 1


def test_ea28_with_no_city_to_hold_it_the_leftover_is_lost() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    for city in ("paris", "lyon", "marseille", "bordeaux"):
        add(g, 1, "Reserves", city)
    g.treasury[0] = 30
    g.income = E.income(g, 0)
    g.step = "upkeep"
    run(g, (0, Done()))
    assert g.treasury[0] == 0 and not g.deposits


def test_ea28_a_captured_city_brings_its_deposit() -> None:
    g = table("austria", "france")
    keep(g, 0, 1)
    g.deposits["paris"] = 9
    g.treasury[1] = 9
    add(g, 0, "Reserves", "paris")
    g.income = E.income(g, 0)
    g.card_revenue = g.treasury[0] = 2  # Paris is too far from Austria for its upkeep
    g.step = "upkeep"
    run(g, (0, Done()))
    assert g.control["paris"] == 0 and g.treasury == [9, 0]
    assert g.deposits["paris"] == 9


def test_ea28_a_player_who_loses_rp_chooses_the_deposits_that_pay() -> None:
    g = table("austria", "france")
    keep(g, 0, 1)
    g.deposits.update({"paris": 5, "lyon": 5})
    g.treasury[1] = 10
    give(g, 0, "food_fodder")
    g.force_chance([3])  # a 4
    run(g, (0, PlayOn("food_fodder", 1)))
    assert (g.deciders()[0].seat, g.deciders()[0].kind) == (1, "loss")
    refuses_unchanged(g, 1, PayLoss("lyon", 5))
    run(g, (1, PayLoss("lyon", 3)), (1, PayLoss("paris", 1)))
    assert g.deposits == {"paris": 4, "lyon": 2} and g.treasury[1] == 6
    assert g.deciders()[0].seat == 0


def test_ea31_control_goes_where_the_units_are_alone_and_stays_after_they_leave() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    mover = add(g, 0, "Reserves", "geneva")
    add(g, 0, "Reserves", "turin")
    add(g, 1, "Reserves", "turin")
    events: list[Event] = []
    flow._control(g, events)
    assert g.control.get("geneva") == 0 and "turin" not in g.control
    g.relocate(mover[0], "lyon")
    assert g.control.get("geneva") == 0


def test_ea27_raids_never_take_a_territory_below_zero() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    g.control["tyrol"] = 0  # a Wilderness: 1
    add(g, 1, "Hussars", "bavaria")
    add(g, 2, "Cossacks", "swabia")
    assert E.income(g, 0)["tyrol"] == 0
    add(g, 1, "Hussars", "rouen")
    # Paris 5, Brest 3 and Nantes 2 lose 1 each to the raiders in Rouen, which gives 0
    income = E.income(g, 0)
    assert (income["paris"], income["brest"], income["nantes"], income["rouen"]) == (4, 2, 1, 0)


def test_ea30_recruiting_spends_money_but_not_the_upkeep_capacity() -> None:
    g = table("france", "austria")
    keep(g, 1)
    g.control = {"paris": 0}
    add(g, 0, "Reserves", "paris")
    _recruit_step(g, "Old Guard", "Old Guard")
    assert g.treasury[0] == 5
    g.treasury[0] = 17  # with 12 RP saved from earlier turns
    for c in list(g.drawn[0]):
        run(g, (0, Buy(ref(c), "paris")))
    run(g, (0, Done()))
    # 14 RP spent on recruits: Paris still supplies up to its 5 RP of income this
    # turn (3 units need 3), and the 3 RP left pay their upkeep
    assert g.step == "upkeep" and g.treasury[0] == 3
    assert E.supply(g, 0).covered == 3 and Done() in g.legal_actions(0)


def test_ea30_c7_a_deposit_under_occupation_supplies_no_unit_but_its_rp_pay() -> None:
    g = table("france", "austria")
    keep(g, 1)
    g.control = {"paris": 0, "lyon": 0}
    g.deposits = {"lyon": 6}
    add(g, 1, "Reserves", "lyon")  # occupied: supplies nothing
    units = add(g, 0, "Reserves", "bordeaux", 2)
    g.income = {"paris": 0, "lyon": 0}
    g.treasury[0] = 6
    assert E.sources(g, 0) == {} and E.supply(g, 0).covered == 0
    g.income["paris"] = 2  # Paris supplies both; the deposit's RP pay
    assert E.supply(g, 0).covered == 2 and E.upkeep_ok(g, 0)
    assert units
