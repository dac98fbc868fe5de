"""What a store counts through :class:`service.store.StoreMetrics`: the time of each
commit of actions, and faults (a refusal is not one)."""

from __future__ import annotations

import asyncio

import pytest

from service.store import StaleVersion, Store

from .records import act, running_game, write


class Counting:
    """A :class:`~service.store.StoreMetrics` that keeps what it is told."""

    def __init__(self) -> None:
        self.writes: list[float] = []
        self.errors: list[str] = []

    def error(self, kind: str) -> None:
        self.errors.append(kind)

    def db_write(self, seconds: float) -> None:
        self.writes.append(seconds)


async def test_each_commit_of_actions_is_timed_and_a_refusal_is_no_fault(store: Store) -> None:
    gid = await running_game(store)
    store.metrics = counted = Counting()
    for _ in range(3):
        await act(store, gid)
    assert len(counted.writes) == 3 and all(s >= 0 for s in counted.writes)
    rec = await store.load_game(gid)
    assert rec is not None
    results = await asyncio.gather(
        *(write(store, gid, rec.revision, rec.version, n=i) for i in range(4)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert 4 <= len(counted.writes) <= 7  # written together or one by one: each commit once
    with pytest.raises(StaleVersion):
        await write(store, gid, rec.revision, rec.version)
    assert counted.errors == []
