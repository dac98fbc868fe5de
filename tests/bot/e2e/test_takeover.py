"""A host killed while its game's deadlines run: two processes with its shard range
start, one takes over (the leases: it waits until the dead one's lease expires, the other
keeps waiting, healthy as a standby), every deadline that passed meanwhile fires exactly
once, and when the new host stops, the last one takes over without firing any again.
Real ``python -m bot`` processes (SIGKILL is SIGKILL) on one PostgreSQL database, through
the fake Discord."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from service.postgres_store import PostgresStore
from tests.bot.e2e.process import bot_env, start_bot, wait_connected
from tests.fake_discord import FakeDiscord
from tests.postgres import PostgresServer

LEASE = "shard 1 of 2"


def state_in(path: Path) -> str | None:
    """The state a health file says (None while there is none)."""
    try:
        return str(json.loads(path.read_text())["state"])
    except (FileNotFoundError, ValueError):
        return None


async def health_check(path: Path) -> int:
    """The exit status of ``python -m bot.health`` (the image's health check) on ``path``."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.health", str(path))
    return await proc.wait()


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 60.0) -> None:
    """Wait until the coroutine function ``check`` returns true (the database is read
    again after every short pause: the processes under test are not ours to await)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


async def test_a_killed_host_is_taken_over_once_and_its_deadlines_fire_once(
    fake_discord: FakeDiscord, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = await postgres_server.fresh_url()
    guild = fake_discord.add_guild("Shard One", shard=(1, 2))
    channel = fake_discord.add_text_channel(guild, "games")
    ann, bob = (fake_discord.add_user(n, guild=guild) for n in ("ann", "bob"))
    env = {
        **bot_env(fake_discord, tmp_path),
        "DATABASE_URL": url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": "1",
        "LEASE_SECONDS": "2",
    }
    store = await PostgresStore.open(url)  # the test's own view of the database
    procs: list[asyncio.subprocess.Process] = []
    try:
        first = await start_bot(env, tmp_path)
        procs.append(first)
        await wait_connected(fake_discord, 60, "the first host to connect and sync")
        await fake_discord.slash(ann, channel, "newgame", timeout=10)
        gid = await store.active_game_in_channel(channel.id)
        assert gid is not None
        lobby = fake_discord.messages(channel)[-1]
        await fake_discord.click(bob, lobby, f"ew:l:{gid}:join", timeout=10)
        await fake_discord.click(ann, lobby, f"ew:l:{gid}:start", timeout=10)
        running = await store.load_game(gid)
        assert running is not None and running.status == "running"
        due = [d for d in running.decisions if d.due_at is not None]
        assert len(due) == 2, running.decisions  # each player's setup, 10 minutes
        holder = await store.lease(LEASE)
        assert holder is not None and f":{first.pid}:" in holder[0]

        first.send_signal(signal.SIGKILL)
        await first.wait()
        # the deadlines pass while no process hosts the game
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(
                "UPDATE decisions SET due_at = $1 WHERE game_id = $2 AND due_at IS NOT NULL",
                time.time() - 1,
                gid,
            )
        finally:
            await conn.close()

        health_files: dict[int, Path] = {}
        for _ in range(2):
            path = tmp_path / f"health-{len(procs)}.json"
            proc = await start_bot({**env, "HEALTH_FILE": str(path)}, tmp_path)
            health_files[proc.pid] = path
            procs.append(proc)
        second, third = procs[1:]

        async def fired() -> bool:
            return sum(a.source == "timeout" for a in await store.actions(gid)) >= len(due)

        await until(fired, "the passed deadlines to fire")
        holder = await store.lease(LEASE)
        assert holder is not None
        host, waiting = (second, third) if f":{second.pid}:" in holder[0] else (third, second)
        assert f":{host.pid}:" in holder[0]
        assert waiting.returncode is None, "the other one waits, still running"
        # it says so in its health file, which passes the image's health check
        waiting_health = health_files[waiting.pid]

        async def standby() -> bool:
            return state_in(waiting_health) == "standby"

        await until(standby, "the waiting process's health file to say standby")
        assert await health_check(waiting_health) == 0
        timeouts = [a for a in await store.actions(gid) if a.source == "timeout"]
        assert sorted(a.seat for a in timeouts) == sorted(d.seat for d in due), "once each"

        host.send_signal(signal.SIGTERM)  # a clean stop gives the lease up at once
        await asyncio.wait_for(host.wait(), 30)

        async def taken_over() -> bool:
            lease = await store.lease(LEASE)
            return lease is not None and f":{waiting.pid}:" in lease[0]

        await until(taken_over, "the last process to take over")
        await fake_discord.wait_until(
            lambda: 1 in fake_discord.shards_connected(), 30, "the last host to connect"
        )

        async def connected() -> bool:
            return state_in(waiting_health) == "connected"

        await until(connected, "the last host's health file to say connected")
        status = await fake_discord.slash(ann, channel, "status", timeout=10)
        assert "no such game" not in status.content.lower(), status.content
        again = [a for a in await store.actions(gid) if a.source == "timeout"]
        assert again == timeouts, "no deadline fired twice"
        actions = await store.actions(gid)
        assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
        await store.close()
