"""Writers racing each other through the protocol: one game's writes end serial, with
exactly one winner per revision; different games never spoil each other; the server cap
holds against concurrent lobbies."""

from __future__ import annotations

import asyncio

import pytest

from service.store import ChannelBusy, GuildFull, InvalidRecord, StaleVersion, Store

from .records import act, lobby, running_game, write


async def test_concurrent_actions_of_different_games_fail_alone(store: Store) -> None:
    games = [await running_game(store, channel=c) for c in (1, 2, 3, 4)]
    recs = [await store.load_game(g) for g in games]
    assert all(r is not None for r in recs)
    results = await asyncio.gather(
        *(
            write(
                store, r.id, r.revision - (i == 1), r.version, source="bogus" * (i == 2) or "player"
            )
            for i, r in enumerate(recs)
            if r is not None
        ),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StaleVersion)
    assert isinstance(results[2], InvalidRecord)  # not a source the log knows
    assert [len(await store.actions(g)) for g in games] == [1, 0, 0, 1]
    after = [await store.load_game(g) for g in games]
    assert [r.version for r in after if r is not None] == [1, 0, 0, 1]


async def test_writes_queued_together_keep_the_good_and_nothing_of_the_bad(store: Store) -> None:
    a = await running_game(store, channel=1)
    b = await running_game(store, channel=2)
    ra, rb = await store.load_game(a), await store.load_game(b)
    assert ra is not None and rb is not None
    results = await asyncio.gather(
        write(store, a, ra.revision, 0, n=1),
        write(store, b, rb.revision, 0, source="bogus"),
        write(store, a, ra.revision, 0, n=2),
        return_exceptions=True,
    )
    assert results[0] is None
    assert isinstance(results[1], InvalidRecord)
    assert isinstance(results[2], StaleVersion)
    after_a, after_b = await store.load_game(a), await store.load_game(b)
    assert after_a is not None and after_b is not None
    assert (after_a.version, after_a.revision, after_a.state) == (1, ra.revision + 1, {"n": 1})
    assert (after_b.version, after_b.revision, after_b.state) == (0, rb.revision, rb.state)
    assert [x.action for x in await store.actions(a)] == [{"kind": "pass", "n": 1}]
    assert await store.actions(b) == []
    await write(store, b, rb.revision, 0)  # the refused write spoiled nothing for later


@pytest.mark.parametrize("writers", [2, 12])
async def test_one_winner_per_revision_and_the_versions_stay_contiguous(
    store: Store, writers: int
) -> None:
    gid = await running_game(store)
    for _round in range(3):
        rec = await store.load_game(gid)
        assert rec is not None
        results = await asyncio.gather(
            *(write(store, gid, rec.revision, rec.version, n=i) for i in range(writers)),
            return_exceptions=True,
        )
        winners = [i for i, r in enumerate(results) if r is None]
        assert len(winners) == 1
        assert all(isinstance(r, StaleVersion) for r in results if r is not None)
        after = await store.load_game(gid)
        assert after is not None
        assert (after.version, after.state) == (rec.version + 1, {"n": winners[0]})
    assert [a.seq for a in await store.actions(gid)] == [1, 2, 3]


async def test_racing_lobbies_never_pass_the_server_cap(store: Store) -> None:
    results = await asyncio.gather(
        *(lobby(store, channel=c, guild=5, max_games=3) for c in range(10)),
        return_exceptions=True,
    )
    opened = [r for r in results if isinstance(r, int)]
    assert len(opened) == 3
    assert all(isinstance(r, GuildFull) for r in results if not isinstance(r, int))
    assert sorted(g.id for g in await store.load_active()) == sorted(opened)


async def test_racing_lobbies_in_one_channel_open_one(store: Store) -> None:
    results = await asyncio.gather(
        *(lobby(store, channel=4) for _ in range(5)), return_exceptions=True
    )
    opened = [r for r in results if isinstance(r, int)]
    assert len(opened) == 1
    assert all(isinstance(r, ChannelBusy) for r in results if not isinstance(r, int))
    assert await store.active_game_in_channel(4) == opened[0]


async def test_actions_of_many_games_at_once_are_all_kept(store: Store) -> None:
    games = [await running_game(store, channel=c) for c in range(1, 21)]
    for _ in range(3):
        await asyncio.gather(*(act(store, g) for g in games))
    for g in games:
        assert [a.seq for a in await store.actions(g)] == [1, 2, 3]
