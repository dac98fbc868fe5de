"""Computer-only games playing themselves through the real bot and the fake Discord: for
the outbox's load test (``test_outbox.py``) and ``benchmarks/outbox.py``.

Each game is opened by a person through the service (the lobby message, computers
joining, the start with its setup DM), who places their pieces and then resigns (EW-25):
a computer takes the seat and the game plays itself to the end. A :class:`Recorder`
sees every outcome the service makes; :func:`lost_lines` says which of their words
never reached the channel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bot.client import GameBot
from bot.delivery import GAME_KINDS, Delivery
from service import Outcome
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser


@dataclass
class Table:
    """One self-playing game: its channel, the person who opened it, its id."""

    channel: FakeChannel
    host: FakeUser
    gid: int


@dataclass
class Recorder:
    """Every outcome of the games, with when the service made it (a listener placed
    before the delivery's)."""

    outcomes: dict[int, list[tuple[float, Outcome]]] = field(default_factory=dict)

    async def __call__(self, outcome: Outcome) -> None:
        if outcome.game_id is not None:
            self.outcomes.setdefault(outcome.game_id, []).append((time.monotonic(), outcome))

    def attach(self, bot: GameBot) -> None:
        """Listen to ``bot``'s service ahead of the delivery."""
        bot.service._listeners.insert(0, self)


async def open_table(
    fake: FakeDiscord,
    bot: GameBot,
    guild: FakeGuild,
    n: int,
    recorder: Recorder,
    *,
    computers: int = 1,
    resign: bool = True,
) -> Table:
    """Open game ``n``: a lobby, ``computers`` computer players, the start, the host's
    placements, then (``resign``) the host resigns. Every outcome is delivered as the
    cogs would."""
    svc, delivery = bot.service, bot.delivery
    channel = fake.add_text_channel(guild, f"table-{n}")
    host = fake.add_user(f"host{n}", guild=guild)

    async def deliver(out: Outcome) -> Outcome:
        assert out.ok, out.error
        await recorder(out)
        await delivery.deliver(out)
        return out

    out = await deliver(
        await svc.open_lobby(
            channel_id=channel.id,
            host_id=host.id,
            host_name=f"Host {n}",
            guild_id=guild.id,
            max_players=computers + 1,
        )
    )
    gid = out.game_id
    assert gid is not None
    for _ in range(computers):
        await deliver(await svc.add_computer(gid, host.id, "easy"))
    started = await deliver(await svc.start_game(gid, host.id, seed=1000 + n))
    for p in started.prompts:
        if p.user_id == host.id:
            await deliver(await svc.answer(gid, host.id, p.version, p.choices[0]))
    if resign:
        await resign_host(bot, Table(channel, host, gid), recorder)
    return Table(channel, host, gid)


async def resign_host(bot: GameBot, table: Table, recorder: Recorder) -> None:
    """The host resigns: a computer takes the seat (delivered as the cog would)."""
    out = await bot.service.resign(table.gid, table.host.id)
    assert out.ok, out.error
    await recorder(out)
    await bot.delivery.deliver(out)


def shown(outcome: Outcome) -> bool:
    """The outcome's words go to the channel as (part of) a message of their own (not
    an edit of the duel message, whose running log keeps only the latest lines)."""
    return (
        bool(outcome.public_lines) and not Delivery._progress(outcome) and outcome.kind != "lobby"
    )


def lost_lines(fake: FakeDiscord, tables: list[Table], recorder: Recorder) -> list[str]:
    """The words of recorded outcomes that no message of their game's channel shows."""
    lost = []
    for t in tables:
        text = "\n".join(m.content for m in fake.messages(t.channel))
        for _, out in recorder.outcomes.get(t.gid, []):
            if not shown(out):
                continue
            for line in out.public_lines:
                if line.strip() and line.strip() not in text:
                    lost.append(f"game {t.gid} ({out.kind}): {line}")
    return lost


def latest_board_shown(fake: FakeDiscord, table: Table, recorder: Recorder) -> float | None:
    """When the game's latest shown outcome was made, if the channel's newest board
    message does not show its words yet; None if it does (or there is none)."""
    latest = next(
        (
            (t, o)
            for t, o in reversed(recorder.outcomes.get(table.gid, []))
            if shown(o) and o.kind in GAME_KINDS
        ),
        None,
    )
    if latest is None:
        return None
    boards = [
        m
        for m in fake.messages(table.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ]
    if boards and latest[1].public_lines[-1].strip() in boards[-1].content:
        return None
    return latest[0]
