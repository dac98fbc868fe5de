"""Drive the real bot through the fake Discord: a world (server, #games, players), the
bot on a temporary SQLite file (restartable), and a deterministic player policy whose
choices are made through slash commands, DM panels and ephemeral panels.

Timing is deterministic: the service runs on a :class:`FakeClock` (no deadline fires
unless a test moves it), computers move without pacing, and every wait is event-driven
(``bot.settle()`` waits for the service and the delivery to be quiet).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client import GameBot, interaction_tasks
from bot.config import Settings
from bot.resources import open_resources
from bot.views import codec
from rules import contract, pyramids
from rules.pyramids.cards import card_name
from service import GameStatus
from service.scheduler import FakeClock
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.fake_discord.fixtures import running_bot

SEED = 197
CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♣♦♥♠])")


def cards_in(text: str) -> set[str]:
    """Card names (``10♥``) mentioned in ``text``."""
    return {a + b for a, b in CARD.findall(text)}


@dataclass
class World:
    """A server, a channel, players and the bot under test."""

    fake: FakeDiscord
    tmp: Path
    guild: FakeGuild
    channel: FakeChannel
    users: dict[str, FakeUser]
    clock: FakeClock = field(default_factory=FakeClock)
    seed: int = SEED
    bot: GameBot | None = None
    words_only: bool = False
    """:meth:`settle` does not wait for images added to messages later (a test that holds
    the renderer back)."""
    _stack: contextlib.AsyncExitStack | None = None

    # ------------------------------------------------------------------ the bot
    async def start(self, **kw: Any) -> GameBot:
        """Start a bot on this world's database, as ``python -m bot`` does: what it runs on
        opened first and handed to it (the previous bot must be stopped)."""
        assert self._stack is None, "stop the running bot first"
        settings = Settings(
            discord_token=self.fake.token,
            database_url=f"sqlite:///{self.tmp}/games.db",
            dev_guild_id=kw.pop("dev_guild_id", None),
            log_level="INFO",
            discord_api_base=self.fake.api_base,
            discord_gateway_url=self.fake.gateway_url,
            metrics_port=kw.pop("metrics_port", None),
        )
        options = {
            "clock": self.clock,
            "computer_pacing": 0,
            "computer_answer_delay": (0.0, 0.0),
            "seed_source": lambda: self.seed,
        }
        options.update(kw.pop("service_options", {}))
        async with contextlib.AsyncExitStack() as stack:
            resources = await stack.enter_async_context(
                open_resources(settings, service_options=options)
            )
            bot = GameBot(settings, resources, warm_up=False, guild_ready_timeout=0.05, **kw)
            self.bot = await stack.enter_async_context(
                running_bot(self.fake, bot, sync_commands=False)
            )
            self._stack = stack.pop_all()
        return self.bot

    async def stop(self) -> None:
        """Stop the running bot (as a process shutdown would)."""
        if self._stack is not None:
            stack, self._stack = self._stack, None
            await stack.aclose()

    async def settle(self) -> None:
        """Wait until the bot has nothing left to do (with :attr:`words_only`: nothing
        but adding late images)."""
        assert self.bot is not None
        if not self.words_only:
            await self.bot.settle()
            return
        bot = self.bot
        while True:
            await bot.interactions_done()
            await bot.service.idle()
            await self.fake.wait_until(
                lambda: not bot.delivery.sending, 10.0, "the bot to send everything but late images"
            )
            await asyncio.sleep(0)
            if not bot.delivery.sending and not bot.service._busy(None) and not interaction_tasks():
                return

    # ------------------------------------------------------------------ acting
    async def slash(self, user: FakeUser | str, name: str, **options: Any) -> Any:
        """``user`` runs ``/name`` (in ``channel=``, default the table's channel); returns
        the interaction result once the bot is quiet."""
        channel: FakeChannel | None = options.pop("channel", None)
        u = self.users[user] if isinstance(user, str) else user
        res = await self.fake.slash(u, channel or self.channel, name, options=options)
        await self.settle()
        return res

    async def click(self, user: FakeUser | str, message: FakeMessage, custom_id: str) -> Any:
        """``user`` clicks a button; returns the result once the bot is quiet."""
        u = self.users[user] if isinstance(user, str) else user
        res = await self.fake.click(u, message, custom_id)
        await self.settle()
        return res

    async def gid(self) -> int:
        """The game in #games."""
        assert self.bot is not None
        found = await self.bot.service.active_game(self.channel.id)
        assert found is not None
        return found

    def lobby_message(self) -> FakeMessage:
        """The newest channel message with lobby buttons."""
        for m in reversed(self.fake.messages(self.channel)):
            if any(c.get("custom_id", "").startswith("ew:l:") for c in m.walk_components()):
                return m
        raise AssertionError("no lobby message")

    async def open_table(
        self, names: tuple[str, ...] = ("ann", "bob", "cy"), start: bool = True
    ) -> int:
        """The first player runs /newgame, the others press Join, the host presses Start."""
        host, *others = names
        res = await self.slash(host, "newgame")
        assert res.original is not None and not res.ephemeral
        lobby = self.lobby_message()
        gid = await self.gid()
        for name in others:
            await self.click(name, lobby, f"ew:l:{gid}:join")
        if start:
            await self.click(host, lobby, f"ew:l:{gid}:start")
        return gid

    async def open_at_turn(self) -> tuple[int, str]:
        """A table opened and played three steps in: its id and the name of the player
        whose turn it is."""
        gid = await self.open_table()
        policy = Policy()
        for _ in range(3):
            assert await self.step(policy)
        assert self.bot is not None
        st = await self.bot.service.status(gid)
        mover = next(d for d in st.decisions if d.kind == "turn")
        return gid, self.user_of(mover.user_id).name

    def user_of(self, uid: int | None) -> FakeUser:
        """The fake user with Discord id ``uid``."""
        return next(u for u in self.users.values() if u.id == uid)

    # ------------------------------------------------------------------ panels
    def find_answer(
        self,
        messages: list[FakeMessage],
        gid: int,
        code: str,
    ) -> tuple[FakeMessage, str, str | None]:
        """The newest panel component answering with ``code``: (message, custom id,
        select value or None)."""
        for m in reversed(messages):
            for c in m.walk_components():
                cid = c.get("custom_id", "")
                if c.get("type") == 2 and re.fullmatch(rf"ew:a:{gid}:\d+:{re.escape(code)}", cid):
                    return m, cid, None
                if (
                    c.get("type") == 3
                    and cid.startswith(f"ew:s:{gid}:")
                    and any(o["value"] == code for o in c.get("options", []))
                ):
                    return m, cid, code
        raise AssertionError(f"no panel component for {code!r}")

    def _answer_shown(self, user: FakeUser, gid: int, code: str) -> bool:
        try:
            self.find_answer(self.fake.dm_messages(user), gid, code)
        except AssertionError:
            return False
        return True

    async def answer_panel(
        self, user: FakeUser, gid: int, action: pyramids.Action, board: pyramids.Board
    ) -> Any:
        """Answer a private prompt the way a player would: on the DM panel, or through
        *Open my panel* in the channel when DMs are closed."""
        code = codec.encode(action, contract.game_named(board.id))
        if user.dms_open:
            if self.words_only:
                # words-only settling does not wait for the outbox (images are held), so
                # the DM with the panel may still be on its way
                await self.fake.wait_until(
                    lambda: self._answer_shown(user, gid, code), 10.0, f"a panel for {code!r}"
                )
            msg, cid, value = self.find_answer(self.fake.dm_messages(user), gid, code)
        else:
            opener = next(
                (
                    m
                    for m in reversed(self.fake.messages(self.channel))
                    if m.component(f"ew:o:{gid}:{user.id}") is not None
                ),
                None,
            )
            if opener is not None:
                shown = await self.fake.click(user, opener, f"ew:o:{gid}:{user.id}")
            else:
                shown = await self.fake.slash(user, self.channel, "hand")
            assert shown.ephemeral and shown.original is not None, shown.content
            msg, cid, value = self.find_answer([shown.original], gid, code)
        if value is None:
            res = await self.fake.click(user, msg, cid)
        else:
            res = await self.fake.select(user, msg, cid, [value])
        await self.settle()
        return res

    async def act(
        self,
        user: FakeUser,
        gid: int,
        action: pyramids.Action,
        kind: str,
        board: pyramids.Board,
        names_style: bool = True,
    ) -> Any:
        """Perform ``action`` through Discord: a slash command on a turn, else a panel."""
        if kind not in ("turn", "action"):
            return await self.answer_panel(user, gid, action, board)
        name = (lambda f: board.fields[f].name) if names_style else (lambda f: f)
        a: Any = action
        if action.kind == "conscript":
            return await self.slash(user, "conscript", field=name(a.field))
        if action.kind in ("move", "attack"):
            cmd = "move" if action.kind == "move" else "invade"
            return await self.slash(user, cmd, **{"from": name(a.src), "to": name(a.dst)})
        if action.kind == "sabotage":
            extra = {"card": "ace"} if a.ace else {}
            return await self.slash(user, "sabotage", target=name(a.target), **extra)
        if action.kind == "spy":
            extra = {"card": "ace"} if a.ace else {}
            return await self.slash(user, "spy", player=str(a.target), **extra)
        if action.kind in ("arm", "pass"):
            return await self.slash(user, action.kind)
        raise AssertionError(f"no slash command for {action}")

    async def step(self, policy: Policy, on_step: Callable[..., Any] | None = None) -> bool:
        """One human decision through Discord, chosen by ``policy``. False when nobody
        (human) has anything to decide."""
        assert self.bot is not None
        gid = await self.gid_or_none()
        if gid is None:
            return False
        svc = self.bot.service
        prompts = await svc.prompts(gid)
        if not prompts:
            return False
        prompt = prompts[0]
        st = await svc.status(gid)
        uv = await svc.view(gid, prompt.user_id)
        board = pyramids.load_board(uv.view.board_id)
        state = _state(self.bot, gid)
        action = policy.choose(state, prompt.seat, prompt.kind, list(prompt.choices))
        user = self.user_of(prompt.user_id)
        policy.steps += 1
        res = await self.act(
            user, gid, action, prompt.kind, board, names_style=policy.steps % 2 == 0
        )
        if on_step is not None:
            await on_step(prompt, action, res, st)
        return True

    async def play_to_end(self, gid: int, policy: Policy, max_steps: int) -> GameStatus:
        """Take human decisions with ``policy`` until nobody has one (failing after
        ``max_steps``), then return game ``gid``'s status."""
        while await self.step(policy):
            assert policy.steps < max_steps, f"game {gid} still going after {max_steps} steps"
        assert self.bot is not None
        return await self.bot.service.status(gid)

    async def gid_or_none(self) -> int | None:
        """The active game in #games, if any."""
        assert self.bot is not None
        return await self.bot.service.active_game(self.channel.id)

    def public_cards(self, view: pyramids.View | None) -> set[str]:
        """Cards anyone may know (EW-24): discard pile and face-up duel cards."""
        if view is None:
            return set()
        out = {card_name(c) for c in view.discard}
        if view.battle is not None:
            out |= {card_name(c) for c in view.battle.attacker_cards + view.battle.defender_cards}
        return out


def _state(bot: GameBot, gid: int) -> pyramids.GameState:
    """The engine state (the policy plays with full knowledge, as the test's referee)."""
    live = bot.service._games[gid]
    assert isinstance(live.state, pyramids.GameState)
    return live.state


async def make_world(
    fake: FakeDiscord, tmp: Path, *, dms_closed: tuple[str, ...] = (), start: bool = True
) -> World:
    """A server with #games and players ann, bob, cy, dee; the bot started."""
    guild = fake.add_guild("Test Server")
    channel = fake.add_text_channel(guild, "games")
    users = {
        n: fake.add_user(n, guild=guild, dms_open=n not in dms_closed)
        for n in ("ann", "bob", "cy", "dee")
    }
    users["spectator"] = fake.add_user("spectator", guild=guild)
    w = World(fake, tmp, guild, channel, users)
    if start:
        await w.start()
    return w
