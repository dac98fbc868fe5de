"""One or more scenario tests per European War ruling (EW-1 .. EW-25)."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules import IllegalAction, NotYourTurn, pyramids
from rules.pyramids import (
    AgreeDraw,
    Arm,
    Attack,
    Conscript,
    LetPass,
    Move,
    Pass,
    PlaceAll,
    PlacePiece,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
    StopPlaying,
    Timeout,
)
from rules.pyramids.cards import duel_value, parse_card
from rules.pyramids.state import DIPLOMACY, DUEL, OVER, RETREAT, SETUP, TURN
from tests.rules.positions import BRIT, CENT, FRAN, OTTO, RUSS, cards, kinds, position

S, M, L = 1, 2, 3


# the home pieces of France (0), Central Powers (1) and Britain (2)
THREE_HOMES = {
    "france_benelux": (0, L),
    "italy": (0, M),
    "north_africa": (0, S),
    "germany": (1, L),
    "austria": (1, M),
    "hungary": (1, S),
    "britain": (2, L),
    "south_scandinavia": (2, M),
    "spain": (2, S),
}


def three_player(**kw: Any) -> pyramids.GameState:
    """France (0), Central Powers (1), Britain (2), each with its home pieces."""
    pieces = {**THREE_HOMES, **kw.pop("extra", {})}
    return position([FRAN, CENT, BRIT], pieces, **kw)


# ---------------------------------------------------------------- EW-1 pieces
def test_ew1_one_piece_per_field() -> None:
    g = three_player(hands=[[], [], []])
    with pytest.raises(IllegalAction, match=r"one piece per field \(EW-1\)"):
        g.apply(0, Move("france_benelux", "italy"))


def test_ew1_nine_pieces_per_colour_in_supply_and_board() -> None:
    g = three_player()
    assert g.supply(0) == [0, 2, 2, 2]
    g.pieces = {f: p for f, p in g.pieces.items() if p[0] != 0} | {"italy": (0, S)}
    assert g.supply(0) == [0, 2, 3, 3]


# ---------------------------------------------------------------- EW-2 cards
def test_ew2_figures_are_worth_four_numbers_face_value() -> None:
    assert [duel_value(parse_card(n)) for n in ("2C", "10H", "JD", "QS", "KC", "AH")] == [
        2,
        10,
        4,
        4,
        4,
        4,
    ]
    assert len(pyramids.cards.DECK) == 52


# ---------------------------------------------------------------- EW-3 draw pile
def test_ew3_empty_pile_is_reshuffled_from_discard() -> None:
    g = three_player(hands=[[], [], []])
    g.discard = g.pile[:-1]
    g.pile = g.pile[-1:]
    events = g.apply(0, Arm())
    assert "reshuffled" in kinds(events)
    assert len(g.hands[0]) == 2
    assert g.discard == []


def test_ew3_draw_takes_what_there_is_when_both_piles_are_empty() -> None:
    g = three_player(hands=[[], [], []])
    g.hands[1] = g.pile[:]
    g.pile = []
    events = g.apply(0, Arm())
    drew = [e for e in events if e.kind == "drew" and e.data["seat"] == 0]
    assert drew[0].data["count"] == 0 and g.hands[0] == []


def test_ew3_hand_sizes_public_hands_secret() -> None:
    g = three_player(hands=[cards("2C", "3C"), cards("KH"), []])
    view = pyramids.view_for(g, 2)
    assert [s.hand_size for s in view.seats] == [2, 1, 0]
    assert view.hand == ()
    assert pyramids.view_for(g, None).hand is None


# ---------------------------------------------------------------- EW-4 players
def test_ew4_two_to_four_players_five_only_as_option() -> None:
    with pytest.raises(rules.RulesError, match="2 to 4"):
        pyramids.new_game("european_war", [None], 1)
    with pytest.raises(rules.RulesError, match="EW-4"):
        pyramids.new_game("european_war", [None] * 5, 1)
    g, _ = pyramids.new_game("european_war", [None] * 5, 1, pyramids.Options(five_players=True))
    assert sorted(g.seats) == sorted(g.board.powers)


def test_ew4_chosen_powers_kept_and_unplayed_powers_stay_empty() -> None:
    g, events = pyramids.new_game("european_war", [RUSS, None], 3)
    assert RUSS in g.seats
    assert g.seats[g.origins.index(0)] == RUSS
    (seats,) = [e for e in events if e.kind == "seats"]
    unplayed = seats.data["unplayed"]
    assert len(unplayed) == 3 and RUSS not in unplayed
    with pytest.raises(rules.RulesError, match="same power"):
        pyramids.new_game("european_war", [RUSS, RUSS], 3)


def test_ew4_unplayed_power_can_be_occupied_for_a_win() -> None:
    # Britain is unplayed; France holds two British fields and takes the third.
    g = position(
        [FRAN, CENT],
        {
            "france_benelux": (0, L),
            "italy": (0, S),
            "spain": (0, M),
            "south_scandinavia": (0, S),
            "germany": (1, L),
        },
    )
    events = g.apply(0, Move("france_benelux", "britain"))
    assert g.over and g.winners == [0]
    assert {"seat": 0, "power": BRIT} in [e.data for e in events if e.kind == "occupied"]


# ---------------------------------------------------------------- EW-5 setup
def test_ew5_all_three_at_once_by_every_player() -> None:
    g, _ = pyramids.new_game("european_war", [FRAN, CENT], 5, arranged=True)
    assert g.phase == SETUP
    assert {d.seat for d in g.deciders()} == {0, 1}
    acts = g.legal_actions(0)
    assert len(acts) == 6 and all(isinstance(a, PlaceAll) for a in acts)
    with pytest.raises(IllegalAction, match="EW-5"):
        g.apply(0, PlaceAll("france_benelux", "france_benelux", "italy"))
    g.apply(0, PlaceAll("italy", "north_africa", "france_benelux"))
    assert g.pieces["italy"] == (0, L) and g.pieces["france_benelux"] == (0, S)
    assert [d.seat for d in g.deciders()] == [1]
    events = g.apply(1, PlaceAll("germany", "austria", "hungary"))
    assert g.phase == TURN and "setup_done" in kinds(events)


def test_ew5_tournament_order_smalls_then_mediums_then_larges() -> None:
    g, _ = pyramids.new_game(
        "european_war", [FRAN, CENT], 5, pyramids.Options(setup_order="by_size"), arranged=True
    )
    order = []
    while g.phase == SETUP:
        (d,) = g.deciders()
        act = g.legal_actions(d.seat)[0]
        assert isinstance(act, PlacePiece)
        g.apply(d.seat, act)
        order.append((d.seat, g.pieces[act.field][1]))
    first, second = g.first, 1 - g.first
    assert order == [(first, S), (second, S), (first, M), (second, M), (first, L), (second, L)]


def test_ew5_setup_timeout_places_large_on_most_exposed_field() -> None:
    g, _ = pyramids.new_game("european_war", [FRAN, CENT], 5, arranged=True)
    g.apply(0, Timeout())
    # France + Benelux borders three foreign fields; North Africa one.
    assert g.pieces["france_benelux"] == (0, L)
    assert g.pieces["north_africa"] == (0, S)


# ---------------------------------------------------------------- EW-6 deal and seats
def test_ew6_five_cards_each_first_player_draws_and_arch_enemies_announced() -> None:
    g, events = pyramids.new_game("european_war", [None, None, None], 9)
    (seats,) = [e for e in events if e.kind == "seats"]
    assert seats.data["arch_enemies"] == [1, 2, 0]
    for d in g.deciders():
        g.apply(d.seat, Timeout())
    sizes = [len(h) for h in g.hands]
    assert sizes[g.first] == 6 and sorted(sizes) == [5, 5, 6]
    assert len(g.pile) == 52 - 16
    assert g.current == g.first


def test_ew6_seats_and_first_player_are_random_but_seeded() -> None:
    firsts = {pyramids.new_game("european_war", [None] * 4, s)[0].first for s in range(40)}
    orders = {tuple(pyramids.new_game("european_war", [None] * 4, s)[0].origins) for s in range(40)}
    assert firsts == {0, 1, 2, 3} and len(orders) > 10
    a, _ = pyramids.new_game("european_war", [None] * 4, 77)
    b, _ = pyramids.new_game("european_war", [None] * 4, 77)
    assert a == b


def test_ew6_arranged_seats_keep_lobby_order() -> None:
    g, _ = pyramids.new_game("european_war", [OTTO, RUSS, BRIT], 4, arranged=True)
    assert g.seats == [OTTO, RUSS, BRIT] and g.origins == [0, 1, 2]


# ---------------------------------------------------------------- EW-7 draw
def test_ew7_each_turn_starts_with_one_card() -> None:
    g = three_player(hands=[[], [], []])
    events = g.apply(0, Pass())
    assert len(g.hands[1]) == 1
    private = [e for e in events if e.kind == "cards_received"]
    assert private[0].to == 1 and private[0].data["cards"] == g.hands[1]


# ---------------------------------------------------------------- EW-8 special phase
def test_ew8_one_sabotage_per_turn() -> None:
    g = three_player(
        hands=[cards("JC", "JD"), [], []],
        extra={"italy": (1, L), "north_africa": (2, M)},
    )
    g.apply(0, Sabotage("italy"))
    assert not any(isinstance(a, Sabotage) for a in g.legal_actions(0))
    with pytest.raises(IllegalAction, match=r"one sabotage per turn \(EW-8\)"):
        g.apply(0, Sabotage("north_africa"))


def test_ew8_any_number_of_espionages_then_action() -> None:
    g = three_player(hands=[cards("QC", "QD", "AH"), cards("5C"), cards("6C")])
    g.apply(0, Spy(1))
    g.apply(0, Spy(2))
    g.apply(0, Spy(1, ace=True))
    assert g.current == 0 and len(g.hands[0]) == 0
    g.apply(0, Pass())
    assert g.current == 1


def test_ew8_special_phase_over_once_action_starts() -> None:
    g = three_player(hands=[cards("QC", "5C"), [], cards("KH")])
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(2, StopAttack())
    assert not any(isinstance(a, Spy) for a in g.legal_actions(0))
    with pytest.raises(IllegalAction, match="EW-8"):
        g.apply(0, Spy(1))


def test_ew8_the_card_just_drawn_may_be_used() -> None:
    g = three_player(hands=[[], [], []], extra={"germany": (0, M), "hungary": (1, S)})
    g.pieces.pop("austria")
    g.pieces["austria"] = (1, M)
    g.pile.remove(parse_card("JS"))
    g.pile.append(parse_card("JS"))  # next to draw
    g.apply(0, Pass())  # seat 1 (Central Powers) draws the J
    assert parse_card("JS") in g.hands[1]
    assert Sabotage("germany") in g.legal_actions(1)


# ---------------------------------------------------------------- EW-9 sabotage
def test_ew9_sabotage_only_on_own_home_fields() -> None:
    g = three_player(hands=[cards("JC"), [], []])
    with pytest.raises(IllegalAction, match=r"own home fields \(EW-9\)"):
        g.apply(0, Sabotage("germany"))


def test_ew9_sabotage_shrinks_in_place_and_nothing_moves_in() -> None:
    g = three_player(hands=[cards("JC"), [], []], extra={"italy": (1, L)})
    events = g.apply(0, Sabotage("italy"))
    assert g.pieces["italy"] == (1, M)
    assert kinds(events) == ["sabotage", "shrunk"]
    assert g.discard == cards("JC")
    assert g.phase == TURN and g.current == 0  # the turn goes on


def test_ew9_sabotage_shrinks_two_sizes_when_smaller_not_in_supply() -> None:
    g = three_player(
        hands=[cards("AC"), [], []],
        extra={"italy": (1, L), "west_russia": (1, M), "south_russia": (1, M)},
    )
    g.pieces["austria"] = (1, M)  # all three mediums of seat 1 on the board
    g.apply(0, Sabotage("italy", ace=True))
    assert g.pieces["italy"] == (1, S)


def test_ew9_sabotaged_small_is_destroyed() -> None:
    g = three_player(hands=[cards("JC"), [], []], extra={"italy": (1, S)})
    g.pieces["hungary"] = (1, M)
    events = g.apply(0, Sabotage("italy"))
    assert "italy" not in g.pieces and "destroyed" in kinds(events)


def test_ew9_sabotage_cannot_be_stopped_by_k() -> None:
    g = three_player(hands=[cards("JC"), [], cards("KH")], extra={"italy": (1, L)})
    events = g.apply(0, Sabotage("italy"))
    assert g.phase == TURN and "diplomacy_open" not in kinds(events)


def test_ew9_sabotage_needs_j_or_a() -> None:
    g = three_player(hands=[cards("QC"), [], []], extra={"italy": (1, L)})
    with pytest.raises(IllegalAction, match=r"a J \(or an A in its place\) in your hand"):
        g.apply(0, Sabotage("italy"))
    with pytest.raises(IllegalAction, match=r"Sabotage needs an A in your hand"):
        g.apply(0, Sabotage("italy", ace=True))


# ---------------------------------------------------------------- EW-10 espionage
def test_ew10_spy_sees_whole_hand_privately() -> None:
    g = three_player(hands=[cards("QC"), cards("KH", "2C"), cards("9S")])
    events = g.apply(0, Spy(1))
    public = [e for e in events if e.public]
    private = [e for e in events if not e.public]
    assert [e.kind for e in public] == ["spied"]
    assert "cards" not in public[0].data
    assert private[0].to == 0 and private[0].data["cards"] == sorted(cards("KH", "2C"))
    assert pyramids.view_for(g, 0).known_cards == {1: tuple(sorted(cards("KH", "2C")))}
    assert pyramids.view_for(g, 2).known_cards == {}


def test_ew10_no_spying_on_yourself() -> None:
    g = three_player(hands=[cards("QC"), [], []])
    with pytest.raises(IllegalAction, match="EW-10"):
        g.apply(0, Spy(0))


def test_ew10_knowledge_forgets_cards_played_in_the_open() -> None:
    g = three_player(hands=[cards("QC", "5C"), cards("7H", "2C"), []])
    g.apply(0, Spy(1))
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(2, LetPass())
    g.apply(0, PlayCard(parse_card("5C")))
    g.apply(1, PlayCard(parse_card("7H")))
    assert pyramids.view_for(g, 0).known_cards == {1: (parse_card("2C"),)}


# ---------------------------------------------------------------- EW-11 actions
def test_ew11_conscription_small_on_empty_home_field() -> None:
    g = three_player()
    del g.pieces["north_africa"]
    g.apply(0, Conscript("north_africa"))
    assert g.pieces["north_africa"] == (0, S)


def test_ew11_conscription_grows_own_piece_by_one_size() -> None:
    g = three_player()
    g.apply(0, Conscript("north_africa"))
    assert g.pieces["north_africa"] == (0, M)


def test_ew11_conscription_needs_the_next_size_in_supply() -> None:
    g = three_player(extra={"britain": (0, M), "spain": (0, M)})
    with pytest.raises(IllegalAction, match=r"No medium pyramid left .*\(EW-11\)"):
        g.apply(0, Conscript("north_africa"))
    with pytest.raises(IllegalAction, match="cannot grow"):
        g.apply(0, Conscript("france_benelux"))


def test_ew11_conscription_not_on_enemy_piece() -> None:
    g = three_player(extra={"italy": (1, S)})
    with pytest.raises(IllegalAction, match="enemy piece"):
        g.apply(0, Conscript("italy"))


def test_ew11_move_by_land_or_special_link() -> None:
    g = three_player()
    del g.pieces["britain"]
    g.pieces["south_scandinavia"] = (2, M)
    g.pieces["spain"] = (2, L)
    g.apply(0, Move("france_benelux", "britain"))  # the Channel is a special link
    assert g.pieces["britain"] == (0, L)


def test_ew11_sail_between_harbours_of_one_group() -> None:
    g = position([BRIT, CENT], {"spain": (0, L), "britain": (0, S), "germany": (1, L)})
    acts = g.legal_actions(0)
    assert Move("spain", "north_russia") in acts  # Atlantic to Atlantic
    events = g.apply(0, Move("spain", "north_russia"))
    assert events[0].data["by_sea"] is True


def test_ew11_atlantic_and_mediterranean_never_connect() -> None:
    g = position([BRIT, CENT], {"spain": (0, L), "britain": (0, S), "germany": (1, L)})
    with pytest.raises(IllegalAction, match="EW-11"):
        g.apply(0, Move("spain", "italy"))


def test_ew11_fields_without_harbour_cannot_sail() -> None:
    g = position([CENT, BRIT], {"austria": (0, L), "britain": (1, L)})
    assert {a.dst for a in g.legal_actions(0) if isinstance(a, Move)} == {
        "germany",
        "hungary",
        "italy",
        "south_russia",
        "west_russia",
    }


def test_ew11_attack_from_any_piece_on_a_neighbour_only() -> None:
    g = three_player(hands=[cards("5C"), [], []], extra={"west_russia": (0, S)})
    attacks = {(a.src, a.dst) for a in g.legal_actions(0) if isinstance(a, Attack)}
    assert ("west_russia", "austria") in attacks and ("west_russia", "germany") in attacks
    assert ("france_benelux", "britain") in attacks  # special link
    # no link and harbours of two groups: the fields do not touch
    with pytest.raises(IllegalAction, match="South Scandinavia does not touch North Africa"):
        g.apply(0, Attack("north_africa", "south_scandinavia"))
    # harbours of one group join them, but attacks go by land unless the option is on
    g.pieces["middle_east"] = (1, S)
    with pytest.raises(IllegalAction, match=r"Middle East and Italy are joined only by sea"):
        g.apply(0, Attack("italy", "middle_east"))


def test_ew11_sea_attack_option() -> None:
    opts = pyramids.Options(sea_attacks=True)
    g = position(
        [FRAN, OTTO],
        {"north_africa": (0, L), "italy": (0, S), "middle_east": (1, S), "anatolia": (1, S)},
        hands=[cards("5C"), []],
        options=opts,
    )
    assert Attack("italy", "middle_east") in g.legal_actions(0)
    g.apply(0, Attack("italy", "middle_east"))
    assert g.phase == DUEL


def test_ew11_attacker_needs_a_card() -> None:
    g = three_player(hands=[[], [], []])
    assert not any(isinstance(a, Attack) for a in g.legal_actions(0))
    with pytest.raises(IllegalAction, match="at least one card"):
        g.apply(0, Attack("france_benelux", "germany"))


def test_ew11_armament_draws_two_and_ends_turn() -> None:
    g = three_player(hands=[[], [], []])
    g.apply(0, Arm())
    assert len(g.hands[0]) == 2 and g.current == 1


def test_ew11_pass_ends_turn() -> None:
    g = three_player()
    events = g.apply(0, Pass())
    assert kinds(events)[:2] == ["passed", "turn_start"] and g.current == 1


# ---------------------------------------------------------------- EW-12 home fields
def test_ew12_conquered_fields_are_never_home() -> None:
    g = three_player(extra={"west_russia": (0, S)})
    with pytest.raises(IllegalAction, match=r"only on your home fields \(EW-11\)"):
        g.apply(0, Conscript("west_russia"))


# ---------------------------------------------------------------- EW-13..15 diplomacy
def four_player(**kw: Any) -> pyramids.GameState:
    pieces = {
        **THREE_HOMES,
        "north_russia": (3, L),
        "west_russia": (3, M),
        "south_russia": (3, S),
    }
    return position([FRAN, CENT, BRIT, RUSS], pieces, **kw)


def test_ew13_window_offered_to_every_third_player_at_once() -> None:
    g = four_player(hands=[cards("5C"), [], cards("KH"), []])
    events = g.apply(0, Attack("france_benelux", "germany"))
    assert g.phase == DIPLOMACY
    assert [d.seat for d in g.deciders()] == [2, 3]  # clockwise from the attacker
    assert events[-1].data["eligible"] == [2, 3]
    # The same prompt whatever they hold: both may let it pass.
    assert LetPass() in g.legal_actions(2) and LetPass() in g.legal_actions(3)
    assert StopAttack() in g.legal_actions(2) and StopAttack() not in g.legal_actions(3)


def test_ew13_first_k_stops_the_attack_and_is_discarded() -> None:
    g = four_player(hands=[cards("5C"), [], cards("KH"), cards("AS")])
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(3, StopAttack(ace=True))
    assert g.phase == TURN and g.discard == cards("AS")
    with pytest.raises(NotYourTurn):
        g.apply(2, StopAttack())


def test_ew13_attacker_and_defender_are_not_asked() -> None:
    g = four_player(hands=[cards("5C", "KC"), cards("KD"), [], []])
    g.apply(0, Attack("france_benelux", "germany"))
    with pytest.raises(NotYourTurn):
        g.apply(1, StopAttack())
    with pytest.raises(NotYourTurn):
        g.apply(0, StopAttack())


def test_ew14_stopped_attack_moves_nothing_spends_no_duel_card_no_second_attack() -> None:
    g = four_player(hands=[cards("5C", "6C"), [], cards("KH"), []])
    before = dict(g.pieces)
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(2, StopAttack())
    assert g.pieces == before and len(g.hands[0]) == 2
    (d,) = g.deciders()
    assert d.kind == "action"
    assert not any(isinstance(a, Attack) for a in g.legal_actions(0))
    with pytest.raises(IllegalAction, match="EW-14"):
        g.apply(0, Attack("italy", "austria"))
    g.apply(0, Conscript("north_africa"))
    assert g.current == 1


def test_ew15_window_closes_when_all_let_it_pass_or_time_out() -> None:
    g = four_player(hands=[cards("5C"), [], cards("KH"), []])
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(3, LetPass())
    assert g.phase == DIPLOMACY
    events = g.apply(2, Timeout())
    assert g.phase == DUEL and "duel_started" in kinds(events)
    assert parse_card("KH") in g.hands[2]


def test_ew15_no_window_without_eligible_players() -> None:
    g = position(
        [FRAN, CENT], {"france_benelux": (0, L), "germany": (1, L)}, hands=[cards("5C"), []]
    )
    events = g.apply(0, Attack("france_benelux", "germany"))
    assert g.phase == DUEL and "diplomacy_open" not in kinds(events)


# ---------------------------------------------------------------- EW-16..18 duel
def duel(att_size: int, def_size: int, att: list[str], dfn: list[str]) -> pyramids.GameState:
    g = position(
        [FRAN, CENT],
        {
            "france_benelux": (0, att_size),
            "italy": (0, S),
            "germany": (1, def_size),
            "austria": (1, S),
        },
        hands=[cards(*att), cards(*dfn)],
    )
    g.apply(0, Attack("france_benelux", "germany"))
    return g


def test_ew16_card_limits_by_size() -> None:
    g = duel(S, L, ["5C", "6C"], ["2C", "3C", "4C", "5D"])
    g.apply(0, PlayCard(parse_card("5C")))
    # The small attacker has used its one card; the defender plays alone up to three.
    for name in ("2C", "3C", "4C"):
        (d,) = g.deciders()
        assert d.seat == 1
        g.apply(1, PlayCard(parse_card(name)))
    assert g.phase == TURN and parse_card("5D") in g.hands[1]


def test_ew17_alternate_attacker_first_stop_is_permanent() -> None:
    g = duel(L, L, ["5C", "6C", "7C"], ["2C", "3C", "4C"])
    assert [d.seat for d in g.deciders()] == [0]
    assert StopPlaying() not in g.legal_actions(0)  # must play at least one card
    with pytest.raises(IllegalAction, match="at least one card"):
        g.apply(0, StopPlaying())
    g.apply(0, PlayCard(parse_card("5C")))
    assert g.deciders()[0].seat == 1
    g.apply(1, StopPlaying())
    assert g.deciders()[0].seat == 0  # the attacker goes on alone
    g.apply(0, PlayCard(parse_card("6C")))
    assert g.deciders()[0].seat == 0
    g.apply(0, PlayCard(parse_card("7C")))
    assert g.phase != DUEL


def test_ew17_only_cards_from_hand() -> None:
    g = duel(L, L, ["5C"], ["2C"])
    with pytest.raises(IllegalAction, match="EW-17"):
        g.apply(0, PlayCard(parse_card("9H")))


def test_ew17_attacker_timeout_before_first_card_withdraws_the_attack() -> None:
    g = duel(L, M, ["5C"], ["2C"])
    before = dict(g.pieces)
    events = g.apply(0, Timeout())
    assert "attack_withdrawn" in kinds(events)
    assert g.pieces == before and g.hands[0] == cards("5C") and g.discard == []
    assert g.current == 1  # the turn ended


def test_ew17_later_timeout_counts_as_stop() -> None:
    g = duel(L, L, ["5C", "6C"], ["2C", "3C"])
    g.apply(0, PlayCard(parse_card("5C")))
    g.apply(1, Timeout())
    assert g.deciders()[0].seat == 0 and g.battle is not None and g.battle.defender_done


def test_ew18_tie_leaves_both_pieces() -> None:
    g = duel(L, L, ["5C"], ["5D"])
    g.apply(0, PlayCard(parse_card("5C")))
    events = g.apply(1, PlayCard(parse_card("5D")))
    over = next(e for e in events if e.kind == "duel_over")
    assert over.data["attacker_won"] is False
    assert g.pieces["germany"] == (1, L) and g.pieces["france_benelux"] == (0, L)
    assert sorted(g.discard) == sorted(cards("5C", "5D"))


def test_ew18_strictly_higher_total_wins_figures_count_four() -> None:
    g = duel(M, M, ["KC", "2C"], ["5D"])
    g.apply(0, PlayCard(parse_card("KC")))
    g.apply(1, PlayCard(parse_card("5D")))
    events = g.apply(0, PlayCard(parse_card("2C")))
    over = next(e for e in events if e.kind == "duel_over")
    assert (over.data["attacker_total"], over.data["defender_total"]) == (6, 5)
    assert over.data["attacker_won"] is True


# ---------------------------------------------------------------- EW-19 after a won attack
def won_attack(
    extra: dict[str, tuple[int, int]], src: str = "france_benelux", dst: str = "germany"
) -> tuple[pyramids.GameState, list[rules.Event]]:
    pieces = {"france_benelux": (0, L), "italy": (0, M), "germany": (1, M), "hungary": (1, S)}
    pieces.update(extra)
    g = position([FRAN, CENT], pieces, hands=[cards("10C"), []])
    g.apply(0, Attack(src, dst))
    return g, g.apply(0, PlayCard(parse_card("10C")))


def test_ew19_defender_chooses_retreat_and_attacker_moves_in() -> None:
    g, events = won_attack({})
    assert g.phase == RETREAT and "retreat_needed" in kinds(events)
    (d,) = g.deciders()
    assert d.seat == 1 and d.kind == "retreat"
    legal = g.legal_actions(1)
    assert all(isinstance(a, Retreat) for a in legal)
    assert {a.field for a in legal if isinstance(a, Retreat)} == {
        "austria",
        "south_scandinavia",
        "west_russia",
    }
    g.apply(1, Retreat("west_russia"))
    assert g.pieces["west_russia"] == (1, M) and g.pieces["germany"] == (0, L)
    assert "france_benelux" not in g.pieces


def test_ew19_retreat_never_by_sea_and_not_into_attackers_field() -> None:
    g, _ = won_attack({})
    options = g.battle.retreat_options if g.battle else []
    assert "france_benelux" not in options  # the attacker's own field counts as occupied
    assert "britain" not in options and "spain" not in options  # Atlantic harbours
    with pytest.raises(IllegalAction, match="never by sea"):
        g.apply(1, Retreat("britain"))


def test_ew19_single_retreat_is_taken_automatically() -> None:
    g, events = won_attack({"austria": (1, S), "south_scandinavia": (0, S)})
    assert "retreated" in kinds(events) and g.pieces["west_russia"] == (1, M)
    assert g.phase == TURN


def test_ew19_no_retreat_shrinks_in_place_attacker_stays() -> None:
    g, events = won_attack({"austria": (1, M), "south_scandinavia": (0, S), "west_russia": (1, M)})
    assert "shrunk" in kinds(events)
    assert g.pieces["germany"] == (1, S) and g.pieces["france_benelux"] == (0, L)


def test_ew19_shrink_two_sizes_when_smaller_missing() -> None:
    _, events = won_attack(
        {
            "germany": (1, L),
            "austria": (1, S),
            "south_scandinavia": (0, S),
            "west_russia": (1, M),
            "south_russia": (1, M),
            "anatolia": (1, M),
        },
    )
    shrunk = next(e for e in events if e.kind == "shrunk")
    assert (shrunk.data["from_size"], shrunk.data["to_size"]) == (L, S)


def test_ew19_small_with_no_retreat_is_destroyed_and_attacker_moves_in() -> None:
    g, events = won_attack(
        {"germany": (1, S), "austria": (1, S), "south_scandinavia": (0, S), "west_russia": (1, S)}
    )
    assert kinds(events).count("destroyed") == 1 and "moved_in" in kinds(events)
    assert g.pieces["germany"] == (0, L) and "france_benelux" not in g.pieces


def test_ew19_retreat_timeout_takes_first_legal_field() -> None:
    g, _ = won_attack({})
    first = g.battle.retreat_options[0] if g.battle else ""
    g.apply(1, Timeout())
    assert g.pieces[first] == (1, M)


# ---------------------------------------------------------------- EW-20..22 the end
def test_ew20_moving_out_of_last_home_field_is_legal_and_ends_the_game() -> None:
    g = position([FRAN, CENT], {"north_africa": (0, S), "germany": (1, L)})
    assert Move("north_africa", "spain") in g.legal_actions(0)
    events = g.apply(0, Move("north_africa", "spain"))
    assert g.over and "fallen" in kinds(events)
    assert g.winners == [1]  # the fallen player's arch-enemy holder wins (EW-21/22)


def test_ew20_end_check_after_sabotage() -> None:
    # A sabotage can only remove pieces, so it never creates an occupier; this position
    # (Central Powers already without a home piece) shows the end check runs after it.
    g = position(
        [FRAN, CENT, BRIT],
        {"france_benelux": (0, L), "italy": (1, S), "britain": (2, L)},
        hands=[cards("JC"), [], []],
    )
    events = g.apply(0, Sabotage("italy"))
    assert g.over and "fallen" in kinds(events)
    assert g.winners == [0]  # France sits right before Central Powers


def france_takes_germany(powers: list[str]) -> tuple[pyramids.GameState, list[rules.Event]]:
    """France (seat 0) takes Germany, the Central Powers' last field, with ``powers`` in
    seat order; the game and the events of the winning card."""
    cent, brit = powers.index(CENT), powers.index(BRIT)
    g = position(
        powers,
        {
            "france_benelux": (0, L),
            "italy": (0, S),
            "austria": (0, M),
            "hungary": (0, S),
            "germany": (cent, S),
            "britain": (brit, L),
            "south_scandinavia": (brit, M),
            "west_russia": (brit, S),
        },
        hands=[cards("10C"), [], []],
    )
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(brit, LetPass())
    return g, g.apply(0, PlayCard(parse_card("10C")))


def test_ew21_occupier_and_arch_enemy_holder_are_co_winners() -> None:
    # France (0) takes the last Central field; Central (1) falls; France is also the one
    # whose arch-enemy is Central, so a single winner here...
    g, _ = france_takes_germany([FRAN, CENT, BRIT])
    assert g.over and g.winners == [0]
    # ...while with Britain (2) sitting before Central, Britain is co-winner.
    g, events = france_takes_germany([FRAN, BRIT, CENT])
    assert g.over and g.winners == [0, 1]
    assert next(e for e in events if e.kind == "game_over").data["reason"] == "occupation"


def two_occupations(attacker_card: str) -> tuple[pyramids.GameState, list[rules.Event]]:
    """France (0) attacks Russia's small on Germany to complete the Central Powers (an
    unplayed power); the beaten small's only retreat, South Scandinavia, completes
    Russia's (1) hold on Britain (also unplayed)."""
    g = position(
        [FRAN, RUSS],
        {
            "france_benelux": (0, L),
            "italy": (0, M),
            "austria": (0, S),
            "hungary": (0, S),
            "germany": (1, S),
            "britain": (1, M),
            "spain": (1, M),
            "west_russia": (1, L),
        },
        hands=[cards(attacker_card), []],
    )
    g.apply(0, Attack("france_benelux", "germany"))
    return g, g.apply(0, PlayCard(parse_card(attacker_card)))


def test_ew21_several_occupiers_only_the_mover_counts() -> None:
    g, events = two_occupations("10C")
    occupied = {e.data["seat"]: e.data["power"] for e in events if e.kind == "occupied"}
    assert occupied == {0: CENT, 1: BRIT}
    assert g.over and g.winners == [0]


def test_ew21_defender_completing_an_occupation_by_retreat_wins() -> None:
    g = position(
        [FRAN, RUSS],
        {
            "france_benelux": (0, L),
            "italy": (0, M),
            "germany": (1, S),
            "britain": (1, M),
            "spain": (1, M),
            "west_russia": (1, L),
            "austria": (0, S),
        },
        hands=[cards("10C"), []],
    )
    g.apply(0, Attack("france_benelux", "germany"))
    g.apply(0, PlayCard(parse_card("10C")))
    assert g.over and g.winners == [1]


def test_ew21_draw_when_nobody_wins() -> None:
    # Two players; seat 0 moves out of its last home field while seat 1 also has none
    # at home: both fallen, each other's arch-enemy holder is fallen too -> draw.
    g = position([FRAN, CENT], {"north_africa": (0, S), "spain": (1, S)})
    g.apply(0, Move("north_africa", "middle_east"))
    assert g.over and g.draw and g.winners == []


def test_ew22_two_players_each_others_arch_enemy_three_form_a_cycle() -> None:
    g2 = position([FRAN, CENT], {"italy": (0, S), "germany": (1, S)})
    assert [g2.arch_enemy(s) for s in (0, 1)] == [1, 0]
    g3 = three_player()
    assert [g3.arch_enemy(s) for s in (0, 1, 2)] == [1, 2, 0]


# ---------------------------------------------------------------- EW-24 public information
def test_ew24_view_shows_public_facts_only() -> None:
    g = three_player(hands=[cards("5C", "QH"), cards("KH"), cards("2S")])
    g.discard = cards("3D")
    g.pile.remove(parse_card("3D"))
    spectator = pyramids.view_for(g, None)
    assert spectator.hand is None and spectator.discard == tuple(cards("3D"))
    assert spectator.pile_size == len(g.pile)
    assert not hasattr(spectator, "pile")
    seat1 = pyramids.view_for(g, 1)
    assert seat1.hand == tuple(cards("KH"))
    text = repr(seat1)
    assert "'cards'" not in text
    for c in cards("5C", "QH", "2S"):
        assert c not in seat1.hand


def test_ew24_duel_cards_face_up_in_everyones_view() -> None:
    g = duel(L, L, ["5C", "6C"], ["2C"])
    g.apply(0, PlayCard(parse_card("5C")))
    b = pyramids.view_for(g, None).battle
    assert b is not None and b.attacker_cards == tuple(cards("5C")) and b.attacker_total == 5


# ---------------------------------------------------------------- EW-25 leaving and draws
def test_ew25_agreed_draw() -> None:
    g = three_player()
    events = g.apply(rules.SYSTEM, AgreeDraw())
    assert g.phase == OVER and g.draw and kinds(events) == ["game_over"]
    with pytest.raises(rules.GameOver):
        g.apply(0, Pass())


def test_ew25_round_limit_draw() -> None:
    g = position(
        [FRAN, CENT],
        {"italy": (0, S), "germany": (1, S)},
        options=pyramids.Options(round_limit=2),
    )
    for _ in range(3):
        g.apply(g.current, Pass())
    assert not g.over and g.round == 2
    g.apply(g.current, Pass())
    assert g.over and g.draw and g.end_reason == "round limit"


# ---------------------------------------------------------------- turn discipline
def test_not_your_turn_names_who_is_to_move() -> None:
    g = three_player()
    with pytest.raises(NotYourTurn, match="France"):
        g.apply(1, Pass())


def test_expired_turn_passes_or_arms_per_option() -> None:
    g = three_player(hands=[[], [], []])
    g.apply(0, Timeout())
    assert g.hands[0] == [] and g.current == 1
    g = three_player(hands=[[], [], []], options=pyramids.Options(turn_timeout_action="arm"))
    g.apply(0, Timeout())
    assert len(g.hands[0]) == 2
