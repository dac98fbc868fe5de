"""A player's DMs that wait (Discord holds them back) merge into one: every private line
in order, the newest hand image and question; a hand image is drawn only for a DM that
is sent, and the merged DM is kept across a restart."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import bot.reply
from bot.images import HAND_FILE, Images, Picture
from service import Outcome, PrivateNote
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_dm_backlog import _to_play, _two_player_game
from tests.fake_discord import FakeUser
from tests.fake_discord.server import Hold

PATIENCE = 60.0
"""How long an image may take here: it is always waited for (no timing)."""


class CountedHands:
    """Counts the hand images the bot asks its renderer for (and draws them for real)."""

    def __init__(self, images: Images) -> None:
        self.images = images
        self.drawn: list[tuple[int, ...]] = []
        self._hand = images.hand

    async def hand(self, holding: Any, title: str = "", *, game: str) -> Picture:
        self.drawn.append(tuple(holding))
        return await self._hand(holding, title, game=game)


def _count_hands(world: World) -> CountedHands:
    assert world.bot is not None
    counted = CountedHands(world.bot.delivery.images)
    world.bot.delivery.images.hand = counted.hand  # type: ignore[method-assign]
    return counted


def _spy_parts(world: World, user: FakeUser) -> list[dict[str, Any]]:
    """Every DM part the delivery gives the outbox for ``user`` (in order)."""
    assert world.bot is not None
    outbox = world.bot.delivery.outbox
    parts: list[dict[str, Any]] = []
    inner = outbox.dm

    async def dm(user_id: int, *args: Any, **kw: Any) -> Any:
        if user_id == user.id and kw.get("part") is not None:
            parts.append(dict(kw["part"]))
        return await inner(user_id, *args, **kw)

    outbox.dm = dm  # type: ignore[method-assign]
    return parts


async def _quiet_but_dms(world: World) -> None:
    """The bot has done everything but the DMs Discord holds."""
    bot_ = world.bot
    assert bot_ is not None
    await bot_.service.idle()
    await world.fake.wait_until(lambda: not bot_.delivery.busy, 10, "deliveries done")


async def _game(world: World) -> tuple[int, dict[int, FakeUser]]:
    """A started two-player game in which each player was sent a DM already (so the bot
    knows their DMs are open and does not wait for the actor's DM)."""
    gid, players = await _two_player_game(world)
    await _play(world, gid, players, 2)
    await world.settle()
    assert world.bot is not None
    assert set(players) <= world.bot.delivery.dms_open
    return gid, players


async def _play(world: World, gid: int, players: dict[int, FakeUser], n: int) -> None:
    """``n`` turns through slash commands (``/arm`` by one player, ``/pass`` by the other)."""
    for i in range(n):
        user = await _to_play(world, gid, players)
        command = "arm" if i % 2 == 0 else "pass"
        # the answer waits for its board (WORDS_FIRST_AFTER is raised below), which on a
        # loaded machine can take longer than the fake's usual wait for an answer
        res = await world.fake.slash(user, world.channel, command, timeout=PATIENCE)
        assert res.answer is not None and not res.answer.ephemeral, res.content
        await _quiet_but_dms(world)


async def _play_while_held(
    world: World, gid: int, players: dict[int, FakeUser], n: int, held: Hold
) -> None:
    """``n`` turns, the first DM they send held in flight before the next turn, so the
    later ones wait behind it (however long the outbox takes to send it)."""
    await _play(world, gid, players, 1)
    await world.fake.wait_until(lambda: held.waiting > 0, 60, "the first DM to be in flight")
    await _play(world, gid, players, n - 1)


@pytest.fixture(autouse=True)
def _patient_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand image always makes it (no timing: a slow machine never leaves it out)."""
    monkeypatch.setattr(bot.reply, "WORDS_FIRST_AFTER", PATIENCE)


def _dms_after(world: World, user: FakeUser, before: int) -> list[Any]:
    return world.fake.dm_messages(user)[before:]


async def test_waiting_dms_arrive_as_one_with_every_line_and_the_newest_hand(
    world: World,
) -> None:
    fake = world.fake
    gid, players = await _game(world)
    assert world.bot is not None
    delivery = world.bot.delivery
    first = await _to_play(world, gid, players)
    counted = _count_hands(world)
    parts = _spy_parts(world, first)
    before = len(fake.dm_messages(first))
    start = {u.id: len(fake.dm_messages(u)) for u in players.values()}
    held = fake.hold("POST", f"/channels/{fake.dm_channel(first).id}/messages")

    await _play_while_held(world, gid, players, 6, held)
    assert held.waiting == 1  # the first DM is in flight; the later ones wait and merge
    assert len(parts) >= 4, parts
    waiting = parts[1:]
    assert delivery.outbox.merged_dms >= len(waiting) - 1
    assert world.bot.delivery.outbox.queued >= 2

    held.release()
    await world.settle()
    got = _dms_after(world, first, before)
    assert len(got) == 2, [m.content for m in got]  # the held one, then ONE merged DM
    assert all(line in got[0].content for line in parts[0]["lines"])
    merged = got[1]
    # every private line of every merged DM, in order
    lines = [line for p in waiting for line in p["lines"]]
    assert lines, waiting
    pos = -1
    for line in lines:
        at = merged.content.find(line, pos + 1)
        assert at > pos, (line, merged.content)
        pos = at
    # the newest question, and the newest hand (its words and its image)
    newest = parts[-1]
    if newest["prompt"]:
        assert newest["prompt"] in merged.content
    for line in newest["hand_text"]:
        assert line in merged.content
    images = [a for a in merged.attachments if a.filename == HAND_FILE]
    assert len(images) == 1
    drawn = list(counted.drawn)
    expected = await counted._hand(tuple(newest["hand"]), "Your hand", game=newest["game"])
    assert images[0].data == expected.data

    # a hand image drawn only for a DM that was sent: none for the DMs merged away
    sent = [
        m
        for u in players.values()
        for m in _dms_after(world, u, start[u.id])
        if any(a.filename == HAND_FILE for a in m.attachments)
    ]
    assert len(drawn) == len(sent), (drawn, [m.content for m in sent])
    assert sum(1 for p in parts if p["draw"]) > 2  # first's hand changed more than twice…
    assert sum(1 for m in got if m.attachments) <= 2  # …and was drawn for two DMs at most


async def test_no_hand_image_is_drawn_when_the_hand_did_not_change(world: World) -> None:
    """A private line without a change of hand (a spy's look), and a hand "changed" back
    to the one the player was last sent: words only, nothing drawn."""
    fake = world.fake
    gid, players = await _game(world)
    assert world.bot is not None
    svc, delivery = world.bot.service, world.bot.delivery
    user = next(iter(players.values()))
    own = await svc.view(gid, user.id)
    assert own.seat is not None and own.view is not None
    shown = delivery.hands_shown[gid][user.id]
    assert shown == tuple(sorted(own.view.hand or ()))  # the hand in the last DM's image
    counted = _count_hands(world)
    before = len(fake.dm_messages(user))
    variant = (await svc.status(gid)).variant
    base = Outcome(
        ok=True, game_id=gid, kind="player", channel_id=world.channel.id, variant=variant
    )
    looked = PrivateNote(user.id, own.seat, ("You looked at a hand.",), False, own.view)
    same = PrivateNote(user.id, own.seat, ("You got your card back.",), True, own.view)
    for note in (looked, same):
        await delivery._private(replace(base, private={user.id: note}), {}, None, "")
        await world.settle()
    got = _dms_after(world, user, before)
    assert [m.content.splitlines()[1] for m in got] == [
        "You looked at a hand.",
        "You got your card back.",
    ]
    assert all(not m.attachments for m in got)
    assert counted.drawn == []


async def test_merged_dms_are_kept_across_a_restart(world: World) -> None:
    fake = world.fake
    gid, players = await _game(world)
    first = await _to_play(world, gid, players)
    parts = _spy_parts(world, first)
    before = len(fake.dm_messages(first))
    held = fake.hold("POST", f"/channels/{fake.dm_channel(first).id}/messages")
    await _play_while_held(world, gid, players, 4, held)
    assert held.waiting == 1
    assert world.bot is not None
    kept = [r for r in await world.bot.db.outbox_items() if r.user_id == first.id]
    assert len(kept) == 2, kept  # the one in flight and one merged DM
    assert not kept[1].files  # its hand image is not drawn until it is sent

    await world.stop()
    held.release()
    await world.start()
    await world.settle()
    assert world.bot is not None
    got = _dms_after(world, first, before)
    assert len(got) == 2, [m.content for m in got]
    merged = got[1]
    for line in (line for p in parts[1:] for line in p["lines"]):
        assert line in merged.content
    images = [a for a in merged.attachments if a.filename == HAND_FILE]
    # drawn by the restarted bot, from the hand kept in the store, when it was sent
    assert len(images) == 1 and world.bot.delivery.hands_drawn >= 1
    expected = await world.bot.delivery.images.hand(
        tuple(parts[-1]["hand"]), "Your hand", game=parts[-1]["game"]
    )
    assert images[0].data == expected.data
