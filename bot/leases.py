"""Which bot process hosts which shards' games, and which one leads, when several share one
PostgreSQL database (an SQLite file is one process's alone: :mod:`bot.preflight`).

A process must hold the lease of each of its shards before it hosts their games. A
process started with the same range as one that runs waits (a standby); when the host
dies, its leases expire after ``LEASE_SECONDS`` and the standby takes over (its deadlines,
computer seats and channels). Leases are renewed every third of their length; a process
that loses one (it stalled past its lease and another took over) must stop, as two hosts
of one game must never both run. A clean stop releases them at once. One more lease, the
leader's, decides which process runs the jobs of the whole bot (command sync, purges).
Leases compare wall clocks: the machines' clocks must agree to well within a lease.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable

from service.store import Store

log = logging.getLogger("bot")
LEADER = "leader"


def holder_name() -> str:
    """Who this process is in the leases it holds: host, process id and a random tag
    (a process id may come back on another start)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Leases:
    """The leases of one bot process (see the module docstring).

    Args:
        store: the shared database.
        shards: the names of the leases of this process's shards
            (:attr:`bot.config.Settings.shard_leases`).
        seconds: how long a lease lasts unless renewed.
    """

    def __init__(self, store: Store, shards: list[str], seconds: float) -> None:
        self.store = store
        self.shards = list(shards)
        self.seconds = seconds
        self.holder = holder_name()
        self.held: set[str] = set()
        """The leases this process holds (it may have lost one since the last renewal)."""
        self.waiting = False
        """Whether this process waits for a shard another process hosts (a standby)."""

    @property
    def leads(self) -> bool:
        """Whether this process held the leader's lease at its last claim."""
        return LEADER in self.held

    async def claim(self, name: str) -> bool:
        """Take or renew the lease ``name``; True if this process holds it now."""
        mine = await self.store.claim_lease(name, self.holder, time.time(), self.seconds)
        if mine:
            self.held.add(name)
        else:
            self.held.discard(name)
        return mine

    async def hold_shards(self, waiting: Callable[[list[str]], None] | None = None) -> None:
        """Hold the leases of this process's shards, then claim the leader's. While
        another process holds one of them (a process with the same range that still runs,
        or a dead one's, until it expires), wait, holding none of them (all or none: two
        waiting processes never hold half each); ``waiting`` is told which are held
        elsewhere each time."""
        said: list[str] = []
        while True:
            got = [await self.claim(n) for n in self.shards]
            if all(got):
                self.waiting = False
                log.info("hosting %s", ", ".join(self.shards))
                await self.claim(LEADER)
                return
            self.waiting = True
            for name, mine in zip(self.shards, got, strict=True):
                if mine:
                    await self.release_one(name)
            elsewhere = [n for n, mine in zip(self.shards, got, strict=True) if not mine]
            if elsewhere != said:  # once, not at every try
                log.info("waiting: %s hosted by another process", ", ".join(elsewhere))
                said = elsewhere
            if waiting is not None:
                waiting(elsewhere)
            await asyncio.sleep(self.seconds / 3)

    async def renew(self) -> str | None:
        """Renew the shard leases and claim the leader's. Returns the name of a shard
        lease another process took over (this process must stop), else None."""
        for name in self.shards:
            if not await self.claim(name):
                return name
        await self.claim(LEADER)
        return None

    async def release_one(self, name: str) -> None:
        """Give up the lease ``name``."""
        self.held.discard(name)
        await self.store.release_lease(name, self.holder)

    async def release(self) -> None:
        """A clean stop: give up every lease this process may hold (a claim cut short by
        the stop may have been taken), so a waiting process takes over at once (one that
        cannot be released expires by itself)."""
        for name in [*self.shards, LEADER]:
            try:
                await self.release_one(name)
            except Exception:
                log.warning("could not release the lease %s; it expires by itself", name)
