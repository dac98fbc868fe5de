"""The implementations the store suite runs against, one fixture parameter each.

Every test in this folder uses only :class:`service.store.Store` (and its exceptions and
records): adding an implementation is one more entry in :data:`BACKENDS`, a function
given the test's ``request`` that returns an opener for a fresh, empty database of that
kind. Each call of the opener opens the same database again, so a test can close and
reopen it. A backend takes what it needs through ``request.getfixturevalue`` (a server
started once per session, say) and calls ``pytest.skip`` with its reason when it cannot
run on this machine.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from service.postgres_store import PostgresStore
from service.sqlite_store import SqliteStore
from service.store import Store
from tests.postgres import PostgresServer

Opener = Callable[[], Awaitable[Store]]
"""Opens the test's database (again): a new store object on the same data."""


def sqlite_file(request: pytest.FixtureRequest) -> Opener:
    """SQLite on a real file in the test's temporary folder."""
    path: Path = request.getfixturevalue("tmp_path") / "games.db"

    async def open_it() -> Store:
        return await SqliteStore.open(path)

    return open_it


def postgres_schema(request: pytest.FixtureRequest) -> Opener:
    """PostgreSQL: a fresh schema of the run's server (``postgres_server``)."""
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url: list[str] = []

    async def open_it() -> Store:
        if not url:
            url.append(await server.fresh_url())
        return await PostgresStore.open(url[0])

    return open_it


BACKENDS: dict[str, Callable[[pytest.FixtureRequest], Opener]] = {
    "sqlite": sqlite_file,
    "postgres": postgres_schema,
}


@pytest.fixture(params=sorted(BACKENDS))
def reopen(request: pytest.FixtureRequest) -> Opener:
    """Opens this test's database of one implementation (a fresh one per test)."""
    return BACKENDS[request.param](request)


@pytest.fixture
async def store(reopen: Opener) -> AsyncIterator[Store]:
    """The test's database, open; closed after the test."""
    s = await reopen()
    yield s
    await s.close()
