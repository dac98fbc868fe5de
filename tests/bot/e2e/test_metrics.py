"""The Prometheus endpoint (``METRICS_PORT``), scraped over HTTP during a game played
through the fake Discord: its numbers are what happened, its labels are fixed words, and
it stops listening when the bot stops."""

from __future__ import annotations

import socket
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import ERROR_KINDS, OFF, SOURCES
from tests.bot.e2e.harness import make_world
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeDiscord

STEPS = 12
LABEL_WORDS = {*SOURCES, *ERROR_KINDS, "ack", "answer", "board", "hand", "duel"}


async def scrape(port: int) -> dict[str, Any]:
    """GET /metrics and parse it: {sample name: value} for unlabelled samples and
    {sample name: {labels tuple: value}} for labelled ones."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as resp,
    ):
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("text/plain")
        text = await resp.text()
    out: dict[str, Any] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if not sample.name.startswith("european_war_"):
                continue
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
            for _, value in labels:
                assert value in LABEL_WORDS, f"unexpected label value {value!r}"
            if not sample.labels:
                out[sample.name] = sample.value
            elif "le" not in sample.labels:
                out.setdefault(sample.name, {})[labels] = sample.value
    return out


def total(samples: dict[str, Any], name: str) -> float:
    value = samples.get(name, 0.0)
    return sum(value.values()) if isinstance(value, dict) else value


async def test_a_game_is_measured_while_it_is_played(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    # port 0 takes a free one (METRICS_PORT itself must be 1..65535)
    bot = await world.start(metrics_port=0)
    port = bot.metrics.port
    assert port is not None

    before = await scrape(port)
    assert before["european_war_games_running"] == 0
    assert total(before, "european_war_actions_total") == 0

    gid = await world.open_table()
    sent = 4  # /newgame, two Join, Start
    policy = Policy()
    for _ in range(STEPS):
        assert await world.step(policy)
    sent += STEPS
    await world.settle()

    during = await scrape(port)
    records = await bot.service.store.actions(gid)
    by_source = Counter(r.source for r in records)
    assert records and by_source["player"] >= STEPS
    actions = during["european_war_actions_total"]
    for source in SOURCES:
        assert actions[(("source", source),)] == by_source.get(source, 0), source
    assert during["european_war_games_running"] == 1

    # every interaction sent was acknowledged once, and each had at most one answer
    ack = during["european_war_interaction_latency_seconds_count"][(("stage", "ack"),)]
    answered = during["european_war_interaction_latency_seconds_count"][(("stage", "answer"),)]
    assert ack == sent
    assert 1 <= answered <= sent
    assert during["european_war_interaction_latency_seconds_sum"][(("stage", "ack"),)] < 3 * sent

    rendered = during["european_war_render_seconds_count"]
    assert rendered[(("kind", "board"),)] > 0 and rendered[(("kind", "hand"),)] > 0
    assert total(during, "european_war_render_seconds_count") == bot.delivery.images.rendered
    assert total(during, "european_war_render_cpu_seconds_sum") == pytest.approx(
        bot.delivery.images.cpu_seconds
    )
    assert during["european_war_db_write_seconds_count"] >= 1
    assert during["european_war_render_queue"] == 0
    assert during["european_war_outbox_queue"] == 0
    assert "european_war_gateway_latency_seconds" in during
    assert total(during, "european_war_errors_total") == 0
    assert set(during["european_war_errors_total"]) == {(("kind", k),) for k in ERROR_KINDS}

    # the next action moves the counter by one
    assert await world.step(policy)
    after = await scrape(port)
    assert total(after, "european_war_actions_total") == len(await bot.service.store.actions(gid))
    assert total(after, "european_war_actions_total") > total(during, "european_war_actions_total")

    await world.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        await scrape(port)


async def test_an_unexpected_error_is_counted_by_kind(
    fake_discord: FakeDiscord, tmp_path: Path, bot_errors: list[Any], monkeypatch: Any
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    bot = await world.start(metrics_port=0)
    assert bot.metrics.port is not None
    await world.open_table()

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bot.service, "status", broken)
    res = await world.slash("ann", "status")
    assert res.ephemeral and "wrong" in res.content, res.content
    assert bot_errors
    bot_errors.clear()
    samples = await scrape(bot.metrics.port)
    assert samples["european_war_errors_total"][(("kind", "interaction"),)] == 1
    await world.stop()


async def test_without_a_port_nothing_listens_and_nothing_is_recorded(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    world = await make_world(fake_discord, tmp_path)
    bot = world.bot
    assert bot is not None
    assert bot.metrics is OFF and bot.metrics.registry is None and bot.metrics.port is None
    await world.open_table()
    assert bot.store is not None and bot.store.metrics is OFF
    assert bot.delivery.images.metrics is OFF and bot.delivery.outbox.metrics is OFF
    await world.stop()


async def test_a_port_in_use_is_logged_and_the_bot_plays_on(
    fake_discord: FakeDiscord, tmp_path: Path, bot_errors: list[Any]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        world = await make_world(fake_discord, tmp_path, start=False)
        bot = await world.start(metrics_port=taken.getsockname()[1])
        assert bot.metrics.port is None
        assert [r.getMessage() for r in bot_errors if "metrics: cannot listen" in r.getMessage()]
        bot_errors.clear()
        gid = await world.open_table()
        assert (await bot.service.status(gid)).status == "running"
        await world.stop()


async def test_answers_given_where_an_interaction_enters_are_counted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A command from an out-of-date list and a button of an older release are answered
    before any handler runs; their answers count in the bot's metrics like the rest."""
    world = await make_world(fake_discord, tmp_path, start=False)
    bot = await world.start(metrics_port=0)
    port = bot.metrics.port
    assert port is not None
    res = await world.fake.raw_command(world.users["ann"], world.channel, "teleport", [])
    assert res.ephemeral and "out of date" in res.content
    button = {"type": 2, "style": 1, "label": "Old", "custom_id": "ew:retired:7"}
    old = world.fake._create_message(
        world.channel,
        world.fake.bot_user,
        {"content": "an old table", "components": [{"type": 1, "components": [button]}]},
        [],
    )
    res = await world.click("bob", old, "ew:retired:7")
    assert res.ephemeral and "older version of the bot" in res.content
    await world.settle()
    answered = (await scrape(port))["european_war_interaction_latency_seconds_count"]
    assert answered[(("stage", "answer"),)] == 2
    await world.stop()
