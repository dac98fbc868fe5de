"""A scenario per World War 5 ruling (WW-1 .. WW-6), random playouts, and dice odds."""

from __future__ import annotations

import itertools
import math

import pytest

import rules
from rules import IllegalAction, pyramids
from rules.pyramids import Attack, Build, Grow, Move, Pass, PlaceAll, PlacePiece, Retreat
from rules.pyramids.state import OVER, RETREAT, SETUP
from rules.rng import Rng
from tests.rules.playout import play_random
from tests.rules.positions import kinds, position

WW = "world_war_5"
NA, SA, EU, AF, AS, AU = (
    "north_america",
    "south_america",
    "europe",
    "africa",
    "asia",
    "australia",
)
S, M, L = 1, 2, 3


def ww_position(
    powers: list[str],
    pieces: dict[str, tuple[int, int]],
    current: int = 0,
    options: pyramids.Options | None = None,
) -> pyramids.GameState:
    """A World War 5 game in its turn phase with the given pieces."""
    return position(powers, pieces, current=current, options=options, variant=WW, seed=5)


def basic() -> pyramids.GameState:
    """North America (0) against Europe (1), both fully at home."""
    return ww_position(
        [NA, EU],
        {
            "alaska": (0, S),
            "canada": (0, M),
            "usa": (0, L),
            "scandinavia": (1, S),
            "western_europe": (1, L),
            "southern_europe": (1, M),
        },
    )


# ---------------------------------------------------------------- WW-1
def test_ww1_board_no_cards_and_player_counts() -> None:
    g, _ = pyramids.new_game(WW, [None, None], 1)
    assert len(g.board.fields) == 18 and g.pile == [] and g.hands == [[], []]
    with pytest.raises(rules.RulesError):
        pyramids.new_game(WW, [None] * 5, 1)
    g6, _ = pyramids.new_game(WW, [None] * 6, 1, pyramids.Options(five_players=True))
    assert len(g6.seats) == 6


def test_ww1_sea_links_work_for_movement_and_invasion() -> None:
    g = ww_position(
        [NA, AF],
        {"usa": (0, L), "canada": (0, S), "northwest_africa": (1, S), "south_africa": (1, S)},
    )
    assert Attack("usa", "northwest_africa") in g.legal_actions(0)  # Atlantic sea line
    assert Move("usa", "east_australia") in g.legal_actions(0)  # Pacific, wraps the edge


def test_ww1_printed_board_option_changes_links() -> None:
    g = ww_position(
        [NA, AF],
        {"usa": (0, L), "canada": (0, S), "northwest_africa": (1, S), "south_africa": (1, S)},
        options=pyramids.Options(pyramid_arcade=True),
    )
    assert Attack("usa", "northwest_africa") not in g.legal_actions(0)


# ---------------------------------------------------------------- WW-2
def test_ww2_only_grow_build_move_invade() -> None:
    g = basic()
    del g.pieces["alaska"]
    kinds_offered = {type(a) for a in g.legal_actions(0)}
    assert kinds_offered == {Grow, Build, Move, Attack}
    assert Pass() not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="WW-2"):
        g.apply(0, Pass())
    with pytest.raises(IllegalAction, match="WW-2"):
        g.apply(0, pyramids.Arm())


def test_ww2_grow_and_build_only_at_home() -> None:
    g = basic()
    g.pieces["north_asia"] = (0, S)
    with pytest.raises(IllegalAction, match="own continent"):
        g.apply(0, Grow("north_asia"))
    with pytest.raises(IllegalAction, match="own continent"):
        g.apply(0, Build("east_asia"))
    g.apply(0, Grow("alaska"))
    assert g.pieces["alaska"] == (0, M)


def test_ww2_expired_turn_gets_a_computer_move() -> None:
    g = basic()
    before = dict(g.pieces)
    events = g.apply(0, pyramids.Timeout())
    assert kinds(events)[0] == "timed_out"
    assert g.current == 1 and (g.pieces != before or "dice" in kinds(events))
    (step,) = [e for e in events if e.kind == "chance" and e.data["what"] == "timed-out move"]
    assert step.to == rules.events.HIDDEN and 0 <= step.data["outcome"] < step.data["choices"]


def test_ww2_expired_turn_move_can_be_forced_and_is_the_listed_one() -> None:
    g = basic()
    options = g.legal_actions(0)
    trial = g.copy()
    trial.force_chance([len(options) - 1])
    forced = trial.apply(0, pyramids.Timeout())
    direct = g.copy().apply(0, options[-1])
    assert kinds(forced)[1:] == kinds(direct)


# ---------------------------------------------------------------- WW-3
def test_ww3_dice_per_pip_ties_to_defender_every_roll_is_an_event() -> None:
    for seed in range(60):
        g = basic()
        g.rng = Rng(seed)
        events = g.apply(0, Attack("canada", "scandinavia"))
        dice = next(e for e in events if e.kind == "dice").data
        assert len(dice["attacker_dice"]) == 2 and len(dice["defender_dice"]) == 1
        won = sum(dice["attacker_dice"]) > sum(dice["defender_dice"])
        assert dice["attacker_won"] == won
        if not won:
            assert g.pieces["scandinavia"] == (1, S) and g.pieces["canada"] == (0, M)
        assert g.last_roll == dice


def test_ww3_retreat_may_use_sea_links() -> None:
    g = ww_position(
        [NA, EU],
        {
            "alaska": (0, S),
            "usa": (0, L),
            "western_europe": (1, S),
            "southern_europe": (1, M),
            "scandinavia": (1, S),
            "brazil": (0, S),
            "northwest_africa": (0, S),
        },
    )
    # Western Europe's empty neighbours: Canada (by sea) only.
    for seed in range(200):
        trial = g.copy()
        trial.rng = Rng(seed)
        trial.apply(0, Attack("usa", "western_europe"))
        if trial.last_roll and trial.last_roll["attacker_won"]:
            assert trial.pieces["canada"] == (1, S) and trial.pieces["western_europe"] == (0, L)
            return
    raise AssertionError("a large never beat a small in 200 seeded rolls")


def test_ww3_defender_chooses_among_several_retreats() -> None:
    g = ww_position(
        [NA, EU],
        {"canada": (0, L), "usa": (0, S), "scandinavia": (1, S), "southern_europe": (1, M)},
    )
    for seed in range(200):
        trial = g.copy()
        trial.rng = Rng(seed)
        trial.apply(0, Attack("canada", "scandinavia"))
        if trial.phase == RETREAT:
            legal = trial.legal_actions(1)
            assert all(isinstance(a, Retreat) for a in legal)
            options = {a.field for a in legal if isinstance(a, Retreat)}
            assert options == {"north_asia", "western_europe"}
            trial.apply(1, Retreat("north_asia"))
            assert trial.pieces["north_asia"] == (1, S)
            return
    raise AssertionError("no won attack in 200 seeded rolls")


# ---------------------------------------------------------------- WW-4
def test_ww4_elimination_removes_all_pieces_and_play_goes_on() -> None:
    g = ww_position(
        [NA, EU, AF],
        {
            "usa": (0, L),
            "southern_europe": (1, S),
            "northeast_africa": (1, M),
            "south_africa": (2, S),
        },
    )
    # Europe moves its last home piece away: eliminated, its other pieces removed.
    g.current = 1
    events = g.apply(1, Move("southern_europe", "north_asia"))
    assert "eliminated" in kinds(events)
    assert all(s != 1 for s, _ in g.pieces.values())
    assert not g.over and g.current == 2
    g.apply(2, Build("northwest_africa"))
    assert g.current == 0  # Europe's seat is skipped


def test_ww4_last_player_left_wins() -> None:
    g = ww_position([NA, EU], {"usa": (0, L), "southern_europe": (1, S)})
    g.current = 1
    g.apply(1, Move("southern_europe", "north_asia"))
    assert g.over and g.winners == [0] and g.end_reason == "last player left"


# ---------------------------------------------------------------- WW-5
def test_ww5_occupying_a_continent_with_a_piece_at_home_wins() -> None:
    # Europe is unplayed; North America holds two European territories and takes the third.
    g = ww_position(
        [NA, AF],
        {
            "usa": (0, L),
            "scandinavia": (0, S),
            "western_europe": (0, M),
            "north_asia": (0, S),
            "south_africa": (1, S),
        },
    )
    events = g.apply(0, Move("north_asia", "southern_europe"))
    assert g.over and g.winners == [0]
    assert {"seat": 0, "power": EU} in [e.data for e in events if e.kind == "occupied"]


def test_ww5_no_win_without_a_piece_at_home() -> None:
    g = ww_position(
        [NA, AF],
        {
            "usa": (0, S),
            "scandinavia": (0, S),
            "western_europe": (0, M),
            "north_asia": (0, S),
            "south_africa": (1, S),
        },
    )
    events = g.apply(0, Move("usa", "northwest_africa"))  # leaves home empty
    assert "eliminated" in kinds(events) and g.winners == [1]


def test_ww5_mover_wins_a_simultaneous_victory() -> None:
    # North America invades Southern Europe from North Asia and so holds all of Europe;
    # Asia's beaten small can only retreat to Northeast Africa, completing Asia's hold on
    # Africa while Asia keeps Southwest Asia at home. Both qualify: the mover wins.
    g = ww_position(
        [NA, AS],
        {
            "usa": (0, L),
            "north_asia": (0, L),
            "scandinavia": (0, S),
            "western_europe": (0, M),
            "southern_europe": (1, S),
            "southwest_asia": (1, M),
            "northwest_africa": (1, S),
            "south_africa": (1, S),
        },
    )
    for seed in range(300):
        trial = g.copy()
        trial.rng = Rng(seed)
        events = trial.apply(0, Attack("north_asia", "southern_europe"))
        if trial.over:
            occupied = {e.data["seat"]: e.data["power"] for e in events if e.kind == "occupied"}
            assert occupied == {0: EU, 1: AF}
            assert trial.winners == [0] and trial.pieces["northeast_africa"] == (1, S)
            return
    raise AssertionError("no winning roll in 300 seeds")


# ---------------------------------------------------------------- WW-6
def test_ww6_setup_smalls_mediums_larges_in_turn_order_by_default() -> None:
    g, _ = pyramids.new_game(WW, [NA, EU], 2, arranged=True)
    assert g.phase == SETUP
    sizes = []
    while g.phase == SETUP:
        (d,) = g.deciders()
        act = g.legal_actions(d.seat)[0]
        assert isinstance(act, PlacePiece)
        g.apply(d.seat, act)
        sizes.append(g.pieces[act.field][1])
    assert sizes == [S, S, M, M, L, L]


def test_ww6_all_at_once_option() -> None:
    g, _ = pyramids.new_game(WW, [NA, EU], 2, pyramids.Options(setup_order="together"))
    assert all(isinstance(a, PlaceAll) for a in g.legal_actions(0))


# ---------------------------------------------------------------- playouts and odds
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_world_war_5_games_keep_every_invariant(players: int) -> None:
    for k in range(12):
        stats = play_random(WW, players, 500 + 17 * players + k)
        assert stats.over


def test_random_world_war_5_six_players() -> None:
    for k in range(4):
        assert play_random(WW, 6, 900 + k, pyramids.Options(five_players=True)).over


def exact_win_chance(att: int, dfn: int) -> float:
    wins = total = 0
    for a in itertools.product(range(1, 7), repeat=att):
        for d in itertools.product(range(1, 7), repeat=dfn):
            total += 1
            wins += sum(a) > sum(d)
    return wins / total


PUBLISHED = {(1, 1): 0.417, (2, 1): 0.838, (3, 3): 0.454}


def test_ww3_attack_odds_match_the_published_table() -> None:
    for pair, published in PUBLISHED.items():
        assert abs(exact_win_chance(*pair) - published) < 0.001
    trials = 2000
    for att in (1, 2, 3):
        for dfn in (1, 2, 3):
            wins = 0
            g = ww_position(
                [NA, EU],
                {
                    "canada": (0, att),
                    "usa": (0, L if att != L else M),
                    "scandinavia": (1, dfn),
                    "southern_europe": (1, L if dfn != L else M),
                },
            )
            for seed in range(trials):
                trial = g.copy()
                trial.rng = Rng(seed * 7919 + att * 31 + dfn)
                trial.apply(0, Attack("canada", "scandinavia"))
                assert trial.last_roll is not None
                wins += trial.last_roll["attacker_won"]
            p = exact_win_chance(att, dfn)
            sigma = math.sqrt(p * (1 - p) / trials)
            assert abs(wins / trials - p) < 4 * sigma + 1e-9, (att, dfn, wins / trials, p)


def test_ww_game_over_blocks_actions() -> None:
    g = ww_position([NA, EU], {"usa": (0, L), "southern_europe": (1, S)})
    g.current = 1
    g.apply(1, Move("southern_europe", "north_asia"))
    assert g.phase == OVER
    with pytest.raises(rules.GameOver):
        g.apply(0, Grow("usa"))
