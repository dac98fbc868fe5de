"""Europe at War through the fake Discord with the real client, played only by clicking
after /newgame: the lobby's Options panel (the EA-36 options), nations by /join, setup
placement, the move planner, windows, battles on the turn panel and the decision panels,
casualties, recruits, upkeep and savings on the counts panel, people and computers at
one table. The channel never shows a hand; each hand goes by DM.

The default run plays the opening of a five-seat game on the compact map; whole games
(five seats to a winner in 8 rounds, and a full-length two-player game) and a restart in
the middle of a battle (about 20 s) are behind the ``slow`` marker."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from ai.europe_at_war import EaPlayer
from bot.images import BOARD_FILE
from rules import contract
from rules.europe_at_war.data import deck
from rules.europe_at_war.state import EaState
from tests.bot.e2e.clicks import Clicker, _engine
from tests.bot.e2e.harness import World


class Heuristic:
    """People's choices: the game's own computer player, deciding from the seat's view
    among what the panel offers."""

    def __init__(self) -> None:
        self.steps = 0
        self.player = EaPlayer()
        self.kinds: Counter[str] = Counter()

    def choose(self, state: EaState, seat: int, kind: str, choices: list[Any]) -> Any:
        self.kinds[kind] += 1
        return self.player.choose(state.view_for(seat), choices, "normal", 7919 * self.steps + 1)


async def _table(world: World, computers: int, options: dict[str, list[str]]) -> int:
    """/newgame variant europe_at_war by ann; bob and cy join by /join with a nation;
    ann sets the options on the Options panel, adds computers and starts."""
    res = await world.slash("ann", "newgame", variant="europe_at_war", players=5)
    assert not res.ephemeral and "Europe at War" in res.content, res.content
    gid = await world.gid()
    res = await world.slash("bob", "join", power="britain")
    assert not res.ephemeral, res.content
    lobby = world.lobby_message()
    await world.click("cy", lobby, f"ew:l:{gid}:join")
    opts = await world.click("ann", lobby, f"ew:l:{gid}:opts")
    assert opts.ephemeral
    panel = opts.answer
    flags = [o["value"] for c in panel.walk_components() for o in c.get("options", [])]
    for flag in ("compact_map", "sealed_battle_cards", "fast_windows", "leaders_in_play"):
        assert flag in flags, flags  # the EA-36 options are offered
    for name, values in options.items():
        await world.fake.select(world.users["ann"], panel, f"ew:op:{gid}:{name}", values)
    await world.settle()
    for _ in range(computers):
        await world.click("ann", lobby, f"ew:l:{gid}:bot")
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    return gid


async def _look_ups(world: World) -> None:
    """/map region:, /stack, /treasury and /card name: answer privately; /map with the
    region's image; a name that names nothing gets a short reason."""
    count = len(world.fake.messages(world.channel))
    res = await world.slash("bob", "map", region="iberia")
    assert res.ephemeral and "Iberia" in res.content, res.content
    assert res.answer is not None and [a.filename for a in res.answer.attachments] == [
        "map_iberia.png"
    ]
    res = await world.slash("cy", "stack")
    assert res.ephemeral and res.content.startswith("Your stacks:"), res.content
    res = await world.slash("cy", "stack", at="london")
    assert res.ephemeral and res.content.startswith("London (held by bob)"), res.content
    res = await world.slash("ann", "treasury")
    assert res.ephemeral and "RP" in res.content
    ann = world.users["ann"]
    res = await world.fake.slash(ann, world.channel, "card", options={"name": "bayonet"})
    await world.settle()
    assert res.ephemeral and "Bayonet Charge" in res.content
    res = await world.fake.slash(ann, world.channel, "card", options={"name": "qwerty"})
    await world.settle()
    assert res.ephemeral and "no card called" in res.content
    assert len(world.fake.messages(world.channel)) == count, "look-ups post nothing"


def _hand_names(state: EaState) -> dict[int, set[str]]:
    cards = deck()
    return {s: {cards[c].name for c in hand} for s, hand in enumerate(state.hands)}


async def test_a_five_seat_opening_by_clicking(world: World) -> None:
    gid = await _table(world, 2, {"flags": ["compact_map"], "rounds": ["8"]})
    assert world.bot is not None
    lobby_text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "Europe at War" in lobby_text
    state = _engine(world, gid)
    assert state.options.compact_map and state.options.rounds == 8
    assert "britain" in state.nations and len(state.nations) == 5
    clicker = Clicker(world, channel_every=3)
    policy = Heuristic()
    while state.round < 2 and not state.over:
        assert await clicker.step(policy)
        assert policy.steps < 600
        state = _engine(world, gid)
    await _look_ups(world)
    kinds = Counter(d.decision for d in clicker.log)
    assert kinds["setup"] >= 3 and kinds["turn"] >= 3, kinds
    assert {d.where for d in clicker.log} == {"dm", "channel"}
    for d in clicker.log:  # every click answered (acknowledged first: never expired)
        assert d.clicks >= 1 and len(d.seconds) == d.clicks
    # the channel saw boards and never a card of anyone's hand
    channel = world.fake.messages(world.channel)
    assert any(a.filename == BOARD_FILE for m in channel for a in m.attachments)
    text = "\n".join(m.content for m in channel)
    public = {deck()[c].name for c in state.discard + state.table}
    for seat, names in _hand_names(state).items():
        shown = {n for n in names - public if n in text}
        assert not shown, f"seat {seat}'s hand in the channel: {shown}"
    # each person's hand came by DM
    for user in (world.users["ann"], world.users["bob"], world.users["cy"]):
        dms = "\n".join(m.content for m in world.fake.dm_messages(user))
        assert "hand" in dms.lower(), dms[:500]


async def _two_on_compact(world: World) -> int:
    """ann and bob (Russia) at a two-seat table on the compact map, started."""
    res = await world.slash("ann", "newgame", variant="europe_at_war", players=2)
    assert not res.ephemeral, res.content
    gid = await world.gid()
    assert not (await world.slash("bob", "join", power="russia")).ephemeral
    opts = await world.click("ann", world.lobby_message(), f"ew:l:{gid}:opts")
    await world.fake.select(world.users["ann"], opts.answer, f"ew:op:{gid}:flags", ["compact_map"])
    await world.settle()
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    return gid


def _select_on(msg: Any, gid: int) -> tuple[str, list[str]]:
    """The answer select on a decision panel and its values."""
    for c in msg.walk_components():
        if c.get("custom_id", "").startswith(f"ew:s:{gid}:") and c.get("type") == 3:
            return c["custom_id"], [o["value"] for o in c["options"]]
    raise AssertionError(f"no answer select on {msg.content[:200]!r}")


async def test_a_decision_panel_answered_once_and_stale_or_wrong_clicks(world: World) -> None:
    """The setup placement on its panel: someone else's and a spectator's clicks on the
    channel's *Open my panel* get a private reason; answered in the DM, the same choice
    on the panel opened from the channel is out of date and changes nothing. Then the
    turn panel: the same for a turn, and a move order taken back with Undo."""
    gid = await _two_on_compact(world)
    assert world.bot is not None
    svc = world.bot.service
    prompt = (await svc.prompts(gid))[0]
    assert prompt.kind == "setup", prompt.kind
    user = world.user_of(prompt.user_id)
    other = next(u for u in (world.users["ann"], world.users["bob"]) if u is not user)
    assert all(p.user_id != other.id for p in await svc.prompts(gid))
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    version = (await svc.status(gid)).version
    res = await world.click(other, opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "nothing to decide now (waiting for" in res.content, res.content
    res = await world.click("spectator", opener, f"ew:p:{gid}:a")
    assert res.ephemeral and "not playing in this game" in res.content, res.content
    shown = await world.click(user, opener, f"ew:p:{gid}:a")
    assert shown.ephemeral and shown.original is not None, shown.content
    channel_panel = shown.original
    cid, values = _select_on(channel_panel, gid)
    assert (await svc.status(gid)).version == version, "nothing is done by opening"
    dm = next(m for m in reversed(world.fake.dm_messages(user)) if m.walk_components())
    dm_cid, dm_values = _select_on(dm, gid)
    assert dm_values == values, "the same choices in the DM and from the channel"
    await world.fake.select(user, dm, dm_cid, [values[0]])
    await world.settle()
    assert (await svc.status(gid)).version == version + 1
    res = await world.fake.select(user, channel_panel, cid, [values[0]])
    await world.settle()
    assert res.ephemeral and "out of date" in res.content, res.content
    assert (await svc.status(gid)).version == version + 1, "answered once"

    # on to the first turn: the turn panel opened from the channel goes stale once the
    # turn's first order is given on the DM's panel
    clicker, policy = Clicker(world, channel_every=0), Heuristic()
    panels = contract.game_named("europe_at_war").presentation.panel_decisions()
    while (prompt := (await svc.prompts(gid))[0]).kind in panels:
        assert await clicker.step(policy) and policy.steps < 100
    mover = world.user_of(prompt.user_id)
    waiting = next(u for u in (world.users["ann"], world.users["bob"]) if u is not mover)
    turn_msg = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:t")
    )
    res = await world.click(waiting, turn_msg, f"ew:p:{gid}:t")
    assert res.ephemeral and "nothing to decide now" in res.content, res.content
    shown = await world.click(mover, turn_msg, f"ew:p:{gid}:t")
    assert shown.ephemeral and shown.original is not None
    stale = shown.original
    first = next(b["custom_id"] for b in stale.buttons)
    version = (await svc.status(gid)).version
    assert await clicker.step(policy)
    assert (await svc.status(gid)).version == version + 1
    res = await world.click(mover, stale, first)
    assert res.ephemeral and "out of date" in res.content, res.content
    assert (await svc.status(gid)).version == version + 1, "nothing done by the stale panel"

    # the move planner on the turn panel: an order, then Undo takes it back
    while (prompt := (await svc.prompts(gid))[0]).kind != "plan" or _engine(world, gid).plan:
        assert await clicker.step(policy) and policy.steps < 300
    mover = world.user_of(prompt.user_id)
    order = next(a for a in prompt.choices if a.kind == "move")
    await clicker.turn(mover, gid, order, in_channel=False)
    assert [o.kind for o in _engine(world, gid).plan] == ["move"]
    undo = next(a for a in (await svc.prompts(gid))[0].choices if a.kind == "undo")
    await clicker.turn(mover, gid, undo, in_channel=True)
    assert _engine(world, gid).plan == [], "Undo took the order back"


@pytest.mark.slow
async def test_a_restart_mid_battle(world: World) -> None:
    """The bot stops while a battle's cards are being played and starts again on the same
    database: the battle is where it was, the decider's panel comes back, the exchange
    goes on in the battle's one channel message (edited, nothing posted), then the result
    is posted."""
    gid = await _two_on_compact(world)
    assert world.bot is not None
    clicker = Clicker(world, channel_every=0)
    policy = Heuristic()
    for _ in range(2000):
        prompts = await world.bot.service.prompts(gid)
        b = _engine(world, gid).battle
        if prompts and b is not None and b.plays and b.stage == "cards":
            break
        assert await clicker.step(policy)
    else:
        raise AssertionError("no battle with a card played")
    before = _engine(world, gid).to_dict()
    assert b is not None
    at, plays = b.at, len(b.plays)
    contest = (await world.bot.db.game_messages(gid)).duel_message_id
    assert contest is not None, "the battle has its channel message"
    user = world.user_of(prompts[0].user_id)
    dms = len(world.fake.dm_messages(user))

    await world.stop()
    await world.start()
    await world.fake.wait_until(
        lambda: len(world.fake.dm_messages(user)) > dms, what="the battle panel sent again"
    )
    await world.settle()
    assert _engine(world, gid).to_dict() == before, "the game is where it was"
    again = world.fake.dm_messages(user)[-1]
    assert again.components, "the open panel comes back"
    posted = {m.id for m in world.fake.messages(world.channel)}
    edits = f"/channels/{world.channel.id}/messages/{contest}"
    edited = len(world.fake.requests_to("PATCH", edits))
    within = 0  # steps after the restart that keep the exchange going
    while True:
        assert await clicker.step(policy)
        await world.settle()
        b = _engine(world, gid).battle
        if b is None or b.at != at or b.stage != "cards":
            break
        within += 1
        assert len(world.fake.requests_to("PATCH", edits)) >= edited + within
        assert {m.id for m in world.fake.messages(world.channel)} == posted, "edited, not posted"
    assert b is None or b.at != at or len(b.plays) >= plays
    assert within >= 1, "the exchange went on after the restart"
    new = [m for m in world.fake.messages(world.channel) if m.id not in posted]
    assert any("wins the battle" in m.content for m in new), [m.content for m in new]
    assert (await world.bot.db.game_messages(gid)).duel_message_id is None, "the battle is over"


@pytest.mark.slow
async def test_three_people_and_two_computers_play_to_a_winner(world: World) -> None:
    gid = await _table(world, 2, {"flags": ["compact_map"], "rounds": ["8"]})
    assert world.bot is not None
    clicker = Clicker(world, channel_every=3)
    await clicker.play_to_end(gid, Heuristic(), 20_000)
    st = await world.bot.service.status(gid)
    assert st.status == "finished", st.lines
    text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "Game over:" in text and ("wins" in text or "share the win" in text)
    assert "Round 9" not in text
    last = world.fake.messages(world.channel)[-1]
    assert last.component(f"ew:r:{gid}") is not None, last.content


@pytest.mark.slow
async def test_a_full_length_two_player_game(world: World) -> None:
    """Two people on the default map with the default options (12 rounds), only
    clicking, to the end."""
    res = await world.slash("ann", "newgame", variant="europe_at_war", players=2)
    assert not res.ephemeral, res.content
    gid = await world.gid()
    res = await world.slash("bob", "join", power="russia")
    assert not res.ephemeral, res.content
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    state = _engine(world, gid)
    assert len(state.nations) == 2 and "russia" in state.nations
    assert not state.options.compact_map and state.options.rounds == 12
    clicker = Clicker(world, channel_every=5)
    await clicker.play_to_end(gid, Heuristic(), 40_000)
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    assert st.status == "finished", st.lines
    text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "Game over:" in text
    assert st.view is not None and st.view.over and st.view.round == 12, st.view
