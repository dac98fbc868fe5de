"""The bot's start-up check of a PostgreSQL database: connected and migrated, or refused
in one line that names the database (never its password)."""

from __future__ import annotations

import pytest

from bot.config import load_settings
from bot.preflight import StartupError, open_checked
from service.migrations import LATEST
from service.postgres_store import PostgresStore
from tests.postgres import PostgresServer, free_port


async def test_a_postgresql_database_is_connected_and_migrated(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.fresh_url()
    store = await open_checked(load_settings({"DATABASE_URL": url}, env_file=None))
    try:
        assert isinstance(store, PostgresStore)
        assert await store.schema_version() == LATEST
    finally:
        await store.close()


async def test_an_unreachable_server_is_refused_in_one_line_without_the_password() -> None:
    url = f"postgresql://bot:hunter2@127.0.0.1:{free_port()}/games"
    with pytest.raises(StartupError, match="Cannot reach the PostgreSQL server") as caught:
        await open_checked(load_settings({"DATABASE_URL": url}, env_file=None))
    assert "hunter2" not in str(caught.value) and "bot:***@127.0.0.1" in str(caught.value)
    assert "\n" not in str(caught.value)


async def test_a_refused_user_is_said_so(postgres_server: PostgresServer) -> None:
    url = postgres_server.url().replace("://bot@", "://nobody_here@")
    with pytest.raises(StartupError, match="PostgreSQL refused"):
        await open_checked(load_settings({"DATABASE_URL": url}, env_file=None))
