"""The board posted in the channel tells the turn so far, through the real client and the
fake Discord: every board drawn after an action is handed the public events of every
action of its turn (an attack, its diplomacy window, the duel's cards and its end), read
back from the stored log; and when Discord is slow and several actions' messages are
coalesced into one, that one's board (the newest) still covers the whole turn."""

from __future__ import annotations

from typing import Any

import pytest

from bot.images import BOARD_FILE, Picture
from rules import Event
from tests.bot.e2e.clicks import Clicker
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy
from tests.bot.helpers import logged_turn

Drawn = dict[bytes, tuple[int, tuple[Event, ...]]]
"""A board's PNG -> (the game version it was drawn for, the events it was handed)."""


def record_boards(world: World, monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Every board the bot draws from now on, with what it was handed."""
    assert world.bot is not None
    images = world.bot.delivery.images
    drawn: Drawn = {}
    board = images.board

    async def recording(view: Any, names: Any, events: Any = (), **kw: Any) -> Picture:
        picture = await board(view, names, events, **kw)
        if kw.get("key") is not None and events:
            drawn[picture.data] = (kw["key"][1], tuple(events))
        return picture

    monkeypatch.setattr(images, "board", recording)
    return drawn


async def turn_at(world: World, gid: int, version: int) -> tuple[Event, ...]:
    """The public events of the turn of the game's action number ``version`` (0: what
    the start announced)."""
    assert world.bot is not None
    store = world.bot.service.store
    if version == 0:
        rec = await store.load_game(gid)
        assert rec is not None
        return tuple(Event.from_dict(e) for e in rec.start_events if e["to"] is None)
    return logged_turn([r for r in await store.actions(gid) if r.seq <= version])


def posted_boards(world: World, drawn: Drawn) -> list[tuple[int, tuple[Event, ...]]]:
    """What each board posted in the channel was drawn from, in the channel's order."""
    out = []
    for m in world.fake.messages(world.channel):
        for a in m.attachments:
            if a.filename == BOARD_FILE and a.data in drawn:
                out.append(drawn[a.data])
    return out


async def test_each_posted_board_tells_its_whole_turn(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record_boards(world, monkeypatch)
    gid = await world.open_table()
    await world.play_to_end(gid, Policy(), 60)
    posted = posted_boards(world, drawn)
    assert len(posted) >= 10
    for version, events in posted:
        assert events == await turn_at(world, gid, version), version
    # the attack is declared by one action, its duel ends several actions later
    fought = [e for _, e in posted if {"attack_declared", "duel_over"} <= {x.kind for x in e}]
    assert fought, "a board after a duel shows the attack that began it"


async def test_coalesced_messages_keep_the_whole_turn_on_their_board(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel is slow while a player takes a figure's action and then a move by
    clicking on the DM's turn panel: both actions' words come in one message whose board
    shows both."""
    drawn = record_boards(world, monkeypatch)
    gid = await world.open_table()
    assert world.bot is not None
    clicker = Clicker(world, channel_every=0)
    policy = Policy()
    service = world.bot.service
    for _ in range(60):  # up to a turn whose player may use a figure first
        prompts = await service.prompts(gid)
        assert prompts, "the game ended before a figure could be used"
        p = prompts[0]
        if p.kind == "turn" and {a.kind for a in p.choices} & {"sabotage", "spy"}:
            break
        assert await clicker.step(policy)
    figure = next(a for a in p.choices if a.kind in ("sabotage", "spy"))
    channel = world.channel.id
    box = world.bot.delivery.outbox
    before = len(world.fake.messages(world.channel))
    box.hold(channel)  # as if Discord were slow: the channel's messages wait
    user = world.user_of(p.user_id)
    await clicker.turn(user, gid, figure, in_channel=False)
    after = (await service.prompts(gid))[0]
    assert after.user_id == p.user_id and after.kind == "turn"
    quiet = next(a for a in after.choices if a.kind in ("move", "arm", "conscript", "pass"))
    await clicker.turn(user, gid, quiet, in_channel=False)
    box.release(channel)
    await world.settle()
    new = world.fake.messages(world.channel)[before:]
    assert len(new) == 1, [m.content for m in new]  # one message told both actions
    assert [a.filename for a in new[0].attachments] == [BOARD_FILE]
    version, events = posted_boards(world, drawn)[-1]
    *_, first, second = await service.store.actions(gid)
    assert (first.action["kind"], second.action["kind"]) == (figure.kind, quiet.kind)
    assert version == second.seq  # the newest board, drawn after the second action
    assert events == tuple(
        Event.from_dict(e) for r in (first, second) for e in r.events if e["to"] is None
    )
    assert events == await turn_at(world, gid, version)
