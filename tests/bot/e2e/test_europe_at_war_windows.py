"""Europe at War's reaction windows through the fake Discord with the real client: each
person asked gets a private panel with only the legal cards and Pass; a card not held,
a panel of an earlier decision and a person not in the window are refused with a short
private reason that changes nothing. A window waits the same time for everyone asked,
whether they hold a playable card or not (the wait tells nothing of a hand), unless the
Fast windows option is on: then only those holding a card are asked.

The service runs on the harness's fake clock, so deadlines pass only when a test moves
it."""

from __future__ import annotations

import dataclasses
import re

from bot.views import codec
from rules import contract
from rules.europe_at_war.data import deck
from rules.europe_at_war.windows import LOST_ORDERS
from service import Prompt
from tests.bot.e2e.clicks import Clicker, _engine
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_europe_at_war import Heuristic, _table
from tests.fake_discord import FakeMessage, FakeUser

WINDOWS = ("w1", "w2")
STAMP = re.compile(r"Time runs out <t:(\d+):R>")


async def _to_first_window(world: World, flags: list[str]) -> tuple[int, list[Prompt]]:
    """A five-seat table (three people, two computers) on the compact map with
    ``flags``, played by clicking up to its first window where a person is asked."""
    gid = await _table(world, 2, {"flags": ["compact_map", *flags], "rounds": ["8"]})
    assert world.bot is not None
    svc = world.bot.service
    clicker, policy = Clicker(world, channel_every=3), Heuristic()
    while (prompts := await svc.prompts(gid))[0].kind not in WINDOWS:
        assert await clicker.step(policy) and policy.steps < 200
    return gid, prompts


def _window_panel(world: World, user: FakeUser, gid: int) -> FakeMessage:
    """The newest answer panel in ``user``'s DMs (a window's panel stays good while
    others answer: its version is the one its decision opened at)."""
    for m in reversed(world.fake.dm_messages(user)):
        if any(c.get("custom_id", "").startswith(f"ew:s:{gid}:") for c in m.walk_components()):
            return m
    raise AssertionError(f"no answer panel in {user.name}'s DMs")


def _offered(panel: FakeMessage) -> list[str]:
    return [o["value"] for c in panel.walk_components() for o in c.get("options", [])]


def _select_id(panel: FakeMessage) -> str:
    return next(c["custom_id"] for c in panel.walk_components() if c.get("type") == 3)


def _forged_select(world: World, user: FakeUser, custom_id: str, value: str) -> FakeMessage:
    """A DM to ``user`` with the answer select ``custom_id`` offering ``value``: what a
    client sends from an out-of-date copy of a panel, or a tampered one."""
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
    return world.fake._create_message(
        world.fake.dm_channel(user),
        world.fake.bot_user,
        {"content": "a panel", "components": [{"type": 1, "components": [select]}]},
        [],
    )


async def test_a_window_offers_only_legal_cards_and_waits_the_same_for_all(
    world: World,
) -> None:
    gid, prompts = await _to_first_window(world, [])
    assert world.bot is not None
    svc = world.bot.service
    game = contract.game_named("europe_at_war")
    state = _engine(world, gid)
    holders = [p for p in prompts if len(p.choices) > 1]
    empty = [p for p in prompts if len(p.choices) == 1]
    assert holders and empty, [(p.seat, len(p.choices)) for p in prompts]
    version = (await svc.status(gid)).version
    panels = {p.seat: _window_panel(world, world.user_of(p.user_id), gid) for p in prompts}

    # only the legal cards and Pass, on each asked person's private panel
    for p in prompts:
        panel = panels[p.seat]
        assert _offered(panel) == [codec.encode(a, game) for a in p.choices]
        assert [a.kind for a in p.choices][-1] == "done"
        labels = [o["label"] for c in panel.walk_components() for o in c.get("options", [])]
        assert labels[-1] == "pass", labels
        held = {deck()[c].name for c in state.hands[p.seat]}
        for label in labels[:-1]:
            assert any(n in label for n in held), label  # a card of the panel's owner

    # a card not held, sent on the holder's panel's select, is refused and changes nothing
    holder = holders[0]
    user = world.user_of(holder.user_id)
    played = next(a for a in holder.choices if a.kind != "done")
    stranger = next(c for c in deck() if c not in state.hands[holder.seat] and c != played.card)
    forged_code = codec.encode(dataclasses.replace(played, card=stranger), game)
    cid = _select_id(panels[holder.seat])
    forged = _forged_select(world, user, cid, forged_code)
    res = await world.fake.select(user, forged, cid, [forged_code])
    await world.settle()
    assert res.ephemeral and len(res.content) < 200, res.content
    assert "cannot be played in this window" in res.content, res.content
    assert (await svc.status(gid)).version == version, "the card not held changed nothing"
    window = _engine(world, gid).window
    assert window is not None and stranger not in [r.card for r in window.reactions]

    # someone not in the window, and a spectator, have nothing to decide there
    asked = {p.user_id for p in prompts}
    outside = next(world.users[n] for n in ("ann", "bob", "cy") if world.users[n].id not in asked)
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    res = await world.click(outside, opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "nothing to decide now" in res.content, res.content
    res = await world.click("spectator", opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "not playing in this game" in res.content, res.content

    # the same deadline for those holding a card and those holding none
    stamps = {p.seat: STAMP.search(panels[p.seat].content) for p in prompts}
    assert all(stamps.values()), {s: panels[s].content for s in stamps}
    assert len({m.group(1) for m in stamps.values() if m}) == 1, stamps
    due = {p.deadline for p in prompts}
    assert len(due) == 1 and None not in due, due
    seconds = state.options.window_seconds
    (deadline,) = due
    assert deadline is not None
    assert int(deadline) - int(world.clock.now()) in (seconds, seconds - 1)

    late = world.user_of(empty[0].user_id)
    late_id, late_pass = _select_id(panels[empty[0].seat]), _offered(panels[empty[0].seat])[-1]

    # nobody answers: the window stays open for all of them until that moment ...
    world.clock.advance(seconds - 1)
    await world.settle()
    assert (await svc.status(gid)).version == version, "the window still waits"
    still = await svc.prompts(gid)
    assert sorted(p.seat for p in still if p.kind == prompts[0].kind) == sorted(
        p.seat for p in prompts
    )
    # ... and closes for all of them at once
    world.clock.advance(2)
    await world.settle()
    after = await svc.prompts(gid)
    assert not any(p.kind == prompts[0].kind and p.version == prompts[0].version for p in after)
    assert (await svc.status(gid)).version > version

    # the window's old panel is out of date and changes nothing
    now = (await svc.status(gid)).version
    assert not _offered(panels[empty[0].seat]), "the timed-out panel lost its choices"
    stale = _forged_select(world, late, late_id, late_pass)
    res = await world.fake.select(late, stale, late_id, [late_pass])
    await world.settle()
    assert res.ephemeral and "out of date" in res.content, res.content
    assert (await svc.status(gid)).version == now


async def test_fast_windows_ask_only_those_holding_a_card(world: World) -> None:
    """With Fast windows on, the first window asks only the people holding a card for it;
    the others get no panel for it and go unnamed in the channel's waiting line."""
    gid, prompts = await _to_first_window(world, ["fast_windows"])
    assert all(len(p.choices) > 1 for p in prompts), [(p.seat, p.choices) for p in prompts]
    asked = {p.user_id for p in prompts}
    waiting = next(
        m.content for m in reversed(world.fake.messages(world.channel)) if "Window W" in m.content
    )
    assert world.bot is not None
    live = world.bot.service._games[gid]
    current = _engine(world, gid).current
    skipped = [
        n
        for n in ("ann", "bob", "cy")
        if world.users[n].id not in asked and live.seat_of(world.users[n].id) != current
    ]
    assert skipped, "someone holding no window card was left out"
    title = f"Window {prompts[0].kind.upper()}"
    for name in skipped:
        user = world.users[name]
        assert not any(
            title in m.content
            and any(c.get("custom_id", "").startswith(f"ew:s:{gid}:") for c in m.walk_components())
            for m in world.fake.dm_messages(user)
        ), f"{name} holds no window card and is not asked"
        assert name not in waiting.split("waiting for", 1)[-1], waiting
    for p in prompts:  # those asked have their panel
        assert any(title in m.content for m in world.fake.dm_messages(world.user_of(p.user_id)))


async def test_the_answer_round_asks_everyone_with_a_target_for_the_same_time(
    world: World,
) -> None:
    """After cards are shown in a window, everyone who could answer one with Lost Orders
    is asked on a panel of buttons, whether or not they hold Lost Orders, all with one
    deadline; Pass answers once, and the Pass button pressed again is out of date."""
    gid = await _table(world, 2, {"flags": ["compact_map"], "rounds": ["8"]})
    assert world.bot is not None
    svc = world.bot.service
    game = contract.game_named("europe_at_war")
    clicker, policy = Clicker(world, channel_every=3), Heuristic()
    while (prompts := await svc.prompts(gid))[0].kind != "answer" or _engine(
        world, gid
    ).step != "window":
        assert await clicker.step(policy) and policy.steps < 300
    state = _engine(world, gid)
    assert len(prompts) >= 2, [p.seat for p in prompts]
    assert all(LOST_ORDERS not in state.hands[p.seat] for p in prompts), "asked, holding none"
    assert len({p.deadline for p in prompts}) == 1 and prompts[0].deadline is not None
    first = prompts[0]
    user = world.user_of(first.user_id)
    code = codec.encode(first.choices[-1], game)
    assert [a.kind for a in first.choices] == ["pass"]
    panel = next(
        m
        for m in reversed(world.fake.dm_messages(user))
        if any(
            re.fullmatch(rf"ew:a:{gid}:\d+:{re.escape(code)}", b["custom_id"]) for b in m.buttons
        )
    )
    button = next(b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(f":{code}"))
    version = (await svc.status(gid)).version
    await world.click(user, panel, button)
    assert (await svc.status(gid)).version == version + 1
    assert all(p.user_id != user.id or p.kind != "answer" for p in await svc.prompts(gid))
    again = world.fake._create_message(
        world.fake.dm_channel(user),
        world.fake.bot_user,
        {
            "content": "a panel",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "x", "custom_id": button}],
                }
            ],
        },
        [],
    )
    res = await world.click(user, again, button)
    assert res.ephemeral and "out of date" in res.content, res.content
    assert (await svc.status(gid)).version == version + 1
