"""Leases through the protocol: one holder at a time, renewed by it, taken over once it
expires, given up on release; claims racing each other give it to one."""

from __future__ import annotations

import asyncio

from service.store import Store


async def test_a_lease_has_one_holder_until_it_expires_or_is_released(store: Store) -> None:
    assert await store.lease("shard 0 of 2") is None
    assert await store.claim_lease("shard 0 of 2", "a", now=100.0, ttl=30.0)
    assert await store.lease("shard 0 of 2") == ("a", 130.0)
    assert not await store.claim_lease("shard 0 of 2", "b", now=110.0, ttl=30.0)
    assert await store.claim_lease("shard 0 of 2", "a", now=120.0, ttl=30.0)  # renewed
    assert not await store.claim_lease("shard 0 of 2", "b", now=149.5, ttl=30.0)
    assert await store.claim_lease("shard 1 of 2", "b", now=120.0, ttl=30.0)  # another name
    assert await store.claim_lease("shard 0 of 2", "b", now=150.0, ttl=30.0)  # a expired
    assert await store.lease("shard 0 of 2") == ("b", 180.0)
    assert not await store.claim_lease("shard 0 of 2", "a", now=151.0, ttl=30.0)
    await store.release_lease("shard 0 of 2", "a")  # not a's: nothing happens
    assert await store.lease("shard 0 of 2") == ("b", 180.0)
    await store.release_lease("shard 0 of 2", "b")
    assert await store.claim_lease("shard 0 of 2", "a", now=152.0, ttl=30.0)


async def test_claims_at_once_give_the_lease_to_one(store: Store) -> None:
    won = await asyncio.gather(
        *(store.claim_lease("leader", f"p{i}", now=1.0, ttl=10.0) for i in range(8))
    )
    assert sum(won) == 1
    holder = await store.lease("leader")
    assert holder is not None and holder[0] == f"p{won.index(True)}"
