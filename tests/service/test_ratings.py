"""Ratings through ``service.GameService`` on a real SQLite file: games of Claim the Line
(``tests/games/claim_line.py``) played to the end — a win, a draw on a full grid, a
resignation, a seat handed over by the host, a person alone among computers, a console
game — each rated once it ends; the ratings then rebuilt from the stored games give the
same values to the last bit; deleting a server's games rebuilds them without those; a
game a crash left unrated is rated at the next start, and ratings of another model are
rebuilt there."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import GameService
from service.models import PlayerResult, Rating
from service.rating import rate_all
from service.ratings import MODEL_KEY, model_fingerprint
from service.scheduler import FakeClock
from tests.bot.helpers import make_service, new_game
from tests.games.claim_line import Allow, Claim

T0 = 1_700_000_000.0
ANN, BOB, CY, DEE = 101, 102, 103, 104
PEOPLE = (ANN, BOB, CY, DEE)


pytestmark = pytest.mark.usefixtures("claim_line")


async def play(svc: GameService, gid: int, plans: dict[int, list[str]]) -> str:
    """Play game ``gid`` to its end: each person claims the first free cell of their plan
    (else the first free one) and lets every claim stand; computers play themselves.
    Returns the game's status."""
    for _ in range(60):
        await svc.idle()
        prompts = await svc.prompts(gid)
        if not prompts:
            return (await svc.status(gid)).status
        p = prompts[0]
        assert p.user_id is not None
        if p.kind == "respond":
            action: object = Allow()
        else:
            free = [c.cell for c in p.choices if isinstance(c, Claim)]
            plan = [c for c in plans.get(p.user_id, []) if c in free]
            action = Claim((plan or free)[0])
        out = await svc.answer(gid, p.user_id, p.version, action)
        assert out.ok, out.error
    raise AssertionError(f"game {gid} did not end")


async def table(
    svc: GameService, humans: int, computers: int = 0, channel: int = 1, guild: int | None = 7
) -> int:
    """A Claim the Line table of ``humans`` people (Ann first) and ``computers``, started
    with the seats in the order people joined."""
    gid, _ = await new_game(
        svc, humans, computers, channel=channel, guild=guild, variant="claim_line", arranged=True
    )
    return gid


async def stored(svc: GameService) -> tuple[dict[int, list[PlayerResult]], dict[int, list[Rating]]]:
    """Every person's stored results and ratings."""
    results = {u: await svc.store.user_results(u) for u in PEOPLE}
    ratings = {u: await svc.store.user_ratings(u) for u in PEOPLE}
    return results, ratings


async def rebuilt_in_memory(
    svc: GameService,
) -> tuple[list[PlayerResult], dict[tuple[str, int], Rating]]:
    _, games = await svc.store.rated_games()
    return rate_all(games)


async def test_finished_games_are_rated_and_a_rebuild_gives_the_same(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    svc = await make_service(tmp_path / "games.db", clock)
    try:
        # Ann (seat 0) takes the top row; Bob plays elsewhere
        won = await table(svc, 2, channel=1)
        assert (
            await play(svc, won, {ANN: ["a1", "b1", "c1"], BOB: ["a2", "c2", "a3"]}) == "finished"
        )
        # a full grid: a draw
        clock.advance(60)
        drawn = await table(svc, 2, channel=2)
        starter = (await svc.prompts(drawn))[0].user_id
        other = BOB if starter == ANN else ANN
        plans = {starter or 0: ["b2", "c1", "a2", "b1", "c3"], other: ["a1", "a3", "c2", "b3"]}
        assert await play(svc, drawn, plans) == "finished"
        # Bob resigns after his first claim: a computer finishes his seat, he lost
        clock.advance(60)
        resigned = await table(svc, 3, channel=3)
        first = (await svc.prompts(resigned))[0]
        assert (await svc.answer(resigned, ANN, first.version, Claim("b2"))).ok
        while (ps := await svc.prompts(resigned)) and ps[0].kind == "respond":
            assert (await svc.answer(resigned, ps[0].user_id or 0, ps[0].version, Allow())).ok
        assert (await svc.resign(resigned, BOB)).ok
        assert (
            await play(svc, resigned, {ANN: ["b1", "b3", "a1", "c3"], CY: ["a3", "c1"]})
            == "finished"
        )
        # the host hands Cy's seat to Dee, who plays it to the end
        clock.advance(60)
        handed = await table(svc, 3, channel=4)
        assert (await svc.replace_seat(handed, ANN, 2, user_id=DEE, name="Dee")).ok
        assert await play(svc, handed, {DEE: ["c1", "c2", "c3"], ANN: ["a1", "b2"]}) == "finished"
        # Ann alone among computers: a result, no rating; a console game: nothing
        clock.advance(60)
        alone = await table(svc, 1, computers=1, channel=5)
        assert await play(svc, alone, {ANN: ["b2", "a1", "c3", "a3", "c1"]}) == "finished"
        console = await table(svc, 2, channel=6, guild=None)
        assert (
            await play(svc, console, {ANN: ["a1", "b1", "c1"], BOB: ["a2", "c2", "a3"]})
            == "finished"
        )
        await svc.idle()

        results, ratings = await stored(svc)
        outcomes = {u: [(r.game_id, r.outcome) for r in results[u]] for u in PEOPLE}
        assert outcomes[ANN][:2] == [(won, "win"), (drawn, "draw")]
        assert outcomes[BOB][:3] == [(won, "loss"), (drawn, "draw"), (resigned, "left")]
        assert (resigned, "left") not in outcomes[ANN] + outcomes[CY]
        assert [g for g, _ in outcomes[CY]] == [resigned, handed]
        assert outcomes[CY][1] == (handed, "left")
        assert [g for g, _ in outcomes[DEE]] == [handed]
        assert [g for g, _ in outcomes[ANN]] == [won, drawn, resigned, handed, alone]
        assert all(r.game_id != console for rs in results.values() for r in rs)
        lone = results[ANN][-1]
        assert lone.game_id == alone and lone.mu is None  # rated games need two people
        assert {r.variant for rs in ratings.values() for r in rs} == {"claim_line"}
        ann = ratings[ANN][0]
        assert (ann.games, ann.wins) == (4, 1 + sum(o == "win" for _, o in outcomes[ANN][2:4]))
        assert [r.seq for r in results[ANN]] == sorted(r.seq for r in results[ANN])

        # rebuilt from the stored games, in memory and then in the store: the same bits
        again, table_ = await rebuilt_in_memory(svc)
        assert sorted(again, key=lambda r: (r.seq, r.user_id)) == sorted(
            (r for rs in results.values() for r in rs), key=lambda r: (r.seq, r.user_id)
        )
        assert {k[1]: [v] for k, v in table_.items()} == {
            u: ratings[u] for u in PEOPLE if ratings[u]
        }
        assert await svc.rebuild_ratings() == 5
        assert await stored(svc) == (results, ratings)

        # what a front end shows of them
        board = await svc.leaderboard("claim_line", 7, user_id=DEE)
        assert board.total == 4 and board.title == "Claim the Line"
        assert [s.place for s in board.standings] == [1, 2, 3, 4]
        assert [s.rating for s in board.standings] == sorted(
            (r[0].ordinal for r in ratings.values() if r), reverse=True
        )
        assert board.mine is not None and board.mine.user_id == DEE and board.mine.name == "Dee"
        assert (await svc.leaderboard("claim_line", 8)).total == 0
        stats = await svc.player_stats(ANN)
        (kind,) = stats.kinds
        mine = [o for _, o in outcomes[ANN]]
        assert (kind.title, kind.games, kind.draws) == ("Claim the Line", 5, mine.count("draw"))
        assert (kind.wins, kind.losses, kind.left) == (mine.count("win"), mine.count("loss"), 0)
        assert kind.wins + kind.shared + kind.draws + kind.losses + kind.left == 5
        assert kind.favourite == "Cross" and kind.favourite_games == 5
        assert kind.rating == ann.ordinal and kind.place is not None and kind.players == 4
        assert [v for _, v in kind.history] == [r.ordinal for r in results[ANN] if r.mu is not None]
        assert (await svc.player_stats(999)).kinds == ()
    finally:
        await svc.close()


async def test_deleting_a_server_rebuilds_the_ratings_without_its_games(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        plans = {ANN: ["a1", "b1", "c1"], BOB: ["a2", "c2", "a3"]}
        here = await table(svc, 2, channel=1, guild=7)
        assert await play(svc, here, plans) == "finished"
        gone = await table(svc, 2, channel=2, guild=8)
        assert await play(svc, gone, plans) == "finished"
        await svc.idle()
        before = await svc.store.user_ratings(ANN)
        assert before[0].games == 2
        assert await svc.delete_guild_data(8) == 1
        after = await svc.store.user_ratings(ANN)
        assert after[0].games == 1 and after[0].ordinal < before[0].ordinal
        assert [r.game_id for r in await svc.store.user_results(ANN)] == [here]
        _, table_ = await rebuilt_in_memory(svc)
        assert table_[("claim_line", ANN)] == after[0]
    finally:
        await svc.close()


async def test_a_start_rates_what_was_left_and_rebuilds_another_model_s(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    svc = await make_service(path, FakeClock(T0))
    plans = {ANN: ["a1", "b1", "c1"], BOB: ["a2", "c2", "a3"]}
    try:
        rated = await table(svc, 2, channel=1)
        assert await play(svc, rated, plans) == "finished"
        await svc.idle()
        assert await svc.store.meta(MODEL_KEY) == model_fingerprint()
        # a crash between the last action's commit and the rating: the game waits
        svc._game_over = lambda: None  # type: ignore[method-assign]
        left = await table(svc, 2, channel=2)
        assert await play(svc, left, plans) == "finished"
        assert [g.id for g in await svc.store.unrated_games(10)] == [left]
        head, _ = await svc.store.rated_games()
    finally:
        await svc.close()

    svc = await make_service(path, FakeClock(T0 + 60))
    try:
        await svc.idle()
        assert await svc.store.unrated_games(10) == []
        now, games = await svc.store.rated_games()
        assert [g.id for g in games] == [rated, left] and now == head + 1
        assert games[1].rating_seq == now
        await svc.store.set_meta(MODEL_KEY, "an older model")
        results = await svc.store.user_results(ANN)
    finally:
        await svc.close()

    svc = await make_service(path, FakeClock(T0 + 120))
    try:
        await svc.idle()
        later, _ = await svc.store.rated_games()
        assert later == now + 1  # one step more: the rebuild
        assert await svc.store.meta(MODEL_KEY) == model_fingerprint()
        assert await svc.store.user_results(ANN) == results
    finally:
        await svc.close()


async def test_stats_give_the_hints_taken_in_every_game(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        gid = await table(svc, 2)
        assert await play(svc, gid, {ANN: ["a1", "b1", "c1"], BOB: ["a2", "c2", "a3"]})
        await svc.idle()
        assert (await svc.player_stats(ANN)).hints == 0
        assert await svc.last_played(ANN) == "claim_line" and await svc.last_played(DEE) is None
        await svc.store.count_hint(gid, ANN)
        await svc.store.count_hint(gid, ANN)
        await svc.store.count_hint(gid, BOB)
        assert (await svc.player_stats(ANN)).hints == 2
        assert (await svc.player_stats(BOB)).hints == 1
    finally:
        await svc.close()
