"""The health file check (``python -m bot.health``) and the settings LOG_FORMAT and
HEALTH_FILE (the exit without a token is in tests/bot/e2e/test_commands.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import health
from bot.config import load_settings
from service.config import ConfigError


def test_a_fresh_connected_file_is_healthy(tmp_path: Path) -> None:
    path = tmp_path / "h" / "health.json"
    health.write(path, "connected", now=1000.0)
    assert json.loads(path.read_text())["pid"] == os.getpid()
    assert health.check(path, now=1010.0) == (True, "connected (10 s ago)")
    assert not (tmp_path / "h" / "health.json.tmp").exists()


def test_a_fresh_standby_file_is_healthy(tmp_path: Path) -> None:
    """A process waiting for its shards (another one hosts them) is as it should be."""
    path = tmp_path / "health.json"
    health.write(path, "standby", now=1000.0)
    healthy, text = health.check(path, now=1005.0)
    assert healthy and text.startswith("standby: another process hosts this one's shards")


@pytest.mark.parametrize(
    ("state", "age", "why"),
    [
        ("connected", 61.0, "stale: last written 61 s ago"),
        ("standby", 61.0, "stale: last written 61 s ago"),
        ("connecting", 1.0, "not connected to Discord: connecting"),
        ("disconnected", 1.0, "not connected to Discord: disconnected"),
    ],
)
def test_stale_or_unconnected_is_unhealthy(
    tmp_path: Path, state: str, age: float, why: str
) -> None:
    path = tmp_path / "health.json"
    health.write(path, state, now=1000.0)
    healthy, text = health.check(path, now=1000.0 + age)
    assert not healthy and text.startswith(why), text


def test_missing_or_garbled_file_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / "health.json"
    assert health.check(path) == (False, f"no health file at {path}: the bot is not running")
    path.write_text("{not json")
    healthy, text = health.check(path)
    assert not healthy and text.startswith("unreadable health file")
    health.remove(path)
    health.remove(path)  # twice is fine
    assert not path.exists()


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "HEALTH_FILE", "LOG_FORMAT", "LOG_LEVEL")
    }
    return subprocess.run(
        [sys.executable, *args],
        env={**clean, **env},
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_python_m_bot_health_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "health.json"
    done = _run(["-m", "bot.health"], {"HEALTH_FILE": str(path)}, tmp_path)
    assert done.returncode == 1 and "not running" in done.stdout
    health.write(path, "connected")
    done = _run(["-m", "bot.health"], {"HEALTH_FILE": str(path)}, tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("connected")
    done = _run(["-m", "bot.health"], {}, tmp_path)
    assert done.returncode == 1 and "HEALTH_FILE is not set" in done.stdout


def test_a_bad_log_format_is_a_configuration_error(tmp_path: Path) -> None:
    done = _run(["-m", "bot"], {"DISCORD_TOKEN": "x", "LOG_FORMAT": "xml"}, tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "Configuration error: LOG_FORMAT must be one of text, json, not 'xml'"
    )


def test_settings_read_log_format_and_health_file() -> None:
    s = load_settings({"LOG_FORMAT": "JSON", "HEALTH_FILE": "/tmp/h.json"}, env_file=None)
    assert s.log_format == "json" and s.health_file == Path("/tmp/h.json")
    s = load_settings({}, env_file=None)
    assert s.log_format == "text" and s.health_file is None
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load_settings({"LOG_FORMAT": "color"}, env_file=None)
