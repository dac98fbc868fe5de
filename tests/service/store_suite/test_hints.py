"""Hints taken, counted per person and game through the protocol: each one adds one,
the totals add up over games, they outlast a reopening and go with their game."""

from __future__ import annotations

from service.store import Store

from .conftest import Opener
from .records import SNOWFLAKE, running_game


async def test_each_hint_counts_once_per_person_and_game(store: Store) -> None:
    a = await running_game(store, channel=1)
    b = await running_game(store, channel=2)
    assert await store.hints_taken(SNOWFLAKE) == 0
    assert [await store.count_hint(a, SNOWFLAKE) for _ in range(3)] == [1, 2, 3]
    assert await store.count_hint(b, SNOWFLAKE) == 1
    assert await store.count_hint(a, 7) == 1
    assert await store.hints_taken(SNOWFLAKE, a) == 3
    assert await store.hints_taken(SNOWFLAKE, b) == 1
    assert await store.hints_taken(SNOWFLAKE) == 4
    assert await store.hints_taken(7) == 1
    assert await store.hints_taken(8, a) == 0


async def test_hints_outlast_a_reopening_and_go_with_their_game(reopen: Opener) -> None:
    store = await reopen()
    try:
        kept = await running_game(store, channel=1, guild=4)
        gone = await running_game(store, channel=2, guild=SNOWFLAKE)
        await store.count_hint(kept, 9)
        await store.count_hint(gone, 9)
    finally:
        await store.close()
    store = await reopen()
    try:
        assert await store.hints_taken(9) == 2
        assert await store.delete_guild(SNOWFLAKE) == 1
        assert await store.hints_taken(9) == 1
        assert await store.hints_taken(9, gone) == 0
    finally:
        await store.close()
