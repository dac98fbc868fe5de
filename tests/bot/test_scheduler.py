"""Timers on the fake clock: they fire when time is advanced past them, never before."""

from __future__ import annotations

import asyncio

import pytest

from service.scheduler import FakeClock, RealClock, Scheduler


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_timers_fire_in_order_only_when_time_reaches_them() -> None:
    clock = FakeClock(1000.0)
    sched = Scheduler(clock)
    fired: list[str] = []

    def cb(name: str):
        async def run() -> None:
            fired.append(name)

        return run

    sched.schedule((1, "b"), 1020.0, cb("b"))
    sched.schedule((1, "a"), 1010.0, cb("a"))
    sched.schedule((2, "c"), 1030.0, cb("c"))
    await settle()
    assert fired == [] and not sched.busy()
    clock.advance(15)
    assert sched.busy(1) and not sched.busy(2)
    await settle()
    assert fired == ["a"]
    clock.advance(100)
    await settle()
    assert fired == ["a", "b", "c"] and not sched.busy()
    await sched.close()


async def test_rescheduling_replaces_and_cancel_drops() -> None:
    clock = FakeClock(0.0)
    sched = Scheduler(clock)
    fired: list[float] = []

    async def note() -> None:
        fired.append(clock.now())

    sched.schedule((1, "x"), 10.0, note)
    sched.schedule((1, "x"), 20.0, note)
    sched.schedule((1, "y"), 5.0, note)
    sched.cancel((1, "y"))
    clock.advance(12)
    await settle()
    assert fired == []
    clock.advance(10)
    await settle()
    assert fired == [22.0]
    assert sched.keys(1) == []
    await sched.close()


async def test_a_failing_callback_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(0.0)
    sched = Scheduler(clock)

    async def boom() -> None:
        raise RuntimeError("boom")

    sched.schedule((1, "z"), 0.0, boom)
    await settle()
    assert "timer (1, 'z') failed" in caplog.text
    assert not sched.busy()
    await sched.close()


async def test_the_fake_clock_never_runs_backwards() -> None:
    clock = FakeClock(5.0)
    with pytest.raises(ValueError):
        clock.advance(-1)
    with pytest.raises(ValueError):
        clock.set(4.0)


async def test_the_real_clock_sleeps_until_an_instant() -> None:
    clock = RealClock()
    start = clock.now()
    await clock.sleep_until(start + 0.02)
    assert clock.now() >= start + 0.02


async def test_a_thousand_waiting_timers_need_no_task_each() -> None:
    clock = FakeClock(0.0)
    sched = Scheduler(clock)
    fired: list[int] = []

    def cb(i: int):
        async def run() -> None:
            fired.append(i)

        return run

    before = len(asyncio.all_tasks())
    for i in range(1000):
        sched.schedule((i, "due"), 100.0 + (i * 7919) % 1000, cb(i))
    for i in range(0, 1000, 2):  # re-arm half of them later, cancel a few
        sched.schedule((i, "due"), 5000.0 + i, cb(i))
    for i in range(1, 100, 2):
        sched.cancel((i, "due"))
    await settle()
    assert len(asyncio.all_tasks()) - before <= 3
    clock.advance(1200)
    await settle()
    odd = sorted(range(101, 1000, 2), key=lambda i: (100 + (i * 7919) % 1000, i))
    assert fired == odd  # in deadline order, cancelled and re-armed ones not yet
    clock.advance(10_000)
    await settle()
    assert sorted(fired) == sorted(odd + list(range(0, 1000, 2)))
    assert not sched.busy()
    await sched.close()
