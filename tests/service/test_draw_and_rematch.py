"""A draw refused, and a rematch, through the service on a real SQLite file: a refusal
withdraws every vote (a later proposal counts from none); a rematch opens a table in the
finished game's channel with the same people and computers, each asking for the side it
played, and the same settings; only a player may ask, only once the game is over, and
only while the channel is free."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import GameService
from service.scheduler import FakeClock
from tests.bot.helpers import HOST, make_service, new_game

T0 = 1_700_000_000.0


@pytest.fixture
async def svc(tmp_path: Path):
    service = await make_service(tmp_path / "games.db", FakeClock(T0))
    yield service
    await service.close()


async def test_a_refused_draw_withdraws_every_vote(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=3)
    nobody = await svc.refuse_draw(gid, 102)
    assert not nobody.ok and "Nobody has proposed a draw" in (nobody.error or "")
    assert (await svc.agree_draw(gid, HOST)).ok
    assert (await svc.agree_draw(gid, 102)).ok
    refused = await svc.refuse_draw(gid, 103)
    assert refused.ok and refused.public_lines == ("P103 refuses a draw; the game goes on.",)
    st = await svc.status(gid)
    assert st.status == "running" and not any(s.agrees_draw for s in st.seats)
    again = await svc.agree_draw(gid, 102)
    assert again.ok and "(1 of 3)" in again.public_lines[0]
    assert not (await svc.refuse_draw(gid, 999)).ok


async def test_a_rematch_seats_the_same_players_at_their_sides(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=2, computers=1, turn_timeout=900.0)
    early = await svc.rematch(gid, HOST)
    assert not early.ok and "once the game is over" in (early.error or "")
    before = await svc.status(gid)
    assert (await svc.agree_draw(gid, HOST)).ok
    assert (await svc.agree_draw(gid, 102)).game_over
    assert not (await svc.rematch(gid, 999)).ok
    out = await svc.rematch(gid, 102)
    assert out.ok and out.lobby is not None and out.game_id != gid
    assert "asks for a rematch" in out.public_lines[0]
    info = out.lobby
    assert info.host_id == 102 and info.turn_timeout == 900.0
    assert [(s.user_id, s.computer_level, s.power) for s in info.seats] == [
        (s.user_id, s.computer_level, s.power) for s in before.seats
    ]
    assert await svc.active_game(1) == out.game_id
    busy = await svc.rematch(gid, HOST)
    assert not busy.ok and "already open in this channel" in (busy.error or "")
    assert out.game_id is not None
    started = await svc.start_game(out.game_id, 102)
    assert started.ok
    after = await svc.status(out.game_id)

    # each person (and computer) plays the side it played: the turn order is dealt anew
    def sides(st) -> list[tuple[int, str | None, str | None]]:
        return sorted((s.user_id or 0, s.computer_level, s.power) for s in st.seats)

    assert sides(after) == sides(before)
