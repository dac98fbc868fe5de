"""Europe at War's battle panels through the fake Discord with the real client: the
battle's card panel offers only the decider's legal battle cards and Pass; a card not
held, a panel answered already, and a player who is not the decider are refused with a
short private reason that changes nothing; a card played shows in the battle's public
message. Then the retreat panel: only the legal spaces (another refused, as is someone
else), answered once. With Sealed battle cards, each side chooses in secret on its own
panel.

Each test plays some 15 s to reach its battle: behind the ``slow`` marker."""

from __future__ import annotations

import dataclasses

import pytest

from bot.views import codec
from rules import contract
from rules.europe_at_war.actions import Retreat
from rules.europe_at_war.data import deck
from service import Prompt
from tests.bot.e2e.clicks import Clicker, _engine
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_europe_at_war import Heuristic, _table
from tests.fake_discord import FakeMessage, FakeUser

PEOPLE = ("ann", "bob", "cy")


def _panel(clicker: Clicker, user: FakeUser, gid: int) -> FakeMessage:
    """The newest answer panel ``user`` sees: in the DMs, or an ephemeral one that a
    click in the channel left open (the DM's then says a newer panel follows)."""
    answers = (f"ew:s:{gid}:", f"ew:a:{gid}:")
    for m in sorted(clicker._private(user), key=lambda m: m.id, reverse=True):
        if any(c.get("custom_id", "").startswith(answers) for c in m.walk_components()):
            return m
    raise AssertionError(f"no answer panel shown to {user.name}")


def _offered(panel: FakeMessage) -> list[str]:
    """The answers a panel offers: its select's options, or its buttons in order."""
    return [o["value"] for c in panel.walk_components() for o in c.get("options", [])] + [
        c["custom_id"].split(":", 4)[4]
        for c in panel.walk_components()
        if c.get("custom_id", "").startswith("ew:a:")
    ]


def _buttons(panel: FakeMessage) -> list[list[str]]:
    """The panel's rows of answer buttons, as the codes they send."""
    return [
        [c["custom_id"].split(":", 4)[4] for c in row["components"]]
        for row in panel.components
        if all(c.get("custom_id", "").startswith("ew:a:") for c in row["components"])
    ]


def _select_id(panel: FakeMessage) -> str:
    return next(c["custom_id"] for c in panel.walk_components() if c.get("type") == 3)


async def _refused_button(world: World, user: FakeUser, gid: int, version: int, code: str) -> str:
    """Click a copy of an answer button sending ``code`` at ``version``: refused
    privately, nothing changed."""
    assert world.bot is not None
    now = (await world.bot.service.status(gid)).version
    cid = f"ew:a:{gid}:{version}:{code}"
    button = {"type": 2, "style": 1, "label": "?", "custom_id": cid}
    msg = world.fake._create_message(
        world.fake.dm_channel(user),
        world.fake.bot_user,
        {"content": "a panel", "components": [{"type": 1, "components": [button]}]},
        [],
    )
    res = await world.click(user, msg, cid)
    assert res.ephemeral and len(res.content) < 200, res.content
    assert (await world.bot.service.status(gid)).version == now
    return str(res.content)


def _forged(world: World, user: FakeUser, custom_id: str, value: str) -> FakeMessage:
    """A DM to ``user`` with the answer select ``custom_id`` offering ``value``: what a
    client sends from an out-of-date or tampered copy of a panel."""
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
    return world.fake._create_message(
        world.fake.dm_channel(user),
        world.fake.bot_user,
        {"content": "a panel", "components": [{"type": 1, "components": [select]}]},
        [],
    )


async def _until(world: World, gid: int, clicker: Clicker, policy: Heuristic, kind: str) -> Prompt:
    """Play by clicking until a person has a decision of ``kind`` with a real choice."""
    assert world.bot is not None
    while True:
        prompt = (await world.bot.service.prompts(gid))[0]
        if prompt.kind == kind and len(prompt.choices) > 1:
            return prompt
        assert await clicker.step(policy) and policy.steps < 600


async def _refused(world: World, user: FakeUser, cid: str, value: str, gid: int) -> str:
    """Send ``value`` on a copy of select ``cid``: refused privately, nothing changed."""
    assert world.bot is not None
    version = (await world.bot.service.status(gid)).version
    res = await world.fake.select(user, _forged(world, user, cid, value), cid, [value])
    await world.settle()
    assert res.ephemeral and len(res.content) < 200, res.content
    assert (await world.bot.service.status(gid)).version == version
    return str(res.content)


@pytest.mark.slow
async def test_battle_cards_and_retreat_by_clicking(world: World) -> None:
    gid = await _table(world, 2, {"flags": ["compact_map"], "rounds": ["8"]})
    assert world.bot is not None
    svc = world.bot.service
    game = contract.game_named("europe_at_war")
    clicker, policy = Clicker(world, channel_every=3), Heuristic()

    # the battle's card panel: the decider's own legal battle cards as buttons (five a
    # row), and Pass in a row of its own
    prompt = await _until(world, gid, clicker, policy, "cards")
    state = _engine(world, gid)
    decider = world.user_of(prompt.user_id)
    panel = _panel(clicker, decider, gid)
    assert _offered(panel) == [codec.encode(a, game) for a in prompt.choices]
    assert [a.kind for a in prompt.choices][-1] == "pass"
    assert len(prompt.choices) <= 21, "the first battle's cards fit on buttons"
    rows = _buttons(panel)
    assert rows[-1] == [codec.encode(prompt.choices[-1], game)], "Pass in a row of its own"
    assert all(len(r) <= 5 for r in rows) and len(rows) <= 5, rows
    cards = [a for a in prompt.choices if a.kind == "battle_card"]
    assert cards and all(a.card in state.hands[prompt.seat] for a in cards)

    # someone else, and a spectator, have nothing to decide in it
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    other = next(world.users[n] for n in PEOPLE if world.users[n].id != decider.id)
    res = await world.click(other, opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "nothing to decide now" in res.content, res.content
    res = await world.click("spectator", opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "not playing in this game" in res.content, res.content

    # a battle card not held is refused with the rule's reason
    stranger = next(c for c in deck() if c not in state.hands[prompt.seat])
    forged = codec.encode(dataclasses.replace(cards[0], card=stranger), game)
    refusal = await _refused_button(world, decider, gid, prompt.version, forged)
    assert "legal in this battle" in refusal, refusal

    # a card played: it leaves the hand and shows in the battle's public message
    battle_msg = (await world.bot.db.game_messages(gid)).duel_message_id
    assert battle_msg is not None, "the battle has its channel message"
    version = (await svc.status(gid)).version
    code = codec.encode(cards[0], game)
    await world.click(decider, panel, f"ew:a:{gid}:{prompt.version}:{code}")
    assert (await svc.status(gid)).version > version
    assert cards[0].card not in _engine(world, gid).hands[prompt.seat]
    shown = next(m for m in world.fake.messages(world.channel) if m.id == battle_msg)
    assert deck()[cards[0].card].name in shown.content, shown.content

    # the panel answered already is out of date: the card is not played twice
    assert "out of date" in await _refused_button(world, decider, gid, prompt.version, code)

    # the retreat: only the legal spaces, answered once
    prompt = await _until(world, gid, clicker, policy, "retreat")
    user = world.user_of(prompt.user_id)
    panel = _panel(clicker, user, gid)
    assert _offered(panel) == [codec.encode(a, game) for a in prompt.choices]
    battle = _engine(world, gid).battle
    assert battle is not None and battle.stage == "retreat"
    cid, first = _select_id(panel), codec.encode(prompt.choices[0], game)
    legal = {a.dest for a in prompt.choices}
    elsewhere = next(s for s in ("london", "madrid", "moscow", "paris") if s not in legal)
    assert await _refused(world, user, cid, codec.encode(Retreat(elsewhere), game), gid)
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    other = next(world.users[n] for n in PEOPLE if world.users[n].id != user.id)
    res = await world.click(other, opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "nothing to decide now" in res.content, res.content
    await world.fake.select(user, panel, cid, [first])
    await world.settle()
    after = _engine(world, gid)
    assert after.battle is None or after.battle.at != battle.at or after.battle.stage != "retreat"
    assert "out of date" in await _refused(world, user, cid, first, gid)


@pytest.mark.slow
async def test_sealed_battle_cards_by_clicking(world: World) -> None:
    """With Sealed battle cards on, each side of a battle chooses on a private panel of
    its own legal cards and Pass, for one length of time; a card not held is refused,
    and the other side's choice is not shown before both have chosen."""
    gid = await _table(world, 2, {"flags": ["compact_map", "sealed_battle_cards"], "rounds": ["8"]})
    assert world.bot is not None
    svc = world.bot.service
    game = contract.game_named("europe_at_war")
    clicker, policy = Clicker(world, channel_every=3), Heuristic()
    prompt = await _until(world, gid, clicker, policy, "sealed")
    state = _engine(world, gid)
    battle = state.battle
    assert battle is not None and battle.stage == "sealed"
    asked = [p for p in await svc.prompts(gid) if p.kind == "sealed"]
    assert len({p.deadline for p in asked}) == 1, "one deadline for both sides"
    user = world.user_of(prompt.user_id)
    panel = _panel(clicker, user, gid)
    assert _offered(panel) == [codec.encode(a, game) for a in prompt.choices]
    cards = [a for a in prompt.choices if getattr(a, "card", None)]
    assert cards and all(a.card in state.hands[prompt.seat] for a in cards)
    cid = _select_id(panel)
    stranger = next(c for c in deck() if c not in state.hands[prompt.seat])
    forged = codec.encode(dataclasses.replace(cards[0], card=stranger), game)
    await _refused(world, user, cid, forged, gid)
    before = len(world.fake.messages(world.channel))
    await world.fake.select(user, panel, cid, [codec.encode(cards[0], game)])
    await world.settle()
    name = deck()[cards[0].card].name
    after = _engine(world, gid).battle
    assert after is not None and after.stage == "sealed", "the other side still chooses"
    battle_msg = (await world.bot.db.game_messages(gid)).duel_message_id
    channel = world.fake.messages(world.channel)
    seen = [m.content for m in channel[before:]] + [
        m.content for m in channel if m.id == battle_msg
    ]
    assert not any(name in text for text in seen), "a sealed card is not shown before both chose"
