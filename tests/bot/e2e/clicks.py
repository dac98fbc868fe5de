"""Play a game through the fake Discord by clicking only, as a person would: a turn on the
turn panel (in the DM, or ephemerally from the channel's *Your turn* button), every other
decision on its panel (in the DM, or ephemerally from the channel's *Open my panel*
button). The panel is read from what the fake shows (its buttons, selects and their custom
ids), never from the bot's internals; the choice itself comes from a :class:`Policy`.

Every click is counted and timed (from the interaction to the bot's answer, as the fake
sees it), per action kind, for the tests and ``benchmarks/panels.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.views import codec
from bot.views.turn import CONFIRM_ID, SELECT_ID, TURN_ID
from rules import contract
from service import Nth, Prompt
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeMessage, FakeUser
from tests.fake_discord.models import InteractionResult

TURN, SELECT, CONFIRM = TURN_ID, SELECT_ID, CONFIRM_ID


def _engine(world: World, gid: int) -> Any:
    """The game's engine state (the policy plays with full knowledge, as the referee)."""
    assert world.bot is not None
    return world.bot.service._games[gid].state


@dataclass
class Decided:
    """One decision taken by clicking: its kind, the action's kind, where, the clicks
    and the bot's answer time of each."""

    decision: str
    action: str
    where: str
    clicks: int
    seconds: list[float] = field(default_factory=list)


@dataclass
class Clicker:
    """Takes the human decisions of the game in ``world``'s channel by clicking.

    ``channel_every``: with DMs open, every n-th decision is taken from the channel's
    buttons instead of the DM (0: always the DM); with DMs closed, always the channel.
    """

    world: World
    channel_every: int = 2
    log: list[Decided] = field(default_factory=list)
    turns: int = 0
    ephemerals: dict[int, list[FakeMessage]] = field(default_factory=dict)
    """Ephemeral panels shown to each user (by id), where a click may leave the next one."""
    on_click: Callable[[InteractionResult], None] | None = None

    # ------------------------------------------------------------------ playing
    async def step(self, policy: Policy | Any) -> bool:
        """One human decision, by clicks, chosen by ``policy`` (``choose(state, seat,
        kind, choices)``, counting its ``steps``). False when no person has one."""
        world = self.world
        assert world.bot is not None
        gid = await world.gid_or_none()
        if gid is None:
            return False
        prompts = await world.bot.service.prompts(gid)
        if not prompts:
            return False
        prompt = prompts[0]
        state = _engine(world, gid)
        action = policy.choose(state, prompt.seat, prompt.kind, list(prompt.choices))
        policy.steps += 1
        user = world.user_of(prompt.user_id)
        game = contract.game_named(state.game_name)
        in_channel = not user.dms_open or bool(
            self.channel_every and policy.steps % self.channel_every == 0
        )
        if prompt.kind in game.presentation.panel_decisions():
            decided = await self.answer(user, gid, prompt, action, in_channel)
        else:
            self.turns += 1
            decided = await self.turn(user, gid, action, in_channel)
        self.log.append(decided)
        return True

    async def play_to_end(self, gid: int, policy: Policy | Any, max_steps: int) -> None:
        """Take human decisions until nobody has one (failing after ``max_steps``)."""
        while await self.step(policy):
            assert policy.steps < max_steps, f"game {gid} still going after {max_steps} steps"

    # ------------------------------------------------------------------ a turn
    async def turn(self, user: FakeUser, gid: int, action: Any, in_channel: bool) -> Decided:
        """Build ``action`` on the turn panel: open it, pick the kind, each value, Confirm."""
        world = self.world
        decided = Decided("turn", action.kind, "channel" if in_channel else "dm", 0)
        if in_channel:
            opener = self._newest(world.fake.messages(world.channel), f"ew:p:{gid}:t")
            res = await self._click(user, opener, f"ew:p:{gid}:t", decided)
            assert res.ephemeral and res.original is not None, res.content
            panel = res.original
        else:
            panel = self._freshest_turn(user, gid)
            if panel.ephemeral:
                decided.where = "channel"
        game = contract.game_named(_engine(world, gid).game_name)
        data = action.to_dict()
        target = [data[p.name] for p in game.action_kinds[action.kind].params]
        done = -1
        for _ in range(12):
            confirm = next(
                (c for c in panel.walk_components() if CONFIRM.fullmatch(c.get("custom_id", ""))),
                None,
            )
            if confirm is not None:
                path = CONFIRM.fullmatch(confirm["custom_id"])["path"]  # type: ignore[index]
                assert self._fits(path, action.kind, target) == len(target), (path, action)
                await self._click(user, panel, confirm["custom_id"], decided)
                await world.settle()
                return decided
            best: tuple[int, str, str | None] | None = None
            for c in panel.walk_components():
                cid = c.get("custom_id", "")
                if (m := TURN.fullmatch(cid)) and int(m["page"]) == 0:
                    n = self._fits(m["path"], action.kind, target)
                    if n is not None and (best is None or n > best[0]):
                        best = (n, cid, None)
                elif m := SELECT.fullmatch(cid):
                    for o in c.get("options", []):
                        path = f"{m['path']}.{o['value']}" if m["path"] else o["value"]
                        n = self._fits(path, action.kind, target)
                        if n is not None and (best is None or n > best[0]):
                            best = (n, cid, o["value"])
            assert best is not None and best[0] > done, (panel.content, panel.components, action)
            done = best[0]
            if best[2] is None:
                await self._click(user, panel, best[1], decided)
            else:
                await self._select(user, panel, best[1], best[2], decided)
        raise AssertionError(f"no Confirm reached for {action}")

    @staticmethod
    def _fits(path: str, kind: str, target: list[Any]) -> int | None:
        """How many of ``target``'s values ``path`` chose (0: the kind only), or None if
        it leads elsewhere (Back and Cancel lead to a shorter path)."""
        if not path:
            return None
        got_kind, values = codec.read_path(path)
        assert not any(isinstance(v, Nth) for v in values), path
        if got_kind != kind or values != target[: len(values)]:
            return None
        return len(values)

    # ------------------------------------------------------------------ a panel decision
    async def answer(
        self, user: FakeUser, gid: int, prompt: Prompt, action: Any, in_channel: bool
    ) -> Decided:
        """Answer a decision the game takes on a panel: on the DM's panel, or on the one
        the channel's *Open my panel* opens."""
        world = self.world
        decided = Decided(prompt.kind, action.kind, "channel" if in_channel else "dm", 0)
        game = contract.game_named(_engine(world, gid).game_name)
        code = codec.encode(action, game)
        if in_channel:
            opener = self._newest(world.fake.messages(world.channel), f"ew:p:{gid}:a")
            res = await self._click(user, opener, f"ew:p:{gid}:a", decided)
            assert res.ephemeral and res.original is not None, res.content
            messages = [res.original]
        else:
            messages = self._private(user)
        msg, cid, value = self._find_answer(messages, gid, code)
        if msg.ephemeral:
            decided.where = "channel"
        if value is None:
            await self._click(user, msg, cid, decided)
        else:
            await self._select(user, msg, cid, value, decided)
        await world.settle()
        return decided

    # ------------------------------------------------------------------ clicking
    @staticmethod
    def _newest(messages: list[FakeMessage], custom_id: str) -> FakeMessage:
        found = next((m for m in reversed(messages) if m.component(custom_id)), None)
        assert found is not None, f"no message with {custom_id!r}"
        return found

    def _freshest_turn(self, user: FakeUser, gid: int) -> FakeMessage:
        """The player's turn panel of the newest version: in the DMs, or an ephemeral one
        the player's last click there turned into it."""
        best: tuple[int, int, FakeMessage] | None = None
        for m in self._private(user):
            for c in m.walk_components():
                cid = c.get("custom_id", "")
                found = TURN.fullmatch(cid) or SELECT.fullmatch(cid) or CONFIRM.fullmatch(cid)
                if found and int(found["gid"]) == gid:
                    key = (int(found["ver"]), m.id, m)
                    if best is None or key[:2] > best[:2]:
                        best = key
        assert best is not None, "no turn panel in the DMs or on an open ephemeral panel"
        return best[2]

    def _private(self, user: FakeUser) -> list[FakeMessage]:
        """What only ``user`` sees: the DMs and the ephemeral panels shown to them."""
        return [*self.world.fake.dm_messages(user), *self.ephemerals.get(user.id, [])]

    def _find_answer(
        self, messages: list[FakeMessage], gid: int, code: str
    ) -> tuple[FakeMessage, str, str | None]:
        """The component answering with ``code`` on the panel of the newest version."""
        best: tuple[int, int, FakeMessage, str, str | None] | None = None
        for m in messages:
            for c in m.walk_components():
                cid = c.get("custom_id", "")
                button = re.fullmatch(rf"ew:a:{gid}:(\d+):{re.escape(code)}", cid)
                select = re.fullmatch(rf"ew:s:{gid}:(\d+):\d", cid)
                key: tuple[int, int, FakeMessage, str, str | None]
                if button and c.get("type") == 2:
                    key = (int(button.group(1)), m.id, m, cid, None)
                elif select and any(o["value"] == code for o in c.get("options", [])):
                    key = (int(select.group(1)), m.id, m, cid, code)
                else:
                    continue
                if best is None or key[:2] > best[:2]:
                    best = key
        assert best is not None, f"no panel component for {code!r}"
        return best[2], best[3], best[4]

    def _record(self, res: InteractionResult, decided: Decided) -> InteractionResult:
        refused = [m.content for m in res.followups if m.ephemeral and not m.deleted]
        assert not refused or res.response_type != 6, f"refused: {refused}"
        assert res.responded and not res.expired and not res.errors, res
        shown = res.original if res.response_type == 5 else None
        if shown is not None and shown.ephemeral:
            self.ephemerals.setdefault(res.user.id, []).append(shown)
        decided.clicks += 1
        if res.answered_at is not None:
            decided.seconds.append(res.answered_at - res.created)
        if self.on_click is not None:
            self.on_click(res)
        return res

    async def _click(
        self, user: FakeUser, msg: FakeMessage, custom_id: str, decided: Decided
    ) -> InteractionResult:
        res = await self.world.fake.click(user, msg, custom_id)
        return self._record(res, decided)

    async def _select(
        self, user: FakeUser, msg: FakeMessage, custom_id: str, value: str, decided: Decided
    ) -> InteractionResult:
        res = await self.world.fake.select(user, msg, custom_id, [value])
        return self._record(res, decided)
