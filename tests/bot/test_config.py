"""The bot's settings from the environment over an optional .env file (the shared ones
are :mod:`service.config`'s, tested in ``tests/service/test_config.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import load_settings
from service.config import ConfigError


def test_defaults_point_the_database_into_data() -> None:
    s = load_settings({}, env_file=None)
    assert s.database_url == "sqlite:///data/european_war.db"
    assert s.database_path == Path("data/european_war.db")
    assert s.discord_token is None and s.dev_guild_id is None and s.log_level == "INFO"


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\n\nDISCORD_TOKEN=from-file\nexport LOG_LEVEL=debug\n"
        'DATABASE_URL="sqlite:////var/lib/ew.db"  \nDEV_GUILD_ID=42 # trailing comment\n'
        "DISCORD_API_BASE='http://127.0.0.1:9/api/v10#x'\n",
        encoding="utf-8",
    )
    s = load_settings({"DISCORD_TOKEN": "from-env"}, env_file=env)
    assert s.discord_token == "from-env"
    assert s.log_level == "DEBUG"
    assert s.database_path == Path("/var/lib/ew.db")
    assert s.dev_guild_id == 42
    assert s.discord_api_base == "http://127.0.0.1:9/api/v10#x"
    assert s.discord_gateway_url is None


@pytest.mark.parametrize(
    "env",
    [
        {"DEV_GUILD_ID": "abc"},
        {"LOG_LEVEL": "loud"},
        {"DATABASE_URL": "mysql://x/y"},
        {"DATABASE_URL": "postgresql:///games"},
        {"DATABASE_URL": "sqlite:///:memory:"},
        {"SHARD_COUNT": "0"},
        {"SHARD_COUNT": "two"},
        {"SHARD_IDS": "0-1"},
        {"SHARD_COUNT": "4", "SHARD_IDS": "2-5"},
        {"SHARD_COUNT": "4", "SHARD_IDS": "3-1"},
        {"SHARD_COUNT": "4", "SHARD_IDS": "a"},
        {"METRICS_PORT": "http"},
        {"METRICS_PORT": "0"},
        {"METRICS_PORT": "70000"},
        {"METRICS_PORT": "9100", "METRICS_HOST": "0.0.0.0:9100"},
        {"METRICS_PORT": "9100", "METRICS_HOST": "http://x"},
    ],
)
def test_bad_values_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        load_settings(env, env_file=None)


def test_metrics_are_off_unless_a_port_is_set_and_bind_the_loopback_by_default() -> None:
    s = load_settings({}, env_file=None)
    assert s.metrics_port is None
    s = load_settings({"METRICS_PORT": " 9100 "}, env_file=None)
    assert (s.metrics_port, s.metrics_host) == (9100, "127.0.0.1")
    s = load_settings({"METRICS_PORT": "9100", "METRICS_HOST": "0.0.0.0"}, env_file=None)
    assert s.metrics_host == "0.0.0.0"
    assert load_settings({"METRICS_HOST": "::"}, env_file=None).metrics_host == "::"


def test_a_postgresql_database_is_named_by_its_url_without_its_password() -> None:
    url = "postgresql://bot:s3cret@db:5432/games"
    s = load_settings({"DATABASE_URL": url}, env_file=None)
    assert s.postgres and s.database == url
    assert s.database_label == "postgresql://bot:***@db:5432/games"
    assert s.state_dir == Path("data")
    sqlite = load_settings({}, env_file=None)
    assert not sqlite.postgres and sqlite.database == Path("data/european_war.db")


def test_shards_a_process_connects_and_the_servers_whose_games_it_hosts() -> None:
    unsharded = load_settings({}, env_file=None)
    assert (unsharded.shard_count, unsharded.shard_ids) == (None, None)
    assert unsharded.hosts(1 << 22) and not unsharded.hosts(None)
    every = load_settings({"SHARD_COUNT": "3"}, env_file=None)
    assert every.shard_ids == (0, 1, 2)
    s = load_settings({"SHARD_COUNT": "8", "SHARD_IDS": " 0-1, 5 "}, env_file=None)
    assert (s.shard_count, s.shard_ids) == (8, (0, 1, 5))
    # Discord's rule: a server's events come on shard (id >> 22) % count
    assert [s.hosts(shard << 22) for shard in range(8)] == [
        True,
        True,
        False,
        False,
        False,
        True,
        False,
        False,
    ]
    assert s.hosts((9 << 22) + 12345)  # shard 1 of 8
