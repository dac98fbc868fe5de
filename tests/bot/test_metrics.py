"""bot.metrics on its own: each bot its own registry, the disabled instance records and
imports nothing, the store's commits and faults are counted, and the endpoint stops."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.metrics import OFF, Metrics
from service.sqlite_store import SqliteStore
from tests.bot.test_disk_full import disk_full, write_until_full
from tests.bot.test_store import apply_first_legal, running_game


def value(m: Metrics, name: str, **labels: str) -> float:
    got = m.registry.get_sample_value(name, labels)
    assert got is not None, name
    return got


def test_two_bots_keep_their_own_numbers() -> None:
    a, b = Metrics(), Metrics()
    a.action("player")
    a.action("player")
    b.action("computer")
    a.error("store")
    assert value(a, "european_war_actions_total", source="player") == 2
    assert value(b, "european_war_actions_total", source="player") == 0
    assert value(b, "european_war_actions_total", source="computer") == 1
    assert value(a, "european_war_errors_total", kind="store") == 1
    assert value(b, "european_war_errors_total", kind="store") == 0


def test_disabled_metrics_record_nothing_and_import_nothing() -> None:
    OFF.action("player")
    OFF.error("store")
    OFF.interaction("ack", 0.1)
    OFF.rendered("board", 0.1, 0.1)
    OFF.db_write(0.01)
    assert OFF.registry is None
    code = (
        "import sys, service.store, bot.outbox, bot.images, bot.reply\n"
        "assert 'prometheus_client' not in sys.modules, 'imported without a port'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


async def test_the_store_times_its_commits_and_counts_a_full_disk(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "g.db")
    store.metrics = metrics = Metrics()
    try:
        gid = await running_game(store)
        await apply_first_legal(store, gid)
        assert value(metrics, "european_war_db_write_seconds_count") == 1
        assert value(metrics, "european_war_db_write_seconds_sum") > 0
        await disk_full(store)
        await write_until_full(store, gid, lambda: None)
        assert value(metrics, "european_war_errors_total", kind="store") == 1
    finally:
        await store.close()


async def test_the_endpoint_serves_its_own_registry_and_stops() -> None:
    metrics = Metrics()
    metrics.watch(
        games=lambda: 3,
        render_queue=lambda: 0,
        outbox_queue=lambda: 5,
        gateway_latency=lambda: float("inf"),
    )
    await metrics.start("127.0.0.1", 0)
    port = metrics.port
    assert port
    url = f"http://127.0.0.1:{port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as resp:
        text = await resp.text()
    assert "european_war_games_running 3.0" in text
    assert "european_war_outbox_queue 5.0" in text
    assert "european_war_gateway_latency_seconds NaN" in text
    assert "python_gc" not in text  # not the global registry
    await metrics.stop()
    await metrics.stop()  # twice is fine
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as http, http.get(url):
            pass


async def test_a_port_in_use_is_an_os_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        metrics = Metrics()
        with pytest.raises(OSError):
            await metrics.start("127.0.0.1", taken.getsockname()[1])
        assert metrics.port is None
        await metrics.stop()
