"""Hints through ``service.GameService`` on a real SQLite file: the strongest computer
player's choice for the asker's own decision, worked out from the asker's view, counted
per person and game; refused for anyone without a decision of their own, and when it
cannot be worked out in time or the game moves on meanwhile."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import ai
from rules import contract
from service import GameService, ServiceError
from service import computer as computer_module
from service.scheduler import FakeClock
from tests.bot.helpers import HOST, USERS, make_service, new_game

T0 = 1_700_000_000.0


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    service = await make_service(tmp_path / "games.db", FakeClock(T0))
    yield service
    await service.close()


async def test_a_hint_is_the_askers_own_decision_with_why_and_is_counted(
    svc: GameService,
) -> None:
    gid, _ = await new_game(svc, humans=2, computers=1)
    await svc.idle(gid)  # the computer has placed: nothing moves the game meanwhile
    for user in USERS[:2]:
        uv = await svc.view(gid, user)
        assert uv.prompt is not None and uv.seat is not None
        hint = await svc.hint(gid, user)
        assert hint.seat == uv.seat and hint.kind == uv.prompt.kind
        assert hint.action in uv.prompt.choices
        words = contract.game_named("european_war").presentation
        names = [s.name for s in (await svc.status(gid)).seats]
        assert hint.label == words.action_label(hint.action, uv.view, names)
        assert hint.why and all(w.endswith(".") for w in hint.why)
        assert hint.taken == 1
        assert hint.lines()[0] == f"**Hint:** {hint.label}"
    again = await svc.hint(gid, HOST)
    assert again.taken == 2 and again.action == (await svc.hint(gid, HOST)).action
    assert await svc.store.hints_taken(HOST, gid) == 3
    assert await svc.store.hints_taken(USERS[1]) == 1


async def test_no_hint_without_a_decision_of_ones_own(svc: GameService) -> None:
    out = await svc.open_lobby(channel_id=1, host_id=HOST, host_name="P101")
    assert out.game_id is not None
    with pytest.raises(ServiceError, match="not started"):
        await svc.hint(out.game_id, HOST)
    await svc.cancel(out.game_id, HOST)

    gid, _ = await new_game(svc, humans=2, channel=2)
    with pytest.raises(ServiceError, match="not playing"):
        await svc.hint(gid, 999)
    for user in USERS[:2]:  # both place their pieces: then one of them is to play
        uv = await svc.view(gid, user)
        assert uv.prompt is not None
        done = await svc.answer(gid, user, uv.prompt.version, uv.prompt.choices[0])
        assert done.ok, done.error
    waiting = [u for u in USERS[:2] if (await svc.view(gid, u)).prompt is None]
    assert len(waiting) == 1
    with pytest.raises(ServiceError, match="no decision to make now"):
        await svc.hint(gid, waiting[0])
    assert await svc.store.hints_taken(waiting[0]) == 0


async def test_the_adviser_sees_only_the_askers_view(tmp_path: Path) -> None:
    seen: list[tuple[Any, Sequence[Any]]] = []

    def advise(game: str, view: Any, legal: Sequence[Any], seed: int) -> ai.Hint:
        seen.append((view, legal))
        return computer_module.advise(game, view, legal, seed)

    svc = await make_service(tmp_path / "games.db", FakeClock(T0), adviser=advise)
    try:
        gid, _ = await new_game(svc, humans=2)
        uv = await svc.view(gid, USERS[1])
        await svc.hint(gid, USERS[1])
        ((view, legal),) = seen
        assert view == uv.view and view.viewer == uv.seat
        assert uv.prompt is not None and list(legal) == list(uv.prompt.choices)
    finally:
        await svc.close()


async def test_a_hint_too_slow_or_overtaken_is_refused_and_not_counted(tmp_path: Path) -> None:
    release = threading.Event()
    started = threading.Event()

    def slow(game: str, view: Any, legal: Sequence[Any], seed: int) -> ai.Hint:
        started.set()
        release.wait(10)
        return ai.Hint(legal[0], ("First.",))

    svc = await make_service(
        tmp_path / "games.db", FakeClock(T0), adviser=slow, computer_time_limit=0.05
    )
    try:
        gid, _ = await new_game(svc, humans=2)
        with pytest.raises(ServiceError, match="in time"):
            await svc.hint(gid, HOST)
        release.set()

        svc.computer_time_limit = 10.0
        release.clear()
        started.clear()
        asking = asyncio.ensure_future(svc.hint(gid, HOST))
        await asyncio.to_thread(started.wait, 10)
        other = await svc.view(gid, USERS[1])  # the other player places meanwhile
        assert other.prompt is not None
        done = await svc.answer(gid, USERS[1], other.prompt.version, other.prompt.choices[0])
        assert done.ok, done.error
        release.set()
        with pytest.raises(ServiceError, match="moved on"):
            await asking
        assert await svc.store.hints_taken(HOST) == 0
    finally:
        release.set()
        await svc.close()
