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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.views import codec
from bot.views.counts import CONFIRM_ID as COUNT_CONFIRM
from bot.views.counts import COUNT_ID as COUNT
from bot.views.counts import PLACE_ID as COUNT_PLACE
from bot.views.counts import layout, write
from bot.views.turn import CONFIRM_ID, SELECT_ID, TURN_ID
from rules import contract
from service import Nth, Prompt, opening
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeMessage, FakeUser
from tests.fake_discord.models import InteractionResult

TURN, SELECT, CONFIRM = TURN_ID, SELECT_ID, CONFIRM_ID
PAGE = re.compile(r"ew:ap:\d+:\d+:\d+")


def counts_panel(world: World, prompt: Prompt) -> FakeMessage:
    """The DM holding the counts panel of ``prompt`` (its game and version)."""
    user = world.user_of(prompt.user_id)
    want = f"ew:nc:{prompt.game_id}:{prompt.version}:"
    return next(
        m
        for m in reversed(world.fake.dm_messages(user))
        if any(c.get("custom_id", "").startswith(want) for c in m.walk_components())
    )


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
        if prompt.tally is not None:
            decided = await self.count(user, gid, prompt, action, in_channel)
        elif prompt.kind in game.presentation.panel_decisions():
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
                m = CONFIRM.fullmatch(confirm["custom_id"])
                assert m is not None
                n = await self._fits_at(user, gid, int(m["ver"]), m["path"], action.kind, target)
                assert n == len(target), (m["path"], action)
                await self._click(user, panel, confirm["custom_id"], decided)
                await world.settle()
                return decided
            best: tuple[int, str, str | None] | None = None
            for c in panel.walk_components():
                cid = c.get("custom_id", "")
                if (m := TURN.fullmatch(cid)) and int(m["page"]) == 0:
                    n = await self._fits_at(
                        user, gid, int(m["ver"]), m["path"], action.kind, target
                    )
                    if n is not None and (best is None or n > best[0]):
                        best = (n, cid, None)
                elif m := SELECT.fullmatch(cid):
                    for o in c.get("options", []):
                        path = f"{m['path']}.{o['value']}" if m["path"] else o["value"]
                        ver = int(m["ver"])
                        n = await self._fits_at(user, gid, ver, path, action.kind, target)
                        if n is not None and (best is None or n > best[0]):
                            best = (n, cid, o["value"])
            assert best is not None and best[0] > done, (panel.content, panel.components, action)
            done = best[0]
            if best[2] is None:
                await self._click(user, panel, best[1], decided)
            else:
                await self._select(user, panel, best[1], best[2], decided)
        raise AssertionError(f"no Confirm reached for {action}")

    async def _fits_at(
        self, user: FakeUser, gid: int, version: int, path: str, kind: str, target: list[Any]
    ) -> int | None:
        """:meth:`_fits` for a path that may give values by their place among a step's
        offers (a value too long for a custom id): those are read back as the bot reads
        them, from the step at the panel's version."""
        got_kind, values = codec.read_path(path)
        if got_kind == kind and any(isinstance(v, Nth) for v in values):
            assert self.world.bot is not None
            step = await self.world.bot.service.step_now(
                gid, user.id, version, kind, values, fill=False
            )
            game = contract.game_named(_engine(self.world, gid).game_name)
            params = game.action_kinds[kind].params[: len(values)]
            values = [step.values[p.name] for p in params]
            if values != target[: len(values)]:
                return None
            return len(values)
        return self._fits(path, kind, target)

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
        found = self._find_answer(messages, gid, code)
        while found is None:  # on a later page of a long list: Later, until it shows
            panel = self._newest_panel(messages, gid)
            later = max(
                (
                    c["custom_id"]
                    for c in panel.walk_components()
                    if PAGE.fullmatch(c.get("custom_id", ""))
                ),
                key=lambda cid: int(cid.rsplit(":", 1)[1]),
            )
            res = await self._click(user, panel, later, decided)
            messages = [res.original or panel]
            found = self._find_answer(messages, gid, code)
        assert found is not None, f"no panel component for {code!r}"
        msg, cid, value = found
        if msg.ephemeral:
            decided.where = "channel"
        if value is None:
            await self._click(user, msg, cid, decided)
        else:
            await self._select(user, msg, cid, value, decided)
        await world.settle()
        return decided

    # ------------------------------------------------------------------ a counts panel
    async def count(
        self, user: FakeUser, gid: int, prompt: Prompt, action: Any, in_channel: bool
    ) -> Decided:
        """Answer a decision taken by counts per type. With places (chits to buy): the
        policy's one purchase, at its place, confirmed without finishing. A tally of
        exactly its total taken one by one (casualties): from the suggestion the panel
        starts at, move one to ``action``'s type if it has none (− on another type, + on
        it), then Confirm. Any other (units to disband, savings, an action the panel does
        not count, such as finishing): the suggestion, confirmed in one click."""
        world = self.world
        tally = prompt.tally
        assert tally is not None
        decided = Decided(prompt.kind, action.kind, "channel" if in_channel else "dm", 0)
        if in_channel:
            opener = self._newest(world.fake.messages(world.channel), f"ew:p:{gid}:a")
            res = await self._click(user, opener, f"ew:p:{gid}:a", decided)
            assert res.ephemeral and res.original is not None, res.content
            panel = res.original
        else:
            panel = self._freshest_counts(user, gid)
            if panel.ephemeral:
                decided.where = "channel"
        groups = tally.groups
        _toggles, per_page = layout(tally)
        counts = list(opening(prompt.version, tally).counts)
        more = False
        counted = any(action in g.at(p) for g in groups for p in range(max(1, len(tally.places))))
        if tally.places and counted:
            place = next(
                p for p in range(len(tally.places)) if any(action in g.at(p) for g in groups)
            )
            mine = next(i for i, g in enumerate(groups) if action in g.at(place))
            if place != tally.place:
                cid = next(
                    c["custom_id"]
                    for c in panel.walk_components()
                    if COUNT_PLACE.fullmatch(c.get("custom_id", ""))
                    and any(o["value"] == str(place) for o in c.get("options", []))
                )
                panel = (
                    await self._select(user, panel, cid, str(place), decided)
                ).original or panel
            panel = await self._count_to(user, panel, gid, counts, mine, 1, per_page, decided)
            counts[mine] = 1
            more = True
        elif counted and tally.bound == "exactly" and tally.finish is None:
            mine = next(i for i, g in enumerate(groups) if action in g.actions)
            if counts[mine] == 0:
                other = max(i for i, n in enumerate(counts) if n)
                for i, delta in ((other, -1), (mine, 1)):
                    panel = await self._count_to(
                        user, panel, gid, counts, i, counts[i] + delta, per_page, decided
                    )
                    counts[i] += delta
        confirm = next(
            c["custom_id"]
            for c in panel.walk_components()
            if (m := COUNT_CONFIRM.fullmatch(c.get("custom_id", ""))) and bool(m["more"]) == more
        )
        found = COUNT_CONFIRM.fullmatch(confirm)
        assert found is not None and found["counts"] == write(counts), (
            confirm,
            counts,
        )
        await self._click(user, panel, confirm, decided)
        await world.settle()
        return decided

    async def _count_to(
        self,
        user: FakeUser,
        panel: FakeMessage,
        gid: int,
        counts: list[int],
        i: int,
        n: int,
        per_page: int,
        decided: Decided,
    ) -> FakeMessage:
        """Click group ``i``'s count (or toggle) on ``panel`` from ``counts`` to ``n``,
        turning to its page first; the panel as it is then."""
        page = i // per_page
        if self._counts_page(panel) != page:
            nav = self._counts_button(panel, gid, counts, page)
            panel = (await self._click(user, panel, nav, decided)).original or panel
        moved = list(counts)
        moved[i] = n
        cid = self._counts_button(panel, gid, moved, page)
        return (await self._click(user, panel, cid, decided)).original or panel

    @staticmethod
    def _counts_page(panel: FakeMessage) -> int:
        """The page of types a counts panel shows (that of its − and + buttons)."""
        pages = [
            int(m["page"])
            for c in panel.walk_components()
            if (m := COUNT.fullmatch(c.get("custom_id", ""))) and m["counts"]
        ]
        return Counter(pages).most_common(1)[0][0]

    @staticmethod
    def _counts_button(panel: FakeMessage, gid: int, counts: list[int], page: int) -> str:
        """The custom id of the button on ``panel`` leading to ``counts`` on ``page``."""
        want = f"ew:n:{gid}:"
        for c in panel.walk_components():
            cid = c.get("custom_id", "")
            m = COUNT.fullmatch(cid)
            same = m is not None and m["counts"] == write(counts)
            if cid.startswith(want) and same and m is not None and int(m["page"]) == page:
                return cid
        raise AssertionError(f"no button to {counts} on page {page}: {panel.components}")

    def _freshest_counts(self, user: FakeUser, gid: int) -> FakeMessage:
        """The player's counts panel of the newest version (the DMs, or an ephemeral
        one)."""
        best: tuple[int, int, FakeMessage] | None = None
        for m in self._private(user):
            for c in m.walk_components():
                found = COUNT_CONFIRM.fullmatch(c.get("custom_id", ""))
                if found and int(found["gid"]) == gid:
                    key = (int(found["ver"]), m.id, m)
                    if best is None or key[:2] > best[:2]:
                        best = key
        assert best is not None, "no counts panel in the DMs or on an open ephemeral panel"
        return best[2]

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

    @staticmethod
    def _newest_panel(messages: list[FakeMessage], gid: int) -> FakeMessage:
        """The decision panel of the newest version among ``messages``."""
        best: tuple[int, int, FakeMessage] | None = None
        for m in messages:
            for c in m.walk_components():
                found = re.fullmatch(rf"ew:(?:a|s|ap):{gid}:(\d+):.*", c.get("custom_id", ""))
                if found and (best is None or (int(found.group(1)), m.id) > best[:2]):
                    best = (int(found.group(1)), m.id, m)
        assert best is not None, "no decision panel"
        return best[2]

    def _find_answer(
        self, messages: list[FakeMessage], gid: int, code: str
    ) -> tuple[FakeMessage, str, str | None] | None:
        """The component answering with ``code`` on the panel of the newest version
        (None: not on the page shown)."""
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
        if best is None:
            return None
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
