"""The game service on a real SQLite file with a fake clock: lobby, play, privacy,
prompts, computer seats, deadlines, seat changes, pause, cancel, archive, faults."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from rules import pyramids
from service import INTERNAL_ERROR, OLD_BUTTON, GameService, Outcome
from service import core as core_module
from service.scheduler import FakeClock
from service.sql import Q
from tests.bot.helpers import HOST, make_service, new_game, phase, play_until, step

T0 = 1_700_000_000.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
async def svc(tmp_path: Path, clock: FakeClock):
    service = await make_service(tmp_path / "games.db", clock)
    yield service
    await service.close()


def listen(svc: GameService) -> list[Outcome]:
    got: list[Outcome] = []

    async def listener(outcome: Outcome) -> None:
        got.append(outcome)

    svc.add_listener(listener)
    return got


async def play_out(svc: GameService, gid: int, rng: random.Random) -> None:
    """People answer their prompts at random (computers play theirs) until none is open."""
    for _ in range(300):
        await svc.idle(gid)
        if await step(svc, gid, rng) is None:
            break
    await svc.idle(gid)


def db_rows(path: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


# ---------------------------------------------------------------------- lobby
async def test_lobby_join_leave_and_refusals(svc: GameService) -> None:
    out = await svc.open_lobby(channel_id=5, host_id=HOST, host_name="Ann", max_players=3)
    assert out.ok and out.lobby is not None
    gid = out.game_id
    assert gid is not None
    assert [s.name for s in out.lobby.seats] == ["Ann"]
    assert out.lobby.expires_at == T0 + 3600

    again = await svc.open_lobby(channel_id=5, host_id=102, host_name="Bob")
    assert not again.ok and "already open in this channel" in (again.error or "")

    assert (await svc.join(gid, 102, "Bob", power="France")).ok  # by name
    dup = await svc.join(gid, 102, "Bob")
    assert not dup.ok and "already" in (dup.error or "")
    taken = await svc.join(gid, 103, "Cy", power="france_allies")
    assert not taken.ok and "already chose that power" in (taken.error or "")
    unknown = await svc.join(gid, 103, "Cy", power="Atlantis")
    assert not unknown.ok and "Unknown power" in (unknown.error or "")
    assert (await svc.join(gid, 103, "Cy")).ok
    full = await svc.join(gid, 104, "Di")
    assert not full.ok and "full" in (full.error or "")

    not_host = await svc.start_game(gid, 102)
    assert not not_host.ok and "Only the host" in (not_host.error or "")

    left = await svc.leave(gid, HOST)
    assert left.ok and left.lobby is not None and left.lobby.host_id == 102
    assert "Bob is now the host." in left.public_lines
    assert (await svc.leave(gid, 103)).ok
    closed = await svc.leave(gid, 102)
    assert closed.ok and closed.status == "cancelled"
    assert await svc.active_game(5) is None


async def test_start_deals_seats_and_asks_every_player_to_place(svc: GameService) -> None:
    gid, out = await new_game(svc, humans=3)
    assert out.kind == "start" and out.board_due and out.status == "running"
    assert out.public_lines[0].startswith("Seat order:")
    assert sorted(p.user_id for p in out.prompts) == [101, 102, 103]  # type: ignore[type-var]  # all humans
    for p in out.prompts:
        assert p.kind == "setup" and len(p.choices) == 6 and p.deadline == T0 + 600
        assert len(p.labels) == 6 and p.labels[0].startswith("Large on ")
    assert set(out.mentions) == {101, 102, 103}
    assert sorted(out.names) == ["P101", "P102", "P103"]  # by engine seat, for the renderer
    assert not (await svc.join(gid, 104, "Late")).ok


async def test_server_cap_and_settings(tmp_path: Path, svc: GameService) -> None:
    with pytest.raises(ValueError, match="max_games"):
        await svc.update_guild_settings(9, max_games=0)
    s = await svc.update_guild_settings(
        9,
        max_games=1,
        turn_timeout=600.0,
        options={"turn_timeout_action": "arm", "diplomacy_seconds": 10},
    )
    assert (await svc.guild_settings(9)) == s
    assert (await svc.open_lobby(channel_id=1, host_id=HOST, host_name="A", guild_id=9)).ok
    capped = await svc.open_lobby(channel_id=2, host_id=HOST, host_name="A", guild_id=9)
    assert not capped.ok and "limit" in (capped.error or "")
    gid = await svc.active_game(1)
    assert gid is not None
    st = await svc.status(gid)
    assert st.status == "lobby"
    rows = db_rows(tmp_path / "games.db", "SELECT settings FROM games WHERE id = ?", gid)
    assert '"turn_timeout":600.0' in str(rows[0][0])
    assert '"turn_timeout_action":"arm"' in str(rows[0][0])
    assert '"diplomacy_seconds":10' in str(rows[0][0])


# ---------------------------------------------------------------------- playing
async def test_refused_actions_name_the_rule_and_write_nothing(
    tmp_path: Path, svc: GameService
) -> None:
    gid, _ = await new_game(svc, humans=3)
    rng = random.Random(1)
    await play_until(svc, gid, rng, "turn")
    prompts = await svc.prompts(gid)
    (turn,) = prompts
    other = next(u for u in (101, 102, 103) if u != turn.user_id)
    version = (await svc.status(gid)).version

    not_yours = await svc.act(gid, other, pyramids.Pass())
    assert not not_yours.ok and (not_yours.error or "").startswith("Not your turn")
    assert turn.user_id is not None
    illegal = await svc.act(gid, turn.user_id, pyramids.Conscript("nowhere"))
    assert not illegal.ok and "Unknown field" in (illegal.error or "")
    stranger = await svc.act(gid, 999, pyramids.Pass())
    assert not stranger.ok and "not playing" in (stranger.error or "")
    assert (await svc.status(gid)).version == version
    assert db_rows(tmp_path / "games.db", "SELECT COUNT(*) FROM actions")[0][0] == version

    ok = await svc.answer(gid, turn.user_id, turn.version, pyramids.Pass())
    assert ok.ok and ok.version == version + 1 and ok.board_due
    twice = await svc.answer(gid, turn.user_id, turn.version, pyramids.Pass())
    assert not twice.ok and twice.error == OLD_BUTTON


async def test_nothing_private_reaches_the_channel(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=3, options={"round_limit": 6})
    rng = random.Random(3)
    saw_private = saw_spy = False
    for _ in range(400):
        out = await step(svc, gid, rng, prefer=rng.choice(["spy", "attack", None]))
        if out is None:
            break
        assert all(e.to is None for e in out.events)
        assert out.spectator_view is not None and out.spectator_view.hand is None
        private_lines = {line for note in out.private.values() for line in note.lines}
        assert not private_lines & set(out.public_lines)
        assert not any(line.startswith(("You received", "Your")) for line in out.public_lines)
        for user, note in out.private.items():
            assert note.user_id == user and note.view.viewer == note.seat
            assert (await svc.view(gid, user)).seat == note.seat
            saw_private |= bool(note.lines)
            saw_spy |= any(" holds: " in line for line in note.lines)
        if out.game_over:
            break
    assert saw_private and saw_spy


async def test_hands_go_to_their_owners_when_they_change(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=3)
    rng = random.Random(5)
    out = None
    while await phase(svc, gid) == "setup":
        out = await step(svc, gid, rng)
    assert out is not None  # the last placement dealt the cards
    assert set(out.private) == {101, 102, 103}
    for note in out.private.values():
        assert note.hand_changed and note.view.hand is not None
        assert len(note.view.hand) in (5, 6)
        assert any(line.startswith("You received") for line in note.lines)


async def test_diplomacy_offers_stop_with_k_to_everyone(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=4)
    await play_until(svc, gid, random.Random(2), "diplomacy", prefer="attack")
    await svc.idle(gid)  # nobody is passed for what they hold (EW-15): the window waits
    battle = (await svc.status(gid)).view.battle
    assert battle is not None and len(battle.waiting_for) == 2
    prompts = await svc.prompts(gid)
    assert len(prompts) == 2 and {p.kind for p in prompts} == {"diplomacy"}
    for p in prompts:
        assert p.choices[0] == pyramids.StopAttack(False) and pyramids.LetPass() in p.choices
        assert "Stop it with a K" in p.text and p.deadline == svc.clock.now() + 30
        assert p.user_id is not None
        view = (await svc.view(gid, p.user_id)).view
        holds_k = any(pyramids.cards.rank(c) == pyramids.cards.KING for c in view.hand or ())
        if not holds_k:
            version = (await svc.status(gid)).version
            refused = await svc.answer(gid, p.user_id, p.version, pyramids.StopAttack(False))
            assert not refused.ok and "EW-13" in (refused.error or "")
            assert (await svc.status(gid)).version == version
    first, second = prompts
    assert (await svc.answer(gid, first.user_id or 0, first.version, pyramids.LetPass())).ok
    # the other's prompt is still good: the window is one decision (EW-15)
    assert (await svc.answer(gid, second.user_id or 0, second.version, pyramids.LetPass())).ok
    assert await phase(svc, gid) == "duel"


# ---------------------------------------------------------------------- computers
async def test_computers_play_their_seats_and_report_each_move(svc: GameService) -> None:
    got = listen(svc)
    gid, _ = await new_game(svc, humans=1, computers=2)
    rng = random.Random(4)
    for _ in range(60):
        await svc.idle(gid)
        if await step(svc, gid, rng) is None:
            break
    await svc.idle(gid)
    moves = [o for o in got if o.kind == "computer"]
    assert len(moves) > 10
    versions = [o.version for o in got if o.game_id == gid and o.version]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert all(o.ok and o.public_lines for o in moves)
    # after quiescence, either the game is over or a person must decide
    st = await svc.status(gid)
    assert st.status == "finished" or await svc.prompts(gid)


async def test_computer_moves_are_deterministic(tmp_path: Path) -> None:
    logs = []
    for name in ("a.db", "b.db"):
        svc = await make_service(tmp_path / name, FakeClock(T0))
        gid, _ = await new_game(svc, humans=1, computers=3, seed=99, options={"round_limit": 5})
        await svc.resign(gid, HOST)
        await svc.idle(gid)
        assert (await svc.status(gid)).status == "finished"
        logs.append(await svc.log(gid, 200))
        await svc.close()
    assert logs[0] == logs[1] and len(logs[0]) > 20


async def test_computers_answer_diplomacy_after_a_delay_whatever_they_hold(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    svc = await make_service(tmp_path / "g.db", clock, computer_answer_delay=(1.0, 5.0))
    try:
        gid, _ = await new_game(svc, humans=2, computers=2, seed=11)
        rng = random.Random(8)
        for _ in range(500):
            await svc.idle(gid)
            st = await svc.status(gid)
            b = st.view.battle if st.view else None
            if (
                b is not None
                and b.stage == "diplomacy"
                and any(st.seats[s].computer_level for s in b.waiting_for)
            ):
                break
            if await step(svc, gid, rng, prefer="attack") is None:
                clock.advance(5)
        else:
            raise AssertionError("no diplomacy window with a computer")
        waiting = set(b.waiting_for)
        bots = {s for s in waiting if st.seats[s].computer_level}
        clock.advance(0.99)
        await svc.idle(gid)
        assert set((await svc.status(gid)).view.battle.waiting_for) == waiting
        clock.advance(4.02)
        await svc.idle(gid)
        now = (await svc.status(gid)).view
        assert now is not None
        answered = waiting - set(
            now.battle.waiting_for if now.battle and now.battle.stage == "diplomacy" else ()
        )
        assert bots <= answered
    finally:
        await svc.close()


# ---------------------------------------------------------------------- deadlines
async def test_an_expired_turn_passes_with_one_reminder_first(
    tmp_path: Path, clock: FakeClock, svc: GameService
) -> None:
    got = listen(svc)
    gid, _ = await new_game(svc, humans=2)
    await play_until(svc, gid, random.Random(1), "turn")
    (turn,) = await svc.prompts(gid)
    assert turn.deadline == clock.now() + 12 * 3600
    clock.advance(11 * 3600 + 1)
    await svc.idle(gid)
    assert [o.kind for o in got] == ["reminder"]
    assert got[0].prompts[0].user_id == turn.user_id and got[0].mentions == (turn.user_id,)
    clock.advance(1800)
    await svc.idle(gid)
    assert len(got) == 1  # one reminder only
    clock.advance(1800)
    await svc.idle(gid)
    assert [o.kind for o in got] == ["reminder", "timeout"]
    assert any("ran out of time" in line for line in got[1].public_lines)
    assert any(e.kind == "passed" for e in got[1].events)
    sources = db_rows(tmp_path / "games.db", "SELECT source FROM actions ORDER BY seq")
    assert sources[-1] == ("timeout",)


async def test_an_expired_turn_arms_when_the_server_says_so(
    clock: FakeClock, svc: GameService
) -> None:
    got = listen(svc)
    await svc.update_guild_settings(3, options={"turn_timeout_action": "arm"}, turn_timeout=300.0)
    gid, _ = await new_game(svc, humans=2, guild=3)
    await play_until(svc, gid, random.Random(1), "turn")
    clock.advance(301)
    await svc.idle(gid)
    assert [o.kind for o in got] == ["timeout"]
    assert any(e.kind == "armed" for e in got[0].events)
    assert any(n.hand_changed for n in got[0].private.values())


async def test_an_expired_world_war_5_turn_gets_a_computer_move(
    tmp_path: Path, clock: FakeClock, svc: GameService
) -> None:
    got = listen(svc)
    gid, _ = await new_game(svc, humans=2, variant="world_war_5", turn_timeout=300.0)
    await play_until(svc, gid, random.Random(1), "turn")
    version = (await svc.status(gid)).version
    clock.advance(301)
    await svc.idle(gid)
    timeouts = [o for o in got if o.kind == "timeout"]
    assert timeouts and "a computer move was made" in timeouts[0].public_lines[0]
    assert "(WW-2)" in timeouts[0].public_lines[0]
    moved = {e.kind for e in timeouts[0].events}
    assert moved & {"grew", "built", "moved", "attack_declared"}
    assert (await svc.status(gid)).version > version
    assert db_rows(tmp_path / "games.db", "SELECT source FROM actions ORDER BY seq")[-1] == (
        "timeout",
    )


async def test_pause_stops_timers_and_resume_restarts_them_in_full(
    clock: FakeClock, svc: GameService
) -> None:
    got = listen(svc)
    gid, _ = await new_game(svc, humans=2, turn_timeout=600.0)
    await play_until(svc, gid, random.Random(1), "turn")
    assert not (await svc.pause(gid, 102)).ok  # not the host
    paused = await svc.pause(gid, HOST)
    assert paused.ok and all(d.deadline is None for d in paused.decisions)
    clock.advance(10_000)
    await svc.idle(gid)
    assert got == []
    resumed = await svc.resume(gid, HOST)
    assert resumed.ok
    assert [d.deadline for d in resumed.decisions] == [clock.now() + 600]
    assert resumed.prompts
    clock.advance(599)
    await svc.idle(gid)
    assert got == []
    clock.advance(2)
    await svc.idle(gid)
    assert [o.kind for o in got] == ["timeout"]


async def test_an_abandoned_lobby_expires(clock: FakeClock, svc: GameService) -> None:
    got = listen(svc)
    out = await svc.open_lobby(channel_id=8, host_id=HOST, host_name="A")
    clock.advance(1800)
    assert out.game_id is not None
    assert (await svc.join(out.game_id, 102, "B")).ok  # activity: expiry moves on
    clock.advance(1800)
    await svc.idle()
    assert got == []
    clock.advance(1801)
    await svc.idle()
    assert [o.kind for o in got] == ["expired"]
    assert await svc.active_game(8) is None
    assert (await svc.open_lobby(channel_id=8, host_id=HOST, host_name="A")).ok


# ---------------------------------------------------------------------- seats, draws, end
async def test_resign_hands_the_seat_to_a_computer(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=2, options={"round_limit": 4})
    out = await svc.resign(gid, 102)
    assert out.ok and "resigned" in out.public_lines[0]
    st = await svc.status(gid)
    assert [s.computer_level for s in st.seats].count("normal") == 1
    assert not (await svc.act(gid, 102, pyramids.Pass())).ok
    await play_out(svc, gid, random.Random(6))
    assert (await svc.status(gid)).status == "finished"


async def test_the_host_hands_a_seat_to_another_person(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=2)
    prompts = await svc.prompts(gid)
    victim = next(p for p in prompts if p.user_id == 102)
    assert not (await svc.replace_seat(gid, 102, victim.seat, user_id=300, name="Zoe")).ok
    dup = await svc.replace_seat(gid, HOST, victim.seat, user_id=HOST, name="Me")
    assert not dup.ok and "already holds a seat" in (dup.error or "")
    out = await svc.replace_seat(gid, HOST, victim.seat, user_id=300, name="Zoe")
    assert out.ok and out.prompts and out.prompts[0].user_id == 300
    assert not (await svc.act(gid, 102, victim.choices[0])).ok
    assert (await svc.answer(gid, 300, out.prompts[0].version, out.prompts[0].choices[0])).ok


async def test_all_people_agreeing_ends_the_game_as_a_draw(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=2, computers=1)
    one = await svc.agree_draw(gid, HOST)
    assert one.ok and not one.game_over and "(1 of 2)" in one.public_lines[0]
    assert (await svc.agree_draw(gid, HOST, agree=False)).ok
    assert (await svc.agree_draw(gid, 102)).ok
    assert (await svc.status(gid)).status == "running"
    done = await svc.agree_draw(gid, HOST)
    assert done.ok and done.game_over
    assert "The game ends in a draw (agreed draw)." in done.public_lines
    st = await svc.status(gid)
    assert st.status == "finished" and st.result is not None and st.result["draw"]


async def test_cancel_keeps_history_and_stops_timers(
    tmp_path: Path, clock: FakeClock, svc: GameService
) -> None:
    got = listen(svc)
    gid, _ = await new_game(svc, humans=2)
    assert not (await svc.cancel(gid, 102)).ok
    assert (await svc.cancel(gid, 102, is_admin=True)).ok
    clock.advance(86400)
    await svc.idle()
    assert got == []
    assert (await svc.status(gid)).status == "cancelled"
    assert db_rows(tmp_path / "games.db", "SELECT COUNT(*) FROM decisions") == [(0,)]
    assert (await svc.open_lobby(channel_id=1, host_id=HOST, host_name="A")).ok


async def test_archiving_and_deleting_a_servers_data(
    tmp_path: Path, clock: FakeClock, svc: GameService
) -> None:
    got = listen(svc)
    a, _ = await new_game(svc, humans=2, channel=1, guild=4)
    b, _ = await new_game(svc, humans=2, channel=2, guild=4)
    assert await svc.archive_channel(1) == [a]
    assert (await svc.status(a)).status == "archived"
    assert (await svc.status(b)).status == "running"
    clock.advance(86400)
    await svc.idle()
    assert {o.game_id for o in got} == {b}  # only b's timers still ran
    assert await svc.delete_guild_data(4) == 2
    assert db_rows(tmp_path / "games.db", "SELECT COUNT(*) FROM actions") == [(0,)]


# ---------------------------------------------------------------------- queries
async def test_status_view_and_log(svc: GameService) -> None:
    gid, _ = await new_game(svc, humans=3)
    await play_until(svc, gid, random.Random(9), "turn")
    st = await svc.status(gid)
    assert st.view is not None and st.view.hand is None
    assert any(line.startswith("Waiting for") for line in st.lines)
    hands = [line for line in st.lines if " cards, supply " in line]
    assert len(hands) == 3 and all(": 5 cards" in h or ": 6 cards" in h for h in hands)
    mine = await svc.view(gid, 101)
    assert mine.view.hand is not None and mine.seat is not None
    spectator = await svc.view(gid, 999)
    assert spectator.seat is None and spectator.view.hand is None
    public = await svc.log(gid, 50)
    own = await svc.log(gid, 50, user_id=101)
    assert public[0].startswith("Seat order:")
    assert not any(line.startswith("You received") for line in public)
    assert any(line.startswith("You received") for line in own)
    assert len(await svc.log(gid, 3)) == 3


async def test_world_war_5_plays_to_the_end(svc: GameService) -> None:
    gid, _ = await new_game(
        svc, humans=1, computers=2, variant="world_war_5", options={"round_limit": 8}
    )
    await play_out(svc, gid, random.Random(2))
    assert (await svc.status(gid)).status == "finished"


# ---------------------------------------------------------------------- faults
async def test_an_unexpected_error_leaves_the_stored_game_as_it_was(
    tmp_path: Path, svc: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _ = await new_game(svc, humans=2)
    await play_until(svc, gid, random.Random(1), "turn")
    (turn,) = await svc.prompts(gid)
    assert turn.user_id is not None
    path = tmp_path / "games.db"
    before = db_rows(path, "SELECT version, revision, state FROM games")
    decisions = db_rows(path, "SELECT * FROM decisions ORDER BY seat, kind")

    # a fault inside the transaction (after the action row was written) ...
    monkeypatch.setattr(Q, "upsert_decision", "INSERT INTO nowhere VALUES (?)")
    out = await svc.answer(gid, turn.user_id, turn.version, pyramids.Arm())
    assert not out.ok and out.error == INTERNAL_ERROR
    monkeypatch.undo()

    # ... and one while building the outcome
    def boom(*a: object, **k: object) -> list[str]:
        raise RuntimeError("boom")

    monkeypatch.setattr(core_module, "describe_all", boom)
    out = await svc.answer(gid, turn.user_id, turn.version, pyramids.Arm())
    assert not out.ok and out.error == INTERNAL_ERROR
    monkeypatch.undo()

    assert db_rows(path, "SELECT version, revision, state FROM games") == before
    assert db_rows(path, "SELECT * FROM decisions ORDER BY seat, kind") == decisions
    assert db_rows(path, "SELECT COUNT(*) FROM actions")[0][0] == before[0][0]
    again = await svc.answer(gid, turn.user_id, turn.version, pyramids.Arm())
    assert again.ok and again.version == int(before[0][0]) + 1  # type: ignore[call-overload]  # a stored row


async def test_a_computer_choice_is_dropped_if_a_person_takes_the_seat_meanwhile(
    tmp_path: Path,
) -> None:
    release = threading.Event()
    asked = threading.Event()

    def slow(
        game: str, view: pyramids.View, legal: Sequence[pyramids.Action], level: str, seed: int
    ) -> pyramids.Action:
        asked.set()
        release.wait(5)
        return legal[0]

    svc = await make_service(tmp_path / "g.db", FakeClock(T0), chooser=slow)
    try:
        gid, out = await new_game(svc, humans=1, computers=1)
        bot_seat = next(s.seat for s in (await svc.status(gid)).seats if s.computer_level)
        assert bot_seat is not None
        await asyncio.to_thread(asked.wait, 5)
        taken = await svc.replace_seat(gid, HOST, bot_seat, user_id=555, name="Neo")
        assert taken.ok and taken.prompts and taken.prompts[0].user_id == 555
        release.set()
        await svc.idle(gid)
        st = await svc.status(gid)
        assert st.version == out.version  # the computer's placement was not applied
        assert any(p.user_id == 555 for p in await svc.prompts(gid))
    finally:
        release.set()
        await svc.close()


async def test_a_corrupt_game_is_left_out_at_startup_and_the_rest_run(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    svc = await make_service(path, FakeClock(T0))
    a, _ = await new_game(svc, humans=2, channel=1)
    b, _ = await new_game(svc, humans=2, channel=2)
    await svc.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET state = '{\"schema\": 99}' WHERE id = ?", (a,))
    conn.commit()
    conn.close()
    svc = await make_service(path, FakeClock(T0))
    try:
        assert (await svc.status(b)).status == "running"
        (p, *_) = await svc.prompts(b)
        assert (await svc.answer(b, p.user_id or 0, p.version, p.choices[0])).ok
        broken = await svc.act(a, HOST, pyramids.Pass())
        assert not broken.ok and broken.error == INTERNAL_ERROR
    finally:
        await svc.close()


async def test_a_table_without_clocks(clock: FakeClock, svc: GameService) -> None:
    got = listen(svc)
    bad = await svc.open_lobby(channel_id=3, host_id=HOST, host_name="A", timeouts={"lunch": 5.0})
    assert not bad.ok and "lunch" in (bad.error or "")
    gid, out = await new_game(
        svc,
        humans=2,
        channel=3,
        turn_timeout=None,
        timeouts={"setup": None, "duel": None, "retreat": None},
        reminder_lead=0,
    )
    assert all(p.deadline is None for p in out.prompts)
    await play_until(svc, gid, random.Random(3), "turn")
    clock.advance(30 * 86400)
    await svc.idle(gid)
    assert got == [] and not svc.busy(gid)
