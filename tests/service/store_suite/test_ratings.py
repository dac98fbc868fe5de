"""What the ratings keep, through the protocol: who left a seat, the finished games waiting
to be rated (in the order they ended) and those rated (in the rating order), each step of
the ratings written over the step it was computed after, leaderboards everyone's and a
server's, and a rebuild replacing everything at once."""

from __future__ import annotations

import asyncio

import pytest

from service.models import Departure, PlayerResult, Rating
from service.store import StaleVersion, Store

from .records import SNOWFLAKE, act, running_game

WON = {"winners": [0], "draw": False}


async def finished(store: Store, channel: int, guild: int | None, ended: float) -> int:
    """A two-seat game (Ann, user 1, beside a computer) won by seat 0 at ``ended``."""
    gid = await running_game(store, channel=channel, guild=guild)
    await act(store, gid, result=WON, now=ended)
    return gid


def result(gid: int, user: int, seq: int, guild: int | None = 7, **kw: object) -> PlayerResult:
    fields: dict[str, object] = {
        "game_id": gid,
        "user_id": user,
        "variant": "european_war",
        "guild_id": guild,
        "seq": seq,
        "seat": 0,
        "power": "p0",
        "display_name": f"user {user}",
        "outcome": "win",
        "ended_at": 5.0,
        "mu": 1 / 3,
        "sigma": 2 / 3,
    }
    fields.update(kw)
    return PlayerResult(**fields)  # type: ignore[arg-type]


def rating(user: int, ordinal: float, games: int = 1, variant: str = "european_war") -> Rating:
    return Rating(variant, user, f"user {user}", ordinal + 3.0, 1.0, ordinal, games, 0, 5.0)


async def test_a_seat_handed_over_keeps_who_left_it(store: Store) -> None:
    gid = await running_game(store, channel=1, guild=7)
    rec = await store.load_game(gid)
    assert rec is not None
    await store.replace_seat(
        gid, rec.revision, 0, user_id=2, computer_level=None, display_name="Bob", now=4.5
    )
    rec = await store.load_game(gid)
    assert rec is not None
    # a computer's seat handed over leaves nothing: only people are rated
    await store.replace_seat(
        gid, rec.revision, 1, user_id=3, computer_level=None, display_name="Cy", now=4.75
    )
    await act(store, gid, result=WON, now=6.0)
    (game,) = await store.unrated_games(10)
    assert game.id == gid and game.ended_at == 6.0 and game.result == WON
    assert game.departures == [Departure(0, 1, "Ann", 4.5)]
    assert [(s.seat, s.user_id, s.display_name, s.power) for s in game.seats] == [
        (0, 2, "Bob", "p0"),
        (1, 3, "Cy", "p1"),
    ]
    assert game.rating_seq is None


async def test_waiting_games_come_in_the_order_they_ended(store: Store) -> None:
    late = await finished(store, 1, 7, ended=9.0)
    early = await finished(store, 2, SNOWFLAKE, ended=3.0)
    await finished(store, 3, None, ended=1.0)  # the console's: never rated
    running = await running_game(store, channel=4, guild=7)
    await act(store, running)
    assert [g.id for g in await store.unrated_games(10)] == [early, late]
    assert [g.id for g in await store.unrated_games(1)] == [early]
    (only,) = await store.unrated_games(1)
    assert only.guild_id == SNOWFLAKE and [s.seat for s in only.seats] == [0, 1]


async def test_each_step_is_written_over_the_step_it_follows(store: Store) -> None:
    a = await finished(store, 1, 7, ended=3.0)
    b = await finished(store, 2, 7, ended=4.0)
    head, mine = await store.ratings_of("european_war", [1, 2])
    assert (head, mine) == (0, [])
    ann = rating(1, 2.5)
    await store.record_ratings(a, 0, [result(a, 1, 1)], [ann])
    with pytest.raises(StaleVersion):  # computed over step 0: the ratings moved on
        await store.record_ratings(b, 0, [result(b, 1, 1)], [rating(1, 9.0)])
    with pytest.raises(StaleVersion):  # already rated
        await store.record_ratings(a, 1, [], [])
    assert await store.ratings_of("european_war", [1, 2, 1]) == (1, [ann])
    assert await store.ratings_of("world_war_5", [1]) == (1, [])
    assert [g.id for g in await store.unrated_games(10)] == [b]
    again = rating(1, 4.0, games=2)
    lost = result(b, 1, 2, outcome="loss", mu=None, sigma=None)
    await store.record_ratings(b, 1, [lost], [again])
    assert await store.user_ratings(1) == [again]
    kept = await store.user_results(1)
    assert [(r.game_id, r.seq, r.outcome) for r in kept] == [(a, 1, "win"), (b, 2, "loss")]
    assert kept[0] == result(a, 1, 1)  # floats kept to the last bit
    assert kept[1].mu is None and kept[1].ordinal is None
    head, games = await store.rated_games()
    assert head == 2 and [(g.id, g.rating_seq) for g in games] == [(a, 1), (b, 2)]
    assert await store.unrated_games(10) == []


async def test_two_writers_of_one_step_one_wins(store: Store) -> None:
    a = await finished(store, 1, 7, ended=3.0)
    b = await finished(store, 2, 7, ended=4.0)
    outcomes = await asyncio.gather(
        store.record_ratings(a, 0, [result(a, 1, 1)], [rating(1, 1.0)]),
        store.record_ratings(b, 0, [result(b, 1, 1)], [rating(1, 2.0)]),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleVersion"]
    head, games = await store.rated_games()
    assert head == 1 and len(games) == 1
    assert len(await store.user_results(1)) == 1


async def test_leaderboards_everyone_s_and_a_server_s(store: Store) -> None:
    here = await finished(store, 1, 7, ended=3.0)
    there = await finished(store, 2, 8, ended=4.0)
    board = [rating(1, 5.0), rating(2, 9.0), rating(3, 5.0, games=3), rating(4, 5.0)]
    other_kind = rating(2, 50.0, variant="world_war_5")
    results = [result(here, u, 1) for u in (1, 2)] + [
        result(here, 4, 1, outcome="left", mu=None, sigma=None)  # played, not rated here
    ]
    await store.record_ratings(here, 0, results, [*board, other_kind])
    await store.record_ratings(there, 1, [result(there, u, 2, guild=8) for u in (3, 4)], [])

    top, total = await store.leaderboard("european_war", None, 3)
    assert [r.user_id for r in top] == [2, 3, 1] and total == 4  # ties: more games, lower id
    assert await store.leaderboard_place("european_war", 4, None) == (4, board[3])
    assert await store.leaderboard_place("european_war", 2, None) == (1, board[1])
    assert await store.leaderboard_place("european_war", 9, None) is None

    top, total = await store.leaderboard("european_war", 7, 10)
    assert [r.user_id for r in top] == [2, 1] and total == 2
    assert await store.leaderboard_place("european_war", 1, 7) == (2, board[0])
    assert await store.leaderboard_place("european_war", 4, 7) is None  # not rated here
    top, total = await store.leaderboard("european_war", 8, 10)
    assert [r.user_id for r in top] == [3, 4] and total == 2
    assert await store.leaderboard("world_war_5", None, 10) == ([other_kind], 1)
    assert await store.leaderboard("european_war", SNOWFLAKE, 10) == ([], 0)
    assert sorted(r.variant for r in await store.user_ratings(2)) == [
        "european_war",
        "world_war_5",
    ]


async def test_a_rebuild_replaces_everything_at_once(store: Store) -> None:
    a = await finished(store, 1, 7, ended=3.0)
    b = await finished(store, 2, 7, ended=4.0)
    await store.record_ratings(a, 0, [result(a, 1, 1)], [rating(1, 1.0)])
    await store.record_ratings(b, 1, [result(b, 2, 2)], [rating(2, 1.0)])
    head, games = await store.rated_games()
    assert head == 2
    with pytest.raises(StaleVersion):
        await store.replace_ratings(1, [], [])
    await store.replace_ratings(head, [result(b, 3, 2)], [rating(3, 7.0)])
    assert await store.user_results(1) == [] and await store.user_ratings(1) == []
    assert await store.user_results(3) == [result(b, 3, 2)]
    assert await store.leaderboard("european_war", None, 10) == ([rating(3, 7.0)], 1)
    head, games = await store.rated_games()  # the games keep their places
    assert head == 3 and [(g.id, g.rating_seq) for g in games] == [(a, 1), (b, 2)]


async def test_deleting_a_server_takes_its_people_s_results_and_departures(store: Store) -> None:
    gone = await running_game(store, channel=1, guild=SNOWFLAKE)
    rec = await store.load_game(gone)
    assert rec is not None
    await store.replace_seat(
        gone, rec.revision, 0, user_id=None, computer_level="easy", display_name="Bot", now=4.0
    )
    await act(store, gone, result=WON, now=5.0)
    kept = await finished(store, 2, 7, ended=6.0)
    await store.record_ratings(gone, 0, [result(gone, 1, 1, guild=SNOWFLAKE)], [rating(1, 1.0)])
    await store.record_ratings(kept, 1, [result(kept, 1, 2)], [rating(1, 2.0, games=2)])
    assert await store.delete_guild(SNOWFLAKE) == 1
    assert [r.game_id for r in await store.user_results(1)] == [kept]
    head, games = await store.rated_games()
    assert head == 2 and [g.id for g in games] == [kept]
    # the ratings wait for a rebuild from the games that are left
    assert await store.user_ratings(1) == [rating(1, 2.0, games=2)]
