"""Setup, the turn, cards in hand, views, the end of the game and the options
(EA-2 to EA-7, EA-32, EA-34 to EA-36), and the contract's plumbing."""

from __future__ import annotations

import json

import pytest

from rules.contract import Decision
from rules.errors import GameOver, InvalidState, NotYourTurn, RulesError
from rules.europe_at_war import flow
from rules.europe_at_war.actions import (
    Discard,
    Done,
    Move,
    Place,
    PlayAt,
    PlayCard,
    PlayOn,
    Submit,
    Timeout,
    Top,
    action_from_dict,
)
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from rules.events import Event
from tests.rules.europe_at_war.playout import refuses_unchanged
from tests.rules.europe_at_war.scenario import add, give, keep, ref, run, table, through_windows

GAME = EaGame()


def test_ea2_nations_line_up_and_table_size() -> None:
    g, _ = GAME.new_game([None, None, "britain"], 5, Options(), arranged=True)
    assert g.nations == ["france", "austria", "britain"]
    with pytest.raises(RulesError, match="2 to 5"):
        GAME.new_game([None] * 6, 5, Options())
    with pytest.raises(RulesError, match="different nation"):
        GAME.new_game(["france", "france"], 5, Options())
    with pytest.raises(RulesError, match="four players"):
        GAME.new_game([None] * 3, 5, Options(teams=True))
    shuffled, events = GAME.new_game(["france", "austria", "russia"], 5, Options())
    assert sorted(shuffled.origins) == [0, 1, 2]
    assert [shuffled.nations[s] for s in range(3)] == [
        ["france", "austria", "russia"][o] for o in shuffled.origins
    ]
    assert any(e.kind == "chance" and e.data["what"] == "seat order" for e in events)


def test_ea3_setup_home_country_general_admiral_ten_chits_then_five_cards() -> None:
    g, events = GAME.new_game(["prussia", "russia"], 3, Options(), arranged=True)
    for seat in (0, 1):
        drawn = g.drawn[seat]
        assert len(drawn) == 12
        assert [g.kind(c).type for c in drawn[:2]] == ["G", "D"]
        home = g.map.home(g.nations[seat])
        assert all(g.control[t] == seat for t in home.territories)
    assert [e.to for e in events if e.kind == "setup_draw"] == [0, 1]
    assert [(d.seat, d.kind) for d in g.deciders()] == [(0, "setup")]
    fort = next((c for c in g.drawn[0] if g.kind(c).fort), None)
    admiral = g.drawn[0][1]
    assert {a.at for a in g.legal_actions(0) if a.chit == ref(admiral)} == {"baltic"}
    if fort is not None:
        assert {a.at for a in g.legal_actions(0) if a.chit == ref(fort)} == {
            "berlin",
            "danzig",
            "konigsberg",
            "breslau",
        }
    refuses_unchanged(g, 0, Place(ref(admiral), "berlin"))
    run(g, (0, Timeout()))
    assert g.deciders()[0].seat == 1 and not g.drawn[0]
    run(g, (1, Timeout()))
    assert [len(h) for h in g.hands] == [5, 5] and g.round == 1 and g.current == 0
    assert g.treasury == [0, 0]


def test_ea36_leaders_in_play_start_every_general_and_admiral() -> None:
    g, _ = GAME.new_game(["austria", "russia"], 3, Options(leaders_in_play=True), True)
    kinds = [g.kind(c).type for c in g.drawn[0]]
    assert kinds.count("G") >= 7 and kinds.count("D") >= 3


def test_ea36_basic_set_for_every_nation() -> None:
    g, _ = GAME.new_game(["france", "russia"], 3, Options(basic_set=True), True)
    names = {g.kind(c).name for c in g.chits.of(0)}
    assert "Old Guard" not in names and "Troopers" in names


def test_ea36_compact_map() -> None:
    g, _ = GAME.new_game(["france", "russia"], 3, Options(compact_map=True), True)
    assert len(g.map.territories) == 129


def test_ea4_the_game_ends_after_its_last_round() -> None:
    g = table("france", "austria", options=Options(rounds=8))
    keep(g, 0, 1)
    add(g, 0, "Reserves", "geneva")
    g.round = 8
    g.current = 1
    events: list[Event] = []
    flow.end_turn(g, events)
    assert g.over and g.round == 8
    assert g.winners == [0] and g.end_reason == "territories"
    with pytest.raises(GameOver):
        g.apply(0, Done())


def test_ea4_the_phases_run_in_order() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    seen: list[str] = []
    events = run(g, (0, Submit()), (1, Done()), (1, Done()))
    seen = [e.kind for e in events if e.kind in ("plan", "window", "revenue", "chits_drawn")]
    assert seen == ["plan", "window", "window", "revenue", "chits_drawn"]
    assert g.step == "recruit"
    run(g, (0, Done()), (0, Done()), (0, Timeout()))
    assert g.current == 1 and g.step in ("discard", "plan")


def test_ea5_discard_then_draw_five_then_down_to_seven() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    give(g, 0, "forage", "telescope", "confusion", "dysentery", "squall")
    g.step = "discard"
    run(g, (0, Discard("squall")), (0, Done()))
    assert len(g.hands[0]) == 9
    assert [(d.seat, d.kind) for d in g.deciders()] == [(0, "hand")]
    run(g, (0, Discard("forage")), (0, Timeout()))
    assert len(g.hands[0]) == 7 and g.step == "plan"
    assert "squall" in g.discard and "forage" in g.discard


def test_ea5_an_empty_deck_is_replaced_by_the_shuffled_discard_pile() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    g.discard, g.deck = g.deck[:-2], g.deck[-2:]
    g.step = "discard"
    events = run(g, (0, Done()))
    assert any(e.kind == "reshuffled" for e in events)
    assert any(e.kind == "chance" and e.data["what"] == "reshuffled deck" for e in events)
    assert len(g.hands[0]) == 5


def test_ea6_views_own_stacks_in_full_others_top_and_count() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    add(g, 1, "General", "swabia")
    add(g, 1, "Line Battalion", "swabia", 3)
    give(g, 1, "forage")
    mine = g.view_for(1)
    other = g.view_for(0)
    spectator = g.view_for(None)
    stack = next(s for s in mine.stacks if s.space == "swabia")
    assert stack.units is not None and len(stack.units) == 4
    seen = next(s for s in other.stacks if s.space == "swabia")
    assert (seen.top, seen.count, seen.units) == ("General", 4, None)
    assert mine.hand == ("forage",) and other.hand != ("forage",)
    assert spectator.hand is None and spectator.hand_sizes[1] == 1
    assert mine.treasury == spectator.treasury and mine.deposits == spectator.deposits


def test_ea6_both_stacks_are_shown_during_their_battle() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    add(g, 1, "Line Battalion", "swabia", 3)
    from tests.rules.europe_at_war.scenario import battle_phase, new_turn

    new_turn(g)
    add(g, 0, "General", "swabia")
    battle_phase(g)
    view = g.view_for(2)
    shown = [s for s in view.stacks if s.space == "swabia"]
    assert all(s.units is not None for s in shown)


def test_ea6_telescope_results_are_for_the_card_player_only() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    give(g, 1, "forage", "depots")
    give(g, 0, "telescope")
    events = run(g, (0, PlayOn("telescope", 1)))
    seen = [e for e in events if e.kind == "hand_seen"]
    assert len(seen) == 1 and seen[0].to == 0
    assert g.view_for(0).seen == {1: ("depots", "forage")}
    assert g.view_for(1).seen == {} and g.view_for(None).seen == {}


def test_ea7_units_pass_through_empty_neutral_and_enemy_territories() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    general = ref(add(g, 0, "General", "lyon")[0])
    g.control["turin"] = 1  # Austria's marker, no Austrian unit
    run(g, (0, Move(general, "milan", "turin>milan", "free")))
    through_windows(g)
    assert g.units[int(general[1:])].space == "milan"
    # markers change only in the Control Phase (EA-31), where the units stand
    assert g.control["turin"] == 1 and "milan" not in g.control
    run(g, (0, Done()), (0, Done()), (0, Timeout()))
    assert g.control["turin"] == 1 and g.control["milan"] == 0


def test_ea32_own_turn_cards_revenue_discards_and_lost_units() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 1, "Line Battalion", "swabia", 2)
    general = add(g, 1, "General", "swabia")[0]
    give(g, 0, "depots", "confusion", "dysentery")
    give(g, 1, "forage", "telescope", "squall")
    g.force_chance([5, 4])  # 6 + 5
    events = run(g, (0, PlayCard("depots")))
    assert g.treasury[0] == 11 and g.card_revenue == 11
    assert [e.data["faces"] for e in events if e.kind == "rolled"] == [[6, 5]]
    run(g, (0, PlayOn("confusion", 1)))
    assert len(g.hands[1]) == 1 and len(g.discard) == 4
    run(g, (0, PlayAt("dysentery", "swabia", 1)))
    assert g.stack("swabia", 1) == [general]  # never the leader
    # own-turn cards come before the plan's first order (EA-15, EA-32)
    give(g, 0, "live_off_the_land")
    mover = ref(add(g, 0, "General", "paris")[0])
    run(g, (0, Move(mover, "lyon", "lyon", "free")))
    refuses_unchanged(g, 0, PlayCard("live_off_the_land"))


def test_ea32_gain_units_are_placed_free_in_cities() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    give(g, 0, "reinforcements")
    gifts = next(e for e in run(g, (0, PlayCard("reinforcements"))) if e.kind == "gifts")
    told = {k: list(v) for k, v in gifts.data.items()}
    assert [(d.seat, d.kind) for d in g.deciders()] == [(0, "place")]
    assert {a.at for a in g.legal_actions(0) if isinstance(a, Place)} <= {
        "paris",
        "lyon",
        "marseille",
        "bordeaux",
        "atlantic",
        "western_med",
    }
    run(g, (0, Timeout()))
    assert g.step == "plan" and not g.gifts and g.treasury[0] == 0
    assert gifts.data == told  # the event keeps what it told, placed or not


def test_ea34_dice_are_recorded_chance_and_a_public_roll() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    give(g, 0, "forage")
    events = g.apply(0, PlayCard("forage"))
    chance = [e for e in events if e.kind == "chance"]
    rolled = [e for e in events if e.kind == "rolled"]
    assert len(chance) == 1 and chance[0].to is not None and rolled[0].to is None
    assert chance[0].data["outcome"] + 1 == rolled[0].data["faces"][0]


def test_ea35_a_player_with_no_units_is_out_and_the_last_one_wins() -> None:
    g = table("france", "austria", "russia")
    keep(g, 0, 1, 2)
    victim = list(g.stack("crimea", 2))
    give(g, 0, "desertions")
    give(g, 2, "forage")
    run(g, (0, PlayAt("desertions", "crimea", 2)))
    assert g.out[2] and victim[0] not in g.units
    assert "forage" in g.discard and not g.hands[2]
    assert not [t for t, s in g.control.items() if s == 2]
    assert not g.over
    g.remove(g.stack("transylvania", 1)[0])
    events: list[Event] = []
    flow.advance(g, events)
    assert g.over and g.winners == [0] and g.end_reason == "last standing"


def test_ea35_ties_go_to_revenue_then_units_then_are_shared() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    g.control = {"paris": 0, "vienna": 1}
    events: list[Event] = []
    flow.finish_by_count(g, events)
    assert g.winners == [0, 1]
    g.step = "plan"
    g.control = {"paris": 0, "lyon": 1}  # 5 RP against 4
    flow.finish_by_count(g, events)
    assert g.winners == [0]


def test_ea36_teams_sum_their_territories() -> None:
    g = table("france", "austria", "russia", "britain", options=Options(teams=True))
    keep(g, 0, 1, 2, 3)
    g.control = {"paris": 0, "lyon": 2, "vienna": 1, "buda": 1, "prague": 3}
    events: list[Event] = []
    flow.finish_by_count(g, events)
    assert g.winners == [1, 3]


def test_timeouts_take_each_decision_s_default() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    assert g.on_timeout(Decision(0, "plan")).action == Timeout()
    run(g, (0, Timeout()))
    assert [(d.seat, d.kind) for d in g.deciders()] == [(1, "w1")]
    run(g, (1, Timeout()), (1, Timeout()))
    assert g.step == "recruit"


def test_refusals_change_nothing_and_name_the_reason() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    with pytest.raises(NotYourTurn):
        g.apply(1, Submit())
    why = refuses_unchanged(g, 0, Move("fleet:channel", "atlantic", "atlantic", "free"))
    assert why == "You have no such group to move."
    assert not g.is_legal(0, Timeout())


def test_storage_round_trip_and_actions_from_their_dicts() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    add(g, 0, "General", "paris")
    text = json.dumps(g.to_dict())
    assert EaState.from_dict(json.loads(text)) == g
    assert GAME.load(json.loads(text)) == g
    broken = json.loads(text)
    broken["hands"][0].append("forage")
    with pytest.raises(InvalidState, match="228 cards"):
        GAME.load(broken)
    with pytest.raises(InvalidState):
        GAME.load({"schema": 99})
    for action in (Move("u1", "lyon", "lyon", "free"), Done(), PlayOn("telescope", 1)):
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    with pytest.raises(InvalidState):
        action_from_dict({"kind": "move", "group": "u1"})
    with pytest.raises(InvalidState):
        action_from_dict({"kind": "play_on", "card": "telescope", "seat": "1"})


def test_ea6_the_owner_chooses_the_top_unit() -> None:
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "lyon")
    hussar = add(g, 0, "Hussars", "lyon")[0]
    seen = next(s for s in g.view_for(1).stacks if s.space == "lyon")
    assert seen.top == "General"
    run(g, (0, Top(ref(hussar))))
    seen = next(s for s in g.view_for(1).stacks if s.space == "lyon")
    assert (seen.top, seen.count) == ("Hussars", 2)
    refuses_unchanged(g, 1, Top(ref(hussar)))
    # once the Hussars leave, the stack shows its default again
    g.relocate(hussar, "paris")
    seen = next(s for s in g.view_for(1).stacks if s.space == "lyon")
    assert seen.top == "General"


def test_ea3_forts_in_home_cities_land_units_anywhere_at_home_ships_off_its_coast() -> None:
    g, _ = GAME.new_game(["france", "austria"], 3, Options(), arranged=True)
    pile = g.piles[0]
    for name in ("Fortifications", "Line Battalion", "Frigates"):
        uid = next(c for c in pile if g.kind(c).name == name)
        pile.remove(uid)
        g.drawn[0].append(uid)
    home = g.map.home("france")
    spots: dict[str, set[str]] = {}
    for a in g.legal_actions(0):
        spots.setdefault(g.kind(int(a.chit[1:])).name, set()).add(a.at)
    assert spots["Fortifications"] == {t for t in home.territories if g.map.territories[t].city}
    assert spots["Line Battalion"] == set(home.territories)
    coast = {z for t in home.territories for z in g.map.territories[t].seas}
    assert spots["Frigates"] == spots["Admiral"] == coast and "baltic" not in coast


def test_ea5_a_card_that_draws_past_seven_is_discarded_down_to_seven() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    give(g, 0, "master_of_strategy", "forage", "telescope", "confusion", "dysentery", "squall")
    run(g, (0, PlayCard("master_of_strategy")))  # 5 left, draws 3: 8
    assert len(g.hands[0]) == 8
    assert [(d.seat, d.kind) for d in g.deciders()] == [(0, "hand")]
    refuses_unchanged(g, 0, Submit())
    run(g, (0, Discard("squall")))
    assert len(g.hands[0]) == 7 and g.deciders()[0].kind == "plan"


def test_ea32_units_lost_to_a_card_are_never_leaders_or_fortifications() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    kept = add(g, 1, "General", "vienna") + add(g, 1, "Fortifications", "vienna")
    line = add(g, 1, "Line Battalion", "vienna")
    give(g, 0, "dysentery")
    run(g, (0, PlayAt("dysentery", "vienna", 1)))  # 2 units: only one can go
    assert sorted(g.stack("vienna", 1)) == sorted(kept) and line[0] in g.piles[1]
    give(g, 0, "desertions")
    assert PlayAt("desertions", "vienna", 1) not in g.legal_actions(0)  # nothing to take
    refuses_unchanged(g, 0, PlayAt("desertions", "vienna", 1))


def test_ea7_sea_zones_are_never_controlled() -> None:
    g = table("britain", "austria")
    keep(g, 0, 1)
    add(g, 0, "Frigates", "north_sea")
    events: list[Event] = []
    flow._control(g, events)
    assert "north_sea" not in g.control and not events[0].data["taken"]
