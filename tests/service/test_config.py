"""The settings every front end reads: ``.env`` under the environment, and the game
database's URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.config import (
    DEFAULT_DATABASE_URL,
    ConfigError,
    database_path,
    database_url,
    environment,
    parse_env_file,
    sqlite_path,
)


@pytest.mark.parametrize("text", ["JUST_A_NAME", "=value", "1BAD=x", "BAD NAME=x"])
def test_malformed_env_lines_are_refused_with_their_number(text: str) -> None:
    with pytest.raises(ConfigError, match="line 2"):
        parse_env_file("OK=1\n" + text)


def test_sqlite_urls_and_bare_paths() -> None:
    assert sqlite_path("sqlite:///data/x.db") == Path("data/x.db")
    assert sqlite_path("sqlite:////tmp/x.db") == Path("/tmp/x.db")
    assert sqlite_path("games.db") == Path("games.db")


def test_the_environment_wins_over_the_env_file_and_blank_values_are_unset(
    tmp_path: Path,
) -> None:
    env = tmp_path / ".env"
    env.write_text("DATABASE_URL=sqlite:///from/file.db\nLOG_LEVEL=debug\nEMPTY=\n")
    assert database_path({}, env) == Path("from/file.db")
    values = environment({"LOG_LEVEL": " info ", "DATABASE_URL": "  "}, env)
    assert values == {"LOG_LEVEL": "info"}  # set blank in the environment: unset
    assert database_path({"DATABASE_URL": ""}, env) == sqlite_path(DEFAULT_DATABASE_URL)


def test_the_database_defaults_to_a_file_under_data() -> None:
    assert (
        database_path({}, None) == sqlite_path(DEFAULT_DATABASE_URL) == Path("data/european_war.db")
    )


@pytest.mark.parametrize(
    "url", ["mysql://x/y", "postgresql:///games", "sqlite:///:memory:", "sqlite:///"]
)
def test_a_database_url_this_build_cannot_keep_games_in_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        database_url({"DATABASE_URL": url})
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        database_path({"DATABASE_URL": url}, None)


@pytest.mark.parametrize("url", ["postgresql://bot:pw@db:5432/games", "postgres://db/games"])
def test_a_postgresql_url_is_a_database_but_not_a_file(url: str) -> None:
    """The bot's processes share a PostgreSQL database; a front end that keeps its games
    in a file (the console) is told to name one."""
    assert database_url({"DATABASE_URL": url}) == url
    with pytest.raises(ConfigError, match=r"PostgreSQL database.*--db"):
        database_path({"DATABASE_URL": url}, None)
