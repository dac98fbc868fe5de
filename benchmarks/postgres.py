"""PostgreSQL for the benchmarks: a throwaway durable server started from this machine's
binaries (``--postgres``), a schema of a run's own in a given database (``--database
postgresql://…``), and the server's CPU time."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def throwaway_server() -> Iterator[tuple[str, int]]:
    """Start a PostgreSQL server (fsync on, as a deployment runs it) from this machine's
    binaries; yields its URL and its postmaster's process id, and removes it after.

    Raises:
        SystemExit: there are no PostgreSQL binaries on this machine.
    """
    from tests.postgres import PostgresServer, find_binaries

    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL binaries on this machine")
    with PostgresServer(binaries, durable=True) as server:
        postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
        yield server.url(), postmaster


async def run_schema(url: str, create: bool) -> str:
    """A schema of its own for this run in the database of ``url`` (created, or dropped
    with ``create`` False); returns the URL that uses it."""
    import asyncpg

    name = f"bench_{os.getpid()}"
    conn = await asyncpg.connect(url)
    try:
        if create:
            await conn.execute(f"CREATE SCHEMA {name}")
        else:
            await conn.execute(f"DROP SCHEMA {name} CASCADE")
    finally:
        await conn.close()
    return url + ("&" if "?" in url else "?") + f"search_path={name}"


def server_cpu(postmaster: int | None) -> float:
    """CPU seconds used so far by the PostgreSQL server whose postmaster is ``postmaster``:
    its own, its running children's (the backends) and its ended children's; 0 when not
    known."""
    if postmaster is None:
        return 0.0
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == postmaster:
            total += sum(int(x) for x in fields[11:15])
        elif int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")
