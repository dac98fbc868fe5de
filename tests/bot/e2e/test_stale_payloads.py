"""Payloads from a client whose command list is out of date (sent raw, past the fake's
schema checks): a command that is gone, a value of the wrong type, a choice that no longer
exists, a value out of range, an option that is gone or missing. Each gets a specific
private reason at once, changes nothing, and logs one warning line — no traceback."""

from __future__ import annotations

import logging

import pytest

from tests.bot.e2e.harness import World


def _opt(name: str, kind: int, value: object) -> dict:
    return {"name": name, "type": kind, "value": value}


STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6
CASES = [
    ("teleport", [], "out of date"),
    ("log", [_opt("n", STRING, "abc")], "`n` of /log needs a whole number from 1 to 50, not 'abc'"),
    ("log", [_opt("n", INTEGER, "abc")], "`n` of /log needs a whole number"),
    ("log", [_opt("n", INTEGER, 99)], "`n` of /log must be from 1 to 50"),
    (
        "newgame",
        [_opt("variant", STRING, "risk")],
        "`variant` of /newgame has no choice 'risk' any more; pick one of: european-war, "
        "world-war-5",
    ),
    ("newgame", [_opt("turn_timeout", INTEGER, 42)], "`turn_timeout` of /newgame has no choice 42"),
    ("newgame", [_opt("players", INTEGER, 9)], "`players` of /newgame must be from 2 to 5"),
    ("newgame", [_opt("thread", STRING, "yes")], "`thread` of /newgame needs true or false"),
    (
        "replace",
        [_opt("seat", STRING, "0"), _opt("with", STRING, "bob")],
        "`with` of /replace needs a member",
    ),
    ("arm", [_opt("card", STRING, "ace")], "out of date"),
    ("move", [_opt("from", STRING, "Spain")], "out of date"),
]


@pytest.mark.parametrize(
    ("name", "options", "reason"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
async def test_stale_payload_gets_a_specific_private_reason(
    world: World, caplog: pytest.LogCaptureFixture, name: str, options: list[dict], reason: str
) -> None:
    await world.open_table(start=False)
    gid = await world.gid()
    assert world.bot is not None
    version = (await world.bot.service.status(gid)).version
    count = len(world.fake.messages(world.channel))
    caplog.set_level(logging.INFO)
    caplog.clear()
    res = await world.fake.raw_command(world.users["ann"], world.channel, name, options)
    await world.settle()
    assert res.response_type == 4 and res.ephemeral, "answered at once, privately"
    assert reason in res.content, res.content
    assert len(res.content) < 300
    assert (await world.bot.service.status(gid)).version == version
    assert len(world.fake.messages(world.channel)) == count
    mine = [
        r
        for r in caplog.records
        if r.name.startswith(("bot", "discord"))
        and r.levelno >= logging.WARNING
        and "PyNaCl" not in r.getMessage()
        and "davey" not in r.getMessage()
    ]
    assert [r.levelno for r in mine] == [logging.WARNING], [r.getMessage() for r in mine]
    assert "out-of-date payload" in mine[0].getMessage() and mine[0].exc_info is None
    assert not any(r.exc_info for r in caplog.records)


async def test_a_current_payload_sent_raw_still_works(world: World) -> None:
    """The raw path itself is sound: a payload that fits is served normally."""
    res = await world.fake.raw_command(
        world.users["ann"], world.channel, "log", [_opt("n", INTEGER, 5)]
    )
    assert res.ephemeral and "no game" in res.content.lower()


async def test_a_button_no_handler_knows_is_still_answered(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A button of an older release (its custom id matches no handler) gets a private
    reason instead of Discord's "This interaction failed"; a current button still works."""
    gid = await world.open_table(start=False)
    assert world.bot is not None
    button = {"type": 2, "style": 1, "label": "Old", "custom_id": "ew:retired:7"}
    old = world.fake._create_message(
        world.channel,
        world.fake.bot_user,
        {"content": "an old table", "components": [{"type": 1, "components": [button]}]},
        [],
    )
    version = (await world.bot.service.status(gid)).version
    caplog.set_level(logging.INFO)
    caplog.clear()
    res = await world.click("bob", old, "ew:retired:7")
    assert res.ack_delay is not None and res.ephemeral
    assert "older version of the bot" in res.content, res.content
    assert (await world.bot.service.status(gid)).version == version
    assert not any(r.exc_info for r in caplog.records)

    lobby = world.lobby_message()  # a known button is not answered twice
    res = await world.click("bob", lobby, f"ew:l:{gid}:leave")
    assert res.errors == [] and "older version" not in (res.content or "")
