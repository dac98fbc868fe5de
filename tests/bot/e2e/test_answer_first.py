"""Answer first, always: with the renderer saturated (every drawing held back until the
test lets it go), every kind of interaction — each slash command of the tree, the lobby
buttons, the table options selects, private panel buttons and selects, *Open my panel*,
Confirm and Keep — is acknowledged within Discord's deadline and answered with words; the
images arrive afterwards, by edits of those same messages."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import bot.reply
import rules
from bot.cogs.replays import replay_file
from bot.images import BOARD_FILE, HAND_FILE, Images, Picture
from bot.views import codec
from render.chart import Series
from render.replay import Animation, Frame
from rules import contract, pyramids
from tests.bot.e2e.harness import World, make_world
from tests.bot.e2e.policy import Policy
from tests.bot.e2e.test_crash_announcements import place
from tests.fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionResult


class HeldImages:
    """The renderer's public methods (board, hand, duel, chart, replay, warm_up; close; board_text,
    draws and holding pass straight through), each drawing
    held at a gate the test controls before it draws for real: a saturated renderer, made
    on purpose."""

    def __init__(self, inner: Images) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.held = 0
        """Drawings waiting at the gate right now."""
        self.asked = 0

    async def _wait(self) -> None:
        self.asked += 1
        self.held += 1
        try:
            await self.gate.wait()
        finally:
            self.held -= 1

    async def board(
        self,
        view: pyramids.View,
        names: Sequence[str],
        events: Sequence[rules.Event] = (),
        *,
        game: str,
        key: tuple[int, int] | None = None,
    ) -> Picture:
        await self._wait()
        return await self.inner.board(view, names, events, game=game, key=key)

    def board_text(self, view: pyramids.View, names: Sequence[str], *, game: str) -> str:
        return self.inner.board_text(view, names, game=game)

    def draws(self, game: str) -> bool:
        return self.inner.draws(game)

    def holding(self, view: Any, game: str) -> Any:
        return self.inner.holding(view, game)

    async def hand(self, cards: Sequence[int], title: str = "", *, game: str) -> Picture:
        await self._wait()
        return await self.inner.hand(cards, title, game=game)

    def channel_files(self, game: str) -> frozenset[str]:
        return self.inner.channel_files(game)

    async def contest(
        self,
        view: pyramids.View,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
        *,
        game: str,
    ) -> Picture | None:
        await self._wait()
        return await self.inner.contest(view, names, result, events, game=game)

    async def extra(
        self,
        name: str,
        view: Any,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
        *,
        game: str,
    ) -> Picture:
        await self._wait()
        return await self.inner.extra(name, view, names, result, events, game=game)

    async def chart(self, name: str, series: Sequence[Series]) -> Picture:
        await self._wait()
        return await self.inner.chart(name, series)

    async def replay(
        self, frames: Sequence[Frame], names: Sequence[str], *, game: str, limit: int
    ) -> Animation:
        await self._wait()
        return await self.inner.replay(frames, names, game=game, limit=limit)

    async def warm_up(self) -> None:
        await self._wait()
        await self.inner.warm_up()

    async def close(self) -> None:
        await self.inner.close()


class Recorder:
    """Sends interactions through the world and checks each was answered in time."""

    def __init__(self, world: World, held: HeldImages) -> None:
        self.world, self.held = world, held
        self.fake: FakeDiscord = world.fake
        self.results: list[tuple[str, InteractionResult]] = []

    def check(self, what: str, res: InteractionResult) -> InteractionResult:
        assert res.responded and not res.expired, (what, res.errors)
        assert res.ack_delay is not None and res.ack_delay < self.fake.interaction_deadline
        assert res.answered_at is not None, f"{what}: acknowledged but never answered"
        assert res.answer is not None and (res.content or res.answer.components), what
        assert self.held.held > 0 or self.held.asked == 0, "the renderer is held"
        self.results.append((what, res))
        return res

    async def slash(self, user: FakeUser | str, name: str, **options: Any) -> InteractionResult:
        return self.check(f"/{name}", await self.world.slash(user, name, **options))

    async def click(self, user: FakeUser | str, msg: FakeMessage, cid: str) -> InteractionResult:
        return self.check(f"click {cid}", await self.world.click(user, msg, cid))

    async def select(
        self, user: FakeUser, msg: FakeMessage, cid: str, values: list[str]
    ) -> InteractionResult:
        res = await self.fake.select(user, msg, cid, values)
        await self.world.settle()
        return self.check(f"select {cid}", res)


def _has(msg: FakeMessage | None, filename: str) -> bool:
    return msg is not None and any(a.filename == filename for a in msg.attachments)


@pytest.fixture
async def held_world(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Any:
    monkeypatch.setattr(bot.reply, "WORDS_FIRST_AFTER", 0.05)
    world = await make_world(fake_discord, tmp_path, dms_closed=("cy",))
    assert world.bot is not None
    held = HeldImages(world.bot.delivery.images)
    world.bot.delivery.images = held  # type: ignore[assignment]  # a stand-in for Images
    world.words_only = True
    try:
        yield world, held
    finally:
        held.gate.set()
        await world.stop()


def _sure(message: FakeMessage | None) -> FakeMessage:
    """The message an answer must have."""
    assert message is not None, "the interaction has no message"
    return message


async def test_every_interaction_is_answered_while_the_renderer_is_held(held_world: Any) -> None:
    world, held = held_world
    rec = Recorder(world, held)
    fake, svc = world.fake, world.bot.service
    ann, bob, cy, dee = (world.users[n] for n in ("ann", "bob", "cy", "dee"))
    owner = fake.users[world.guild.owner_id]
    late: list[tuple[str, FakeMessage, str]] = []  # (what, message, image it must get)

    # ---- information, before there is a game
    for name, options in (
        ("about", {}),
        ("help", {}),
        ("rules", {"topic": "EW-5"}),
        ("status", {}),
        ("board", {}),
        ("hand", {}),
        ("log", {}),
        ("leaderboard", {}),
        ("stats", {}),
    ):
        res = await rec.slash(ann, name, **options)
        assert res.ephemeral, name
    await rec.slash(ann, "pings", setting="off")
    await rec.slash(ann, "pings", setting="on")
    assert "Server defaults" in (await rec.slash(owner, "settings")).content

    # ---- the lobby: slash commands and buttons
    res = await rec.slash(ann, "newgame", players=4)
    assert not res.ephemeral and _sure(res.original).buttons
    gid = await world.gid()
    lobby = world.lobby_message()
    assert "bob joined" in (await rec.slash(bob, "join")).content
    assert "bob left" in (await rec.slash(bob, "leave")).content
    res = await rec.slash(bob, "addbot")
    assert res.ephemeral and "host" in res.content.lower()
    await rec.click(bob, lobby, f"ew:l:{gid}:join")
    await rec.click(cy, lobby, f"ew:l:{gid}:join")
    await rec.click(dee, lobby, f"ew:l:{gid}:join")
    await rec.click(dee, lobby, f"ew:l:{gid}:leave")
    res = await rec.click(world.users["spectator"], lobby, f"ew:l:{gid}:start")
    assert res.ephemeral and "only the host" in res.content.lower()
    opts = await rec.click(ann, lobby, f"ew:l:{gid}:opts")
    assert opts.ephemeral and opts.answer is not None
    panel = opts.answer
    await rec.select(ann, panel, f"ew:op:{gid}:timeout", ["3600"])
    await rec.select(ann, panel, f"ew:op:{gid}:setup", ["together"])
    assert "Turn timeout now: 1 h." in fake.message(panel.id).content
    res = await rec.slash(ann, "addbot", level="easy")
    assert "Computer" in res.content
    await rec.click(ann, lobby, f"ew:l:{gid}:bot")  # full now: refused, privately
    res = await rec.slash(bob, "start")
    assert res.ephemeral and "host" in res.content.lower()
    res = await rec.click(ann, lobby, f"ew:l:{gid}:start")
    start_msg = next(m for m in reversed(fake.messages(world.channel)) if "Seat order" in m.content)
    assert not _has(start_msg, BOARD_FILE), "the words went first"
    late.append(("the start message", start_msg, BOARD_FILE))

    # ---- information during the game: words now, pictures later
    res = await rec.slash(bob, "board")
    assert res.ephemeral and not _has(res.answer, BOARD_FILE)
    late.append(("/board", _sure(res.answer), BOARD_FILE))
    res = await rec.slash(bob, "hand")
    assert res.ephemeral and "hand" in res.content.lower() and not _has(res.answer, HAND_FILE)
    late.append(("/hand", _sure(res.answer), HAND_FILE))
    await rec.slash(bob, "status")

    # ---- setup: a DM panel answered with a select, one with a button, one opened from
    # the channel (cy's DMs are closed)
    board = pyramids.load_board("european_war")
    prompts = {p.user_id: p for p in await svc.prompts(gid)}
    dm_panel = next(m for m in reversed(fake.dm_messages(ann)) if m.buttons)
    codes = [b["custom_id"].rsplit(":", 1)[1] for b in dm_panel.buttons]
    version = prompts[ann.id].version
    stored = fake.message(dm_panel.id)  # the same panel shown as a select (a big hand)
    stored.components = [
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": f"ew:s:{gid}:{version}:0",
                    "min_values": 1,
                    "max_values": 1,
                    "options": [{"label": c, "value": c} for c in codes],
                }
            ],
        }
    ]
    res = await rec.select(ann, stored, f"ew:s:{gid}:{version}:0", [codes[0]])
    assert not res.ephemeral and "✔" in res.content
    bob_panel = next(m for m in reversed(fake.dm_messages(bob)) if m.buttons)
    res = await rec.click(bob, bob_panel, bob_panel.buttons[0]["custom_id"])
    assert "✔" in res.content
    opener = next(
        m
        for m in reversed(fake.messages(world.channel))
        if m.component(f"ew:o:{gid}:{cy.id}") is not None
    )
    res = await rec.click(bob, opener, f"ew:o:{gid}:{cy.id}")
    assert res.ephemeral and "not you" in res.content
    shown = await rec.click(cy, opener, f"ew:o:{gid}:{cy.id}")
    assert (
        shown.ephemeral and _sure(shown.answer).buttons and not _has(_sure(shown.answer), HAND_FILE)
    )
    late.append(("cy's opened panel", _sure(shown.answer), HAND_FILE))
    code = codec.encode(prompts[cy.id].choices[0], contract.game_named(board.id))
    cid = next(b["custom_id"] for b in _sure(shown.answer).buttons if b["custom_id"].endswith(code))
    await rec.click(cy, _sure(shown.answer), cid)

    # ---- turns: every turn command answered (most of them refused, privately)
    st = await svc.status(gid)
    turn = next(d for d in st.decisions if d.kind == "turn")
    mover = world.user_of(turn.user_id)
    other = next(u for u in (ann, bob, cy) if u.id != mover.id)
    refusals = [
        (other, "arm", {}),
        (other, "pass", {}),
        (mover, "grow", {"field": "Spain"}),
        (mover, "build", {"field": "Spain"}),
        (mover, "place", {"large": "Spain"}),
        (mover, "move", {"from": "Narnia", "to": "Spain"}),
        (mover, "invade", {"from": "Narnia", "to": "Spain"}),
        (mover, "conscript", {"field": "Narnia"}),
        (mover, "sabotage", {"target": "Narnia"}),
        (mover, "spy", {"player": "nobody-at-all"}),
        # Europe at War's turn commands, not played at this table
        (mover, "order", {"general": "General", "to": "Spain", "via": "x", "card": "free"}),
        (mover, "drop", {"unit": "Hussars", "at": "Spain"}),
        (mover, "compel", {"card": "Revenge", "at": "Spain", "player": "bob", "dest": "Spain"}),
        (mover, "submit", {}),
        (mover, "retract", {}),
        (mover, "play", {"card": "Recruits"}),
        (mover, "buy", {"chit": "1", "at": "Spain"}),
        (mover, "disband", {"unit": "Hussars"}),
        (mover, "top", {"unit": "Hussars"}),
        (mover, "done", {}),
    ]
    for user, name, options in refusals:
        res = await rec.slash(user, name, **options)
        assert res.ephemeral and len(res.content) < 400, (name, res.content)
        assert _sure(res.original).deleted, "the public 'thinking…' was taken away"
    res = await rec.slash(mover, "arm")
    assert not res.ephemeral and "armed" in res.content and not _has(res.answer, BOARD_FILE)
    late.append(("/arm", _sure(res.answer), BOARD_FILE))
    await rec.slash(ann, "log")
    res = await rec.slash(mover, "undo")  # an armament drew cards (EW-11): not taken back
    assert res.ephemeral and "cannot be taken back" in res.content
    # a replay so far: its words now, the animation later; the record at once, privately
    res = await rec.slash(world.users["spectator"], "replay")
    assert not res.ephemeral and "is being drawn" in res.content
    late.append(("/replay", _sure(res.answer), replay_file(gid, "gif")))
    res = await rec.slash(bob, "export")
    assert res.ephemeral and _has(res.answer, f"game-{gid}.json")
    # the next turn on the panel from the channel's *Your turn*: words now, the hand later
    st = await svc.status(gid)
    mover = world.user_of(next(d for d in st.decisions if d.kind == "turn").user_id)
    turn_msg = next(
        m for m in reversed(fake.messages(world.channel)) if m.component(f"ew:p:{gid}:t")
    )
    shown = await rec.click(mover, turn_msg, f"ew:p:{gid}:t")
    panel = _sure(shown.answer)
    assert shown.ephemeral and not _has(panel, HAND_FILE)
    late.append(("the turn panel", panel, HAND_FILE))
    passing = next(b["custom_id"] for b in panel.buttons if b.get("label") == "Pass")
    await rec.click(mover, panel, passing)
    confirm = next(
        b["custom_id"] for b in fake.message(panel.id).buttons if "Confirm" in b["label"]
    )
    res = await rec.click(mover, fake.message(panel.id), confirm)
    assert "✔ Pass" in fake.message(panel.id).content
    await rec.slash(ann, "games")
    st = await svc.status(gid)
    asker = world.user_of(next(d for d in st.decisions if d.kind == "turn").user_id)
    res = await rec.slash(asker, "hint")  # the search runs after the acknowledgement
    assert res.ephemeral and "Hint" in res.content, res.content

    # ---- the table: pause, resume, replace, resign and cancel with Keep and Confirm
    await rec.slash(ann, "pause")
    await rec.slash(ann, "resume")
    res = await rec.slash(bob, "replace", seat="0")
    assert res.ephemeral
    for name in ("resign", "cancel", "draw"):
        user = bob if name == "resign" else ann
        ask = await rec.slash(user, name)
        assert ask.ephemeral and _sure(ask.answer).buttons
        res = await rec.click(user, _sure(ask.answer), _sure(ask.answer).buttons[1]["custom_id"])
        assert "Nothing changed" in res.content
    ask = await rec.slash(bob, "resign")
    res = await rec.click(bob, _sure(ask.answer), _sure(ask.answer).buttons[0]["custom_id"])
    assert "resigned" in res.content
    seat = next(i for i, s in enumerate((await svc.status(gid)).seats) if s.user_id == cy.id)
    res = await rec.slash(ann, "replace", seat=str(seat), level="easy")
    assert not res.ephemeral and "takes over" in res.content
    ask = await rec.slash(ann, "cancel")
    res = await rec.click(ann, _sure(ask.answer), _sure(ask.answer).buttons[0]["custom_id"])
    assert "cancelled" in res.content

    # ---- a game's own look-ups (Europe at War's): words now, the map later
    res = await rec.slash(ann, "newgame", variant="europe_at_war", players=2)
    assert not res.ephemeral
    ea = await world.gid()
    await rec.slash(bob, "join", power="russia")
    await rec.click(ann, world.lobby_message(), f"ew:l:{ea}:start")
    res = await rec.slash(bob, "map", region="iberia")
    assert res.ephemeral and "Iberia" in res.content and not _has(res.answer, "map_iberia.png")
    late.append(("/map", _sure(res.answer), "map_iberia.png"))
    assert (await rec.slash(bob, "stack")).ephemeral
    assert (await rec.slash(bob, "treasury")).ephemeral
    res = await fake.slash(bob, world.channel, "card", options={"name": "bayonet"})
    await world.settle()
    assert rec.check("/card", res).ephemeral  # an option called name: not through slash()

    # every slash command of the tree was used
    used = {what[1:] for what, _ in rec.results if what.startswith("/")}
    tree = {c.name for c in world.bot.tree.get_commands()}
    assert tree <= used, tree - used
    assert held.held > 0 and all(not _has(m, f) for _, m, f in late)

    # ---- the renderer catches up: every message sent with words gets its image
    held.gate.set()
    await world.bot.settle()
    for what, msg, filename in late:
        assert _has(fake.message(msg.id), filename), what
    png = next(a for a in fake.message(start_msg.id).attachments if a.filename == BOARD_FILE)
    assert png.data.startswith(b"\x89PNG")


async def test_a_player_keeps_playing_while_images_are_held(held_world: Any) -> None:
    """A whole run of decisions (placements, turns, a duel's panels) goes on with the
    renderer held: no step waits for an image."""
    world, held = held_world
    gid = await world.open_table()
    policy = Policy()
    for _ in range(12):
        if not await world.step(policy):
            break
    assert policy.steps >= 6
    assert held.held > 0
    held.gate.set()
    await world.bot.settle()
    boards = [m for m in world.fake.messages(world.channel) if _has(m, BOARD_FILE)]
    assert boards, "the images arrived afterwards"
    assert await world.gid_or_none() in (gid, None)
    # every board added: the channel is owed nothing a restart would have to tell again
    assert await world.bot.db.announcements() == []


async def test_acknowledged_on_entry_not_by_a_timer(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the game's lock held (an action in progress, a slow database) and no
    safety-net timer, a slash command and a panel button are still acknowledged — before
    they wait — and answered once the lock is free."""
    monkeypatch.setattr(bot.reply, "ACK_AFTER", 3600.0)
    gid = await world.open_table()
    assert world.bot is not None
    fake, svc = world.fake, world.bot.service
    bob = world.users["bob"]
    panel = next(m for m in reversed(fake.dm_messages(bob)) if m.buttons)
    lock = svc._lock(gid)
    await lock.acquire()
    try:
        before = set(fake.interactions)
        click = asyncio.create_task(fake.click(bob, panel, panel.buttons[0]["custom_id"]))
        slash = asyncio.create_task(fake.slash(world.users["ann"], world.channel, "arm"))
        await fake.wait_until(lambda: len(set(fake.interactions) - before) == 2)
        waiting = [fake.interactions[i] for i in set(fake.interactions) - before]
        await fake.wait_until(lambda: all(r.acknowledged_at is not None for r in waiting))
        assert sorted(r.response_type or 0 for r in waiting) == [5, 6]
        assert all(r.answered_at is None for r in waiting), "nothing answered yet"
        assert not click.done() and not slash.done()
    finally:
        lock.release()
    clicked, armed = await click, await slash
    await world.settle()
    assert "✔" in clicked.content and not clicked.ephemeral
    assert armed.ephemeral and _sure(armed.original).deleted  # ann's placement is still due
    assert all(
        r.ack_delay is not None and r.ack_delay < fake.interaction_deadline
        for r in (clicked, armed)
    )


async def test_a_stop_does_not_wait_for_a_board_still_being_drawn(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The renderer never finishes a board (held for good, as a pool of workers still
    warming up is held for seconds): an action's words are sent, its board is still to
    follow. A stop ends within its budget all the same; the action stays owed to the
    channel, and the next start shows it with its board."""
    monkeypatch.setattr(bot.reply, "WORDS_FIRST_AFTER", 0.05)
    world = await make_world(fake_discord, tmp_path)
    assert world.bot is not None
    world.bot.delivery.images = HeldImages(world.bot.delivery.images)  # type: ignore[assignment]
    world.words_only = True
    ann = world.users["ann"]
    await world.slash(ann, "newgame")
    for _ in range(2):
        await world.slash(ann, "addbot", level="easy")
    await world.slash(ann, "start")
    gid = await world.gid()
    options = await place(fake_discord, ann, world.channel)
    res = await world.slash(ann, "place", **options)  # answered with words only
    assert not res.ephemeral and not _has(res.original, BOARD_FILE), res.content
    running = world.bot
    owed = await running.db.announcements()
    assert [g for g, _ in owed] == [gid], "its board not shown: the action is still owed"
    assert running.delivery._later, "the board is to follow by an edit"
    loop = asyncio.get_running_loop()
    started = loop.time()
    stopping = asyncio.ensure_future(world.stop())
    done, _ = await asyncio.wait({stopping}, timeout=30)
    assert stopping in done, "the stop waited for the board"
    assert loop.time() - started < running.close_budget + 2.0
    await stopping
    told = {m.id for m in fake_discord.messages(world.channel)}

    world.words_only = False
    await world.start()  # the renderer works again
    await world.settle()
    assert world.bot is not None
    assert await world.bot.db.announcements() == []
    again = [m for m in fake_discord.messages(world.channel) if m.id not in told]
    assert any(_has(m, BOARD_FILE) and "placed" in m.content for m in again), [
        m.content for m in again
    ]
    await world.stop()
