"""Taking an action back through ``service.GameService`` on a real SQLite file: who may,
when, what comes back (state, decisions and deadlines, the player's prompt), what the log
keeps, a restart after it, and every refusal with its reason."""

from __future__ import annotations

from pathlib import Path

from rules import contract
from service import GameService, Outcome
from service.models import standing
from service.scheduler import FakeClock
from tests.bot.helpers import logged_turn, make_service, new_game

ANN, BOB, CY = 101, 102, 103


async def first_prompt(svc: GameService, gid: int) -> tuple[int, int, object]:
    """(user, version, first choice) of the first person asked now."""
    p = (await svc.prompts(gid))[0]
    assert p.user_id is not None
    return p.user_id, p.version, p.choices[0]


def snapshot(svc: GameService, gid: int) -> dict[str, object]:
    live = svc._games[gid]
    assert live.state is not None
    return live.state.to_dict()


async def placed(svc: GameService, gid: int, last: bool = False) -> tuple[int, Outcome]:
    """The person asked places (EW-5; their first choice, or ``last``); returns who and
    the outcome."""
    p = (await svc.prompts(gid))[0]
    user, version, choice = p.user_id, p.version, p.choices[-1 if last else 0]
    assert user is not None
    out = await svc.answer(gid, user, version, choice)
    assert out.ok, out.error
    return user, out


async def test_a_placement_is_taken_back_and_everything_comes_back(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 3)
    before = snapshot(svc, gid)
    deadlines = {k: d.due_at for k, d in svc._games[gid].decisions.items()}
    user, out = await placed(svc, gid)
    assert out.undo_until == clock.now() + 30
    clock.advance(10)
    undone = await svc.undo(gid, user)
    assert undone.ok, undone.error
    assert undone.kind == "undo" and undone.board_due
    who = undone.names[svc._games[gid].seat_of(user) or 0]
    assert undone.public_lines[0].startswith(f"{who} took back: ")
    assert snapshot(svc, gid) == before
    assert {k: d.due_at for k, d in svc._games[gid].decisions.items()} == deadlines
    [prompt] = undone.prompts  # asked again (only they), with a prompt that stands
    assert prompt.user_id == user and prompt.version == undone.version == 2
    log = await svc.store.actions(gid)
    assert [(a.seq, a.undoes) for a in log] == [(1, None), (2, 1)]
    assert standing(log) == []
    again = await svc.answer(gid, user, prompt.version, prompt.choices[0])
    assert again.ok, again.error
    await svc.close()


async def test_a_restart_loads_the_game_as_before_the_undone_action(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 3)
    before = snapshot(svc, gid)
    user, _ = await placed(svc, gid)
    assert (await svc.undo(gid, user)).ok
    await svc.close()
    svc = await make_service(tmp_path / "g.db", clock)
    assert snapshot(svc, gid) == before
    assert user in {p.user_id for p in await svc.prompts(gid)}
    status = await svc.status(gid)
    assert status.version == 2
    assert not (await svc.undo(gid, user)).ok  # once only
    await svc.close()


async def test_undo_survives_a_restart_within_its_time(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 3)
    before = snapshot(svc, gid)
    user, out = await placed(svc, gid)
    await svc.close()
    svc = await make_service(tmp_path / "g.db", clock)
    undone = await svc.undo(gid, user, seq=out.version)
    assert undone.ok, undone.error
    assert snapshot(svc, gid) == before
    await svc.close()


async def test_the_undo_open_now_is_the_latest_undoable_action_within_its_time(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 3)
    assert await svc.undo_open(gid) is None  # nobody has moved
    assert await svc.undo_open(gid + 99) is None  # no such game
    _user, out = await placed(svc, gid)
    assert await svc.undo_open(gid) == (out.version, out.undo_until)
    clock.advance(30)
    assert await svc.undo_open(gid) == (out.version, out.undo_until)  # its last second
    clock.advance(0.5)
    assert await svc.undo_open(gid) is None
    _second, out = await placed(svc, gid)
    assert await svc.undo_open(gid) == (out.version, out.undo_until)
    await svc.close()
    svc = await make_service(tmp_path / "g.db", clock)  # a restart knows it too
    assert await svc.undo_open(gid) == (out.version, out.undo_until)
    assert (await svc.pause(gid, ANN)).ok  # a pause changes the game: nothing to undo
    assert await svc.undo_open(gid) is None
    assert (await svc.resume(gid, ANN)).ok
    third, out = await placed(svc, gid)
    assert (await svc.undo(gid, third)).ok is False  # the last placement revealed cards
    assert await svc.undo_open(gid) is None
    await svc.close()


async def test_refusals_say_why_and_change_nothing(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 3)
    nobody = await svc.undo(gid, ANN)
    assert nobody.error == "Nothing to undo: nobody has moved yet."
    first, out = await placed(svc, gid)
    names = out.names
    other = next(u for u in (ANN, BOB, CY) if u != first)
    first_name = names[svc._games[gid].seat_of(first) or 0]
    version = out.version

    refused = await svc.undo(gid, other, seq=version)
    assert refused.error == f"Only {first_name} may take back that action."
    refused = await svc.undo(gid, 999)
    assert refused.error == "You are not playing in this game."
    clock.advance(31)
    refused = await svc.undo(gid, first)
    assert refused.error == "Too late to undo: an action can be taken back within 30 s only."
    assert (await svc.status(gid)).version == version

    second, _ = await placed(svc, gid)
    second_name = names[svc._games[gid].seat_of(second) or 0]
    refused = await svc.undo(gid, first, seq=version)
    assert refused.error == f"Nothing to undo: {second_name} has moved since."
    refused = await svc.undo(gid, first)
    assert refused.error == f"Nothing to undo: {second_name} has moved since."

    assert (await svc.pause(gid, ANN)).ok
    assert (await svc.resume(gid, ANN)).ok
    refused = await svc.undo(gid, second)
    assert refused.error == (
        "Nothing to undo: the game changed since (a pause, a seat or a draw vote)."
    )

    # the last placement deals the hands (EW-6): it revealed cards
    third, out3 = await placed(svc, gid)
    assert out3.undo_until is None
    refused = await svc.undo(gid, third)
    assert refused.error is not None and refused.error.startswith(
        "Your last action cannot be taken back: it revealed something"
    )
    assert (await svc.status(gid)).version == out3.version
    assert [a.undoes for a in await svc.store.actions(gid)] == [None, None, None]
    await svc.close()


async def test_twice_in_a_row_is_refused(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 3)
    user, _ = await placed(svc, gid)
    assert (await svc.undo(gid, user)).ok
    assert await svc.undo_open(gid) is None
    refused = await svc.undo(gid, user)
    assert refused.error == "Nothing to undo: the last action was already taken back."
    await svc.close()


async def test_a_computer_that_moved_makes_the_undo_moot(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 1, 1, variant="world_war_5", seed=3)
    await svc.idle(gid)
    live = svc._games[gid]
    while not (await svc.prompts(gid)):
        await svc.idle(gid)
    user, out = await placed(svc, gid)  # WW-6: a small placed, then the computer's turn
    assert out.undo_until is not None
    await svc.idle(gid)
    assert live.version > out.version
    computer = live.names()[1 - (live.seat_of(user) or 0)]
    refused = await svc.undo(gid, user)
    assert refused.error == f"Nothing to undo: {computer} has moved since."
    await svc.close()


async def test_a_computer_due_after_the_action_moves_from_the_position_put_back(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock, computer_pacing=5.0)
    gid, _ = await new_game(svc, 1, 1, variant="world_war_5", seed=3)
    while not (await svc.prompts(gid)):
        clock.advance(5)
        await svc.idle(gid)
    live = svc._games[gid]
    before = snapshot(svc, gid)
    user, out = await placed(svc, gid)
    undone = await svc.undo(gid, user)  # the computer waits its pacing: not yet moved
    assert undone.ok, undone.error
    assert snapshot(svc, gid) == before
    clock.advance(5)
    await svc.idle(gid)
    assert live.version == out.version + 1  # nobody moved: it is the person's turn again
    seat = live.seat_of(user)
    assert [d.seat for d in live.decisions.values()] == [seat]
    state = live.state
    assert state is not None and [d.seat for d in state.deciders()] == [seat]
    assert contract.game_named("world_war_5") is live.game
    await svc.close()


async def test_the_board_shows_the_turn_as_it_was_also_after_a_restart(tmp_path: Path) -> None:
    # the turn's events (what a board shows) skip the action taken back, whether the
    # service remembers them or plays the log's standing actions again after a restart
    clock = FakeClock()
    svc = await make_service(tmp_path / "g.db", clock)
    gid, _ = await new_game(svc, 2, variant="world_war_5")
    _, first = await placed(svc, gid)  # WW-6: the setup's placements are one group
    user, second = await placed(svc, gid)
    assert len(second.board_events) == len(first.board_events) + 1
    undone = await svc.undo(gid, user)
    assert undone.board_events == first.board_events
    user, again = await placed(svc, gid)
    expected = logged_turn(standing(await svc.store.actions(gid)))
    assert again.board_events == expected and len(expected) == len(second.board_events)
    await svc.close()

    svc = await make_service(tmp_path / "g.db", clock)
    undone = await svc.undo(gid, user)  # no turn remembered: the log is played again
    assert undone.ok, undone.error
    assert undone.board_events == first.board_events
    _, last = await placed(svc, gid)
    assert last.board_events == logged_turn(standing(await svc.store.actions(gid)))
    await svc.close()


async def test_a_replay_and_the_log_leave_out_what_was_taken_back(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db", FakeClock())
    gid, _ = await new_game(svc, 2, variant="world_war_5", guild=5)
    _, first = await placed(svc, gid)
    user, taken = await placed(svc, gid)
    assert (await svc.undo(gid, user)).ok
    _, again = await placed(svc, gid, last=True)
    assert again.public_lines != taken.public_lines
    replay = await svc.replay(gid)
    # the start and two placements: the one taken back is no step of it
    assert replay.actions == 2 and len(replay.steps) == 3
    assert replay.steps[-1].view == (await svc.status(gid)).view
    assert [line for s in replay.steps[1:] for line in s.lines] == [
        *first.public_lines,
        *again.public_lines,
    ]
    told = await svc.log(gid, 10)
    assert taken.public_lines[0] not in told
    assert first.public_lines[0] in told and again.public_lines[0] in told
    await svc.close()
