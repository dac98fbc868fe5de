"""Rating one finished game (``service.rating``) against OpenSkill's values worked out by
hand: the Plackett-Luce update of Weng and Lin (2011, Algorithm 4) written out below from
its formulas, with the package's dynamics (``tau`` added to every sigma first). Tied
places (a shared win, a draw) are tied in the formulas themselves (``A_q``, the players
sharing a place) and nothing more: OpenSkill 6.2 has a step meant to give tied players
the mean of their changes of mu, but it measures each player's change against the player
itself (zero) and so changes nothing — the values below are what the package gives.
Games of 2 to 5 players, a win, a shared win, a draw, a player who left, computers at
their fixed ratings, and a game with too few people to be rated."""

from __future__ import annotations

import math

import pytest

from service.models import Departure, FinishedGame, PlayerResult, Rating, SeatRecord
from service.rating import COMPUTER_RATINGS, MU, SIGMA, entrants, outcome_of, rate_all, rate_game

BETA = 25 / 6
TAU = 25 / 300
KAPPA = 0.0001


def by_hand(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """(mu, sigma) after the game of every player (each a team of one) at ``ranks``
    (1 best; equal ranks tie)."""
    n = len(players)
    mu = [m for m, _ in players]
    var = [s * s + TAU * TAU for _, s in players]  # sigma^2 with the dynamics
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(m / c) for m in mu]
    # C_q: the players ranked at q or below; A_q: how many share q's rank
    sum_q = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / sum_q[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        gamma = math.sqrt(var[i]) / c
        omega *= var[i] / c
        delta *= gamma * var[i] / c**2
        new_mu = mu[i] + omega
        new_sigma = math.sqrt(var[i]) * math.sqrt(max(1 - delta, KAPPA))
        out.append((new_mu, new_sigma))
    return out


def seat(n: int, user: int | None, level: str | None = None) -> SeatRecord:
    return SeatRecord(
        id=n + 1,
        user_id=user,
        computer_level=level,
        display_name=f"P{user}" if user else f"Computer {n}",
        joined_at=0.0,
        seat=n,
        power=f"side{n}",
    )


def game(
    seats: list[SeatRecord],
    winners: list[int],
    draw: bool = False,
    departures: tuple[Departure, ...] = (),
    gid: int = 1,
) -> FinishedGame:
    return FinishedGame(
        id=gid,
        variant="european_war",
        guild_id=9,
        ended_at=1000.0 + gid,
        result={"winners": winners, "draw": draw, "reason": "test"},
        seats=seats,
        departures=list(departures),
    )


def known(user: int, mu: float, sigma: float, games: int = 3, wins: int = 1) -> Rating:
    return Rating("european_war", user, f"P{user}", mu, sigma, mu - 3 * sigma, games, wins, 0.0)


def after(results: list[PlayerResult]) -> dict[int, tuple[float, float]]:
    out = {}
    for r in results:
        assert r.mu is not None and r.sigma is not None
        out[r.user_id] = (r.mu, r.sigma)
    return out


def assert_close(got: tuple[float, float], want: tuple[float, float]) -> None:
    assert got[0] == pytest.approx(want[0], rel=1e-12, abs=1e-12)
    assert got[1] == pytest.approx(want[1], rel=1e-12, abs=1e-12)


def test_two_newcomers_one_wins() -> None:
    results, ratings = rate_game(game([seat(0, 1), seat(1, 2)], winners=[1]), {}, 1)
    want = by_hand([(MU, SIGMA), (MU, SIGMA)], [2, 1])
    assert_close(after(results)[1], want[0])
    assert_close(after(results)[2], want[1])
    # the numbers themselves: the winner up, the loser down by as much, both surer
    assert want[1][0] - MU == pytest.approx(MU - want[0][0])
    assert want[1][0] == pytest.approx(27.635389493140497, rel=1e-12)
    assert want[0][1] == pytest.approx(8.06590141354368, rel=1e-12)
    by_user = {r.user_id: r for r in ratings}
    assert (by_user[2].games, by_user[2].wins, by_user[1].wins) == (1, 1, 0)
    assert by_user[2].ordinal == by_user[2].mu - 3 * by_user[2].sigma
    assert [r.outcome for r in results] == ["loss", "win"]


def test_three_players_of_known_strength_one_wins() -> None:
    before = {1: known(1, 30.0, 4.0), 2: known(2, 22.0, 6.5), 3: known(3, 26.0, 2.5, games=9)}
    results, ratings = rate_game(game([seat(0, 1), seat(1, 2), seat(2, 3)], winners=[1]), before, 7)
    want = by_hand([(30.0, 4.0), (22.0, 6.5), (26.0, 2.5)], [2, 1, 2])
    for user, w in zip((1, 2, 3), want, strict=True):
        assert_close(after(results)[user], w)
    assert {r.user_id: r.games for r in ratings} == {1: 4, 2: 4, 3: 10}
    assert {r.user_id: r.wins for r in ratings} == {1: 1, 2: 2, 3: 1}
    assert all(r.seq == 7 for r in results)


def test_four_players_two_share_the_win() -> None:
    before = {1: known(1, 28.0, 5.0), 3: known(3, 20.0, 7.0)}
    seats = [seat(0, 1), seat(1, 2), seat(2, 3), seat(3, 4)]
    results, ratings = rate_game(game(seats, winners=[0, 2]), before, 1)
    want = by_hand([(28.0, 5.0), (MU, SIGMA), (20.0, 7.0), (MU, SIGMA)], [1, 2, 1, 2])
    for user, w in zip((1, 2, 3, 4), want, strict=True):
        assert_close(after(results)[user], w)
    # both winners move up, the weaker more; the two newcomers who lost, down alike
    got = after(results)
    assert 0 < got[1][0] - 28.0 < got[3][0] - 20.0
    assert got[2][0] == pytest.approx(got[4][0], rel=1e-12) and got[2][0] < MU
    assert [r.outcome for r in results] == ["shared", "loss", "shared", "loss"]
    assert {r.user_id: r.wins for r in ratings} == {1: 2, 2: 0, 3: 2, 4: 0}


def test_five_players_draw() -> None:
    strengths = [(31.0, 3.0), (25.0, 8.0), (18.0, 5.5), (24.0, 1.5), (27.5, 6.0)]
    before = {u + 1: known(u + 1, m, s) for u, (m, s) in enumerate(strengths)}
    seats = [seat(n, n + 1) for n in range(5)]
    results, ratings = rate_game(game(seats, winners=[], draw=True), before, 1)
    want = by_hand(strengths, [1] * 5)
    for user, w in zip(range(1, 6), want, strict=True):
        assert_close(after(results)[user], w)
    # a draw among all: the strongest loses ground, the weakest gains
    got = after(results)
    assert got[1][0] < 31.0 and got[3][0] > 18.0
    assert all(r.outcome == "draw" for r in results)
    assert all(r.wins == 1 for r in ratings)  # a draw is no win


def test_computers_take_part_at_their_fixed_ratings_and_a_leaver_loses() -> None:
    # five seats: Ann won; Bob resigned (a hard computer finished his seat and lost);
    # Cy lost; an easy computer lost; Dee took over a normal computer's seat and lost
    seats = [
        seat(0, 1),
        seat(1, None, "hard"),
        seat(2, 3),
        seat(3, None, "easy"),
        seat(4, 4),
    ]
    gone = (Departure(1, 2, "Bob", 50.0),)
    before = {2: known(2, 29.0, 3.5)}
    results, ratings = rate_game(game(seats, winners=[0], departures=gone), before, 1)
    places = entrants(game(seats, winners=[0], departures=gone))
    assert [(e.user_id, e.level, e.outcome) for e in places] == [
        (1, None, "win"),
        (None, "hard", "loss"),
        (3, None, "loss"),
        (None, "easy", "loss"),
        (4, None, "loss"),
        (2, None, "left"),
    ]
    want = by_hand(
        [(MU, SIGMA), COMPUTER_RATINGS["hard"], (MU, SIGMA), COMPUTER_RATINGS["easy"]]
        + [(MU, SIGMA), (29.0, 3.5)],
        [1, 2, 2, 2, 2, 2],
    )
    got = after(results)
    assert_close(got[1], want[0])
    assert_close(got[3], want[2])
    assert_close(got[4], want[4])
    assert_close(got[2], want[5])
    assert {r.user_id for r in ratings} == {1, 2, 3, 4}  # computers are never rated
    bob = next(r for r in results if r.user_id == 2)
    assert (bob.outcome, bob.seat, bob.power, bob.display_name) == ("left", 1, "side1", "Bob")


def test_one_person_among_computers_gets_a_result_but_no_rating() -> None:
    seats = [seat(0, 1), seat(1, None, "normal"), seat(2, None, "hard")]
    results, ratings = rate_game(game(seats, winners=[0]), {}, 3)
    assert ratings == []
    assert [(r.user_id, r.outcome, r.mu, r.sigma, r.ordinal) for r in results] == [
        (1, "win", None, None, None)
    ]


def test_a_leaver_who_holds_a_seat_at_the_end_is_rated_by_it() -> None:
    # Ann left seat 0 and was later handed seat 1, which won: one place, a win
    seats = [seat(0, 2), seat(1, 1)]
    places = entrants(game(seats, winners=[1], departures=(Departure(0, 1, "Ann", 5.0),)))
    assert [(e.user_id, e.outcome) for e in places] == [(2, "loss"), (1, "win")]


def test_outcomes_from_the_stored_result() -> None:
    assert outcome_of(0, {"winners": [0], "draw": False}) == "win"
    assert outcome_of(1, {"winners": [0, 1]}) == "shared"
    assert outcome_of(2, {"winners": [0, 1]}) == "loss"
    assert outcome_of(0, {"winners": [], "draw": True}) == "draw"
    assert outcome_of(0, None) == "loss"


def test_rating_games_one_after_another_carries_the_ratings_on() -> None:
    first = game([seat(0, 1), seat(1, 2)], winners=[0], gid=1)
    second = game([seat(0, 2), seat(1, 1), seat(2, 3)], winners=[0], gid=2)
    first.rating_seq, second.rating_seq = 1, 2
    results, table = rate_all([first, second])
    one, _ = rate_game(first, {}, 1)
    mid = {r.user_id: known(r.user_id, r.mu or 0, r.sigma or 0) for r in one}
    w = by_hand([(mid[2].mu, mid[2].sigma), (mid[1].mu, mid[1].sigma), (MU, SIGMA)], [1, 2, 2])
    assert_close((table[("european_war", 2)].mu, table[("european_war", 2)].sigma), w[0])
    assert_close((table[("european_war", 1)].mu, table[("european_war", 1)].sigma), w[1])
    assert table[("european_war", 1)].games == 2 and table[("european_war", 3)].games == 1
    assert [(r.game_id, r.seq) for r in results] == [(1, 1), (1, 1), (2, 2), (2, 2), (2, 2)]
