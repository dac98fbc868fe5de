"""A bot process's leases on a real PostgreSQL database: a process whose shards another one
hosts waits holding none of them, and takes over once they are given up; the leader is
the first to host; a shard lease taken over by another process is reported lost."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot.leases import LEADER, Leases
from service.postgres_store import PostgresStore
from tests.postgres import PostgresServer

SHARDS = ["shard 0 of 2", "shard 1 of 2"]


@pytest.fixture
async def store(postgres_server: PostgresServer) -> AsyncIterator[PostgresStore]:
    opened = await PostgresStore.open(await postgres_server.fresh_url())
    try:
        yield opened
    finally:
        await opened.close()


async def holder_of(store: PostgresStore, name: str) -> str | None:
    lease = await store.lease(name)
    return None if lease is None else lease[0]


async def test_a_standby_waits_holding_none_and_takes_over_when_released(
    store: PostgresStore,
) -> None:
    first = Leases(store, SHARDS[1:], 30.0)
    await first.hold_shards()
    assert first.leads and not first.waiting
    assert await holder_of(store, SHARDS[1]) == first.holder

    second = Leases(store, SHARDS, 3.0)  # wants shard 0 (free) and shard 1 (held)
    told: list[list[str]] = []
    waited = asyncio.Event()

    def waiting(elsewhere: list[str]) -> None:
        told.append(elsewhere)
        waited.set()

    task = asyncio.create_task(second.hold_shards(waiting))
    await asyncio.wait_for(waited.wait(), 10)
    assert second.waiting and not task.done()
    assert told[0] == [SHARDS[1]]
    # all or none: the free shard it claimed was given up again
    assert await holder_of(store, SHARDS[0]) is None
    assert await holder_of(store, SHARDS[1]) == first.holder

    await first.release()
    await asyncio.wait_for(task, 10)
    assert not second.waiting and second.leads  # the leader's lease went with the stop
    assert {await holder_of(store, n) for n in [*SHARDS, LEADER]} == {second.holder}


async def test_a_shard_taken_over_after_its_lease_ran_out_is_reported_lost(
    store: PostgresStore,
) -> None:
    mine = Leases(store, SHARDS, 30.0)
    await mine.hold_shards()
    assert await mine.renew() is None
    # another process, whose clock says this lease ran out, takes shard 1 over
    assert await store.claim_lease(SHARDS[1], "another", time.time() + 31.0, 30.0)
    assert await mine.renew() == SHARDS[1]
    await mine.release()  # gives up what is still its own, leaves the other's alone
    assert await holder_of(store, SHARDS[0]) is None
    assert await holder_of(store, SHARDS[1]) == "another"
