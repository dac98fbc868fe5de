"""Small pure parts of the Discord front end: the custom-id codec, the render gate,
texts, the command hash."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.images import _Gate
from bot.sync import schema_hash
from bot.texts import clip, duration_words, stamp, where_label
from bot.views import codec
from rules import contract, pyramids

BOARD = pyramids.load_board("european_war")
GAME = contract.game_named("european_war")
FIELDS = st.sampled_from(BOARD.field_order)
PANEL_ACTIONS = st.one_of(
    st.builds(pyramids.PlayCard, st.integers(0, 51)),
    st.just(pyramids.StopPlaying()),
    st.builds(pyramids.StopAttack, st.booleans()),
    st.just(pyramids.LetPass()),
    st.builds(pyramids.Retreat, FIELDS),
    st.builds(pyramids.PlacePiece, FIELDS),
    st.builds(pyramids.PlaceAll, FIELDS, FIELDS, FIELDS),
    st.just(pyramids.Arm()),
    st.just(pyramids.Pass()),
)


@given(PANEL_ACTIONS)
def test_codec_round_trips_and_fits_a_custom_id(action: pyramids.Action) -> None:
    code = codec.encode(action, GAME)
    kind, params = codec.decode(code, GAME)
    assert GAME.action_from_dict({"kind": kind, **params}) == action
    assert len(f"ew:a:{2**53}:{2**40}:{code}") <= 100


@given(st.text(max_size=12))
def test_codec_rejects_garbage_cleanly(code: str) -> None:
    with contextlib.suppress(ValueError, IndexError):
        codec.decode(code, GAME)


async def test_gate_keeps_to_its_slots_and_serves_urgent_first() -> None:
    gate = _Gate(1, 1)
    order: list[str] = []
    started, release = threading.Event(), threading.Event()
    running = 0
    most = 0

    def job(name: str) -> str:
        nonlocal running, most
        running += 1
        most = max(most, running)
        if name == "first":  # hold the only slot until both others wait for it
            started.set()
            assert release.wait(60)
        order.append(name)
        running -= 1
        return name

    first = asyncio.ensure_future(gate(True, job, "first"))
    assert await asyncio.to_thread(started.wait, 60)
    hand = asyncio.ensure_future(gate(False, job, "hand"))
    board = asyncio.ensure_future(gate(True, job, "board"))
    await asyncio.sleep(0)
    assert len(gate.waiting) == 2
    release.set()
    assert await asyncio.gather(first, hand, board) == ["first", "hand", "board"]
    assert order == ["first", "board", "hand"] and most == 1


async def test_gate_gives_a_freed_slot_to_a_job_for_that_worker_else_lends_it() -> None:
    gate = _Gate(2, 1)
    assert await gate.acquire(True, 0) == 0
    assert await gate.acquire(True, 0) == 1  # its home is busy, the other idle: lent
    a = asyncio.ensure_future(gate.acquire(True, 1))
    b = asyncio.ensure_future(gate.acquire(True, 0))
    c = asyncio.ensure_future(gate.acquire(False, 0))
    gone = asyncio.ensure_future(gate.acquire(True, 0))
    d = asyncio.ensure_future(gate.acquire(True, None))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.sleep(0)
    assert gate.pending() == [(0, 1), (0, 0), (0, None), (1, 0)] and len(gate) == 5
    gate.release(0)  # the oldest urgent job for worker 0 (or for any)
    assert await b == 0 and not a.done()
    gate.release(1)
    assert await a == 1
    gate.release(0)  # the cancelled one is passed over
    assert await d == 0 and not c.done()
    gate.release(1)  # nothing left for worker 1: the hand for worker 0 borrows it
    assert await c == 1 and gate.pending() == []
    gate.release(0)  # d and c are done
    gate.release(1)
    assert gate.free == [1, 1] and len(gate) == 0


def test_texts() -> None:
    assert stamp(1700000000.9) == "<t:1700000000:R>" and stamp(None) == ""
    assert duration_words(43200) == "12 h" and duration_words(None) == "no limit"
    assert duration_words(300) == "5 min" and duration_words(86400 * 3) == "3 d"
    long = "x" * 5000
    assert len(clip(long)) == 2000 and clip("short") == "short"
    label = where_label("Server", "games", 1, 2)
    assert label == "**Server** › #games · https://discord.com/channels/1/2"
    assert "<#2>" in where_label(None, None, 1, 2)


def test_command_hash_ignores_order() -> None:
    a: list[dict[str, Any]] = [{"name": "b", "x": 1}, {"name": "a", "y": [1, 2]}]
    assert schema_hash(a) == schema_hash(list(reversed(a)))
    assert schema_hash(a) != schema_hash([{"name": "b", "x": 2}, {"name": "a", "y": [1, 2]}])
