"""Games built straight through the store for its suite. The store keeps a game's state,
actions and events as JSON it never reads, so these are plain dicts: the suite needs no
game's rules."""

from __future__ import annotations

from typing import Any

from service.models import DecisionRecord, GameSettings
from service.store import NewSeat, Store

SNOWFLAKE = 1_234_567_890_123_456_789
"""A Discord id past 2**60: ids are 64-bit."""


async def lobby(
    store: Store,
    channel: int = 1,
    guild: int | None = None,
    *,
    host: int = 1,
    max_games: int | None = None,
    expiry: DecisionRecord | None = None,
    now: float = 0.0,
    settings: GameSettings | None = None,
) -> int:
    """A lobby with its host seated; returns the game id."""
    return await store.create_lobby(
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        variant="european_war",
        settings=settings or GameSettings(),
        host_seat=NewSeat(host, None, "Ann", None, now),
        expiry=expiry,
        max_games=max_games,
        now=now,
    )


async def running_game(store: Store, channel: int = 1, guild: int | None = None) -> int:
    """A running two-seat game at version 0: Ann (user 1) in seat 0, a computer in seat
    1; seat 0 decides a ``turn`` due at 600."""
    gid = await lobby(store, channel, guild)
    await store.add_seat(gid, 0, NewSeat(None, "easy", "Bot", None, 1.0))
    rec = await store.load_game(gid)
    assert rec is not None
    await store.start_game(
        gid,
        rec.revision,
        creation={"seed": 3},
        start_events=[{"kind": "dealt"}],
        state={"turn": 0},
        seats=[(s.id, i, f"p{i}", s.display_name) for i, s in enumerate(rec.seats)],
        decisions=[DecisionRecord(0, "turn", 0, 600.0, 600.0, None)],
        now=2.0,
    )
    return gid


async def act(
    store: Store,
    gid: int,
    *,
    owe: bool = False,
    result: dict[str, Any] | None = None,
    source: str = "player",
    now: float = 3.0,
) -> int:
    """The deciding seat acts: action ``version + 1`` goes in, the turn passes to the
    other seat. Returns the new version."""
    rec = await store.load_game(gid)
    assert rec is not None and rec.state is not None
    seat = rec.decisions[0].seat
    nxt = rec.version + 1
    await store.record_action(
        gid,
        rec.revision,
        rec.version,
        seat=seat,
        user_id=1 if seat == 0 else None,
        source=source,
        action={"kind": "pass", "n": nxt},
        events=[{"kind": "passed", "seat": seat}],
        state={"turn": nxt},
        removed=[d.key for d in rec.decisions],
        upserted=[] if result else [DecisionRecord(1 - seat, "turn", nxt, 600.0, now + 600, None)],
        result=result,
        now=now,
        owe=owe,
    )
    return nxt


def write(
    store: Store, gid: int, revision: int, version: int, *, source: str = "player", n: int = 0
) -> Any:
    """One action's write over ``revision``/``version`` (a coroutine, not awaited: tests
    gather several)."""
    return store.record_action(
        gid,
        revision,
        version,
        seat=0,
        user_id=None,
        source=source,
        action={"kind": "pass", "n": n},
        events=[],
        state={"n": n},
        removed=[],
        upserted=[],
        result=None,
        now=9.0,
    )
