"""A third game, Claim the Line (``tests/games/claim_line.py``), played to the end through
``service.GameService`` on a real SQLite file. The service knows it only through the
registry, its contract and its presentation spec: nothing in ``service/`` names it.

It covers a lobby with the game's option (and a server default for it), seats and a
computer, the game's timings (the turn on the table's turn time, the contest window on
its option), an out-of-turn window with several deciders (the computer answering after
its seeded delay), the game's ``on_timeout`` for a window and for a turn, prompts and
private lines kept out of the public parts, status, the log, a restart that reloads the
game, and the result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service import OLD_BUTTON, GameService, Outcome
from service.scheduler import FakeClock
from tests.bot.helpers import collector, make_service
from tests.games.claim_line import Allow, Claim, ClaimState, Contest

T0 = 1_700_000_000.0
ANN, BOB = 101, 102
GUILD = 7
SEED = 2
"""Deals Ann (seat 0) a 3, Bob (seat 1) a 6 and the computer (seat 2) a 1; Ann starts."""


pytestmark = pytest.mark.usefixtures("claim_line")


def public_text(outcome: Outcome) -> str:
    """Everything an outcome puts in the channel."""
    return "\n".join([*outcome.public_lines, *outcome.status_lines, outcome.result_line or ""])


def check_private_stays_private(outcome: Outcome) -> None:
    """No private line, prompt or card of a hand reaches the public parts."""
    public = public_text(outcome)
    assert all(e.to is None for e in outcome.events)
    assert "Your card" not in public
    for note in outcome.private.values():
        assert all(line not in outcome.public_lines for line in note.lines)
        assert all(line not in public for line in note.private_lines)
    for prompt in outcome.prompts:
        assert prompt.text not in public


async def open_table(svc: GameService) -> int:
    """Ann opens a Claim the Line table, Bob joins as nought, a computer sits down."""
    out = await svc.update_guild_settings(
        GUILD, options={"window_seconds": 20, "diplomacy_seconds": 10}
    )
    assert dict(out.options) == {"window_seconds": 20, "diplomacy_seconds": 10}

    async def open_claim_line(**extra: Any) -> Outcome:
        return await svc.open_lobby(
            channel_id=1,
            host_id=ANN,
            host_name="Ann",
            guild_id=GUILD,
            variant="claim_line",
            **extra,
        )

    bad = await open_claim_line(options={"sea_attacks": True})
    assert not bad.ok and "one option: window_seconds" in (bad.error or "")
    bad = await open_claim_line(timeouts={"duel": 60.0})
    assert not bad.ok and bad.error == "Unknown time limits: duel."

    opened = await open_claim_line(turn_timeout=600.0, host_power="Cross")
    assert opened.ok, opened.error
    gid = opened.game_id
    assert gid is not None and opened.lobby is not None
    # the server's default for the game's own option applies; the other game's does not
    assert dict(opened.lobby.options) == {"window_seconds": 20}
    assert opened.public_lines == (
        "Ann opened a Claim the Line table for 2–3 players. Join with /join; "
        "the host starts with /start.",
    )

    unknown = await svc.join(gid, BOB, "Bob", power="pyramid")
    assert not unknown.ok
    assert unknown.error == "Unknown mark 'pyramid'; choose one of Cross, Nought, Star."
    taken = await svc.join(gid, BOB, "Bob", power="cross")
    assert not taken.ok and taken.error == "Someone at the table already chose that mark."
    assert (await svc.join(gid, BOB, "Bob", power="nought")).ok

    refused = await svc.configure(gid, ANN, options={"window_seconds": 1})
    assert not refused.ok and "window_seconds must be between 5 and 600" in (refused.error or "")
    configured = await svc.configure(gid, ANN, options={"window_seconds": 25})
    assert configured.ok and configured.lobby is not None
    assert dict(configured.lobby.options) == {"window_seconds": 25}

    added = await svc.add_computer(gid, ANN, "normal")
    assert added.ok and added.lobby is not None
    assert [s.power_name for s in added.lobby.seats] == ["Cross", "Nought", None]
    return gid


async def test_claim_the_line_is_played_to_the_end_through_the_service(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    clock = FakeClock(T0)
    got, listener = collector()
    svc = await make_service(path, clock, listener, computer_answer_delay=(1.0, 5.0))
    gid = await open_table(svc)

    # ------------------------------------------------------------------ the start
    start = await svc.start_game(gid, ANN, seed=SEED)
    assert start.ok, start.error
    check_private_stays_private(start)
    assert start.variant == "claim_line" and start.board_due
    assert list(start.names) == ["Ann", "Bob", "Star (computer)"]
    assert start.public_lines == ("Ann claims first.",)
    assert start.private[ANN].lines == ("Your card is 3.",)
    assert start.private[ANN].private_lines == ("Your card: 3.",)
    assert start.private[BOB].lines == ("Your card is 6.",)
    assert start.status_lines == ("Holding a card: Ann, Bob, Star (computer).",)
    (turn,) = start.prompts
    assert (turn.user_id, turn.kind, turn.deadline) == (ANN, "turn", T0 + 600)
    assert turn.text == "Your turn: claim an empty cell (CL-1)."
    assert turn.labels[:2] == ("Claim a1", "Claim b1") and len(turn.choices) == 9

    # no agreed draw in this game: refused, nothing written
    draw = await svc.agree_draw(gid, ANN)
    assert not draw.ok and draw.error == "Claim the Line cannot end in a draw by agreement."

    # ------------------------------------------------------------------ a claim and a window
    claimed = await svc.act(gid, ANN, Claim("b2"), version=turn.version)
    assert claimed.ok, claimed.error
    check_private_stays_private(claimed)
    assert claimed.public_lines == ("Ann claims b2.",) and claimed.board_due
    window = {(d.seat, d.kind, d.deadline) for d in claimed.decisions}
    assert window == {(1, "respond", T0 + 25), (2, "respond", T0 + 25)}  # CL-5: 25 s
    (respond,) = claimed.prompts
    assert respond.user_id == BOB and respond.labels == ("Contest", "Allow")
    assert respond.text == "Ann claims b2: contest or allow (CL-3)."
    await svc.idle(gid)
    # the computer answers after its own seeded delay (1-5 s), not at once
    assert {d.seat for d in (await svc.status(gid)).decisions} == {1, 2}
    clock.advance(5.01)
    await svc.idle(gid)
    assert [o.kind for o in got] == ["computer"]
    assert {d.seat for d in (await svc.status(gid)).decisions} == {1}
    status = await svc.status(gid)
    assert status.lines[0] == "Claim the Line: running"
    assert "Claimed: b2 Ann." in status.lines
    assert status.lines[-1] == "Waiting for Bob (respond, 19 s left)."

    # Bob lets the window run out: the game's on_timeout allows for him (CL-4)
    clock.advance(20)
    await svc.idle(gid)
    assert [o.kind for o in got] == ["computer", "timeout"]
    timed_out = got[-1]
    check_private_stays_private(timed_out)
    assert timed_out.public_lines[0] == "Bob allowed the claim."
    assert "Claimed: b2 Ann." in (await svc.status(gid)).lines  # Ann's 3 beats any 1
    stale = await svc.answer(gid, BOB, respond.version, Contest())
    assert not stale.ok and stale.error == OLD_BUTTON

    # ------------------------------------------------------------------ Bob's turn, Ann contests
    (bob_turn,) = [p for p in await svc.prompts(gid) if p.user_id == BOB]
    assert bob_turn.kind == "turn" and Claim("b2") not in bob_turn.choices
    bobs = await svc.answer(gid, BOB, bob_turn.version, Claim("a1"))
    assert bobs.ok and bobs.public_lines == ("Bob claims a1.",)
    assert any(p.user_id == ANN and p.kind == "respond" for p in bobs.prompts)
    contested = await svc.act(gid, ANN, Contest())
    assert contested.ok, contested.error
    clock.advance(5.01)  # the computer, if it still holds its card, answers too
    await svc.idle(gid)
    settled = [contested, *got[2:]]
    for outcome in settled:
        check_private_stays_private(outcome)
    lines = [line for o in settled for line in o.public_lines]
    assert "Ann contested the claim." in lines
    reveal = next(line for line in lines if line.startswith("Cards shown:"))
    assert "Bob 6" in reveal and "Ann 3" in reveal and reveal.endswith("a1 goes to Bob.")
    spent = next(o for o in settled if ANN in o.private and o.private[ANN].hand_changed)
    assert spent.private[ANN].private_lines == ()  # Ann's card is spent
    mine = await svc.view(gid, ANN)
    assert mine.seat == 0 and mine.view.card is None and mine.private_lines == ()
    bob_view = await svc.view(gid, BOB)
    assert bob_view.private_lines == ("Your card: 6.",) and bob_view.variant == "claim_line"

    # the log: public lines for all, each player's own card for that player only
    ann_log = await svc.log(gid, 50, user_id=ANN)
    bob_log = await svc.log(gid, 50, user_id=BOB)
    spectator_log = await svc.log(gid, 50)
    assert ann_log[:2] == ["Your card is 3.", "Ann claims first."]
    assert "Your card is 6." not in ann_log and "Your card is 6." in bob_log
    assert not any(line.startswith("Your card") for line in spectator_log)
    assert "Bob claims a1." in spectator_log and "Bob allowed the claim." in spectator_log
    before = await svc.status(gid)
    prompts = await svc.prompts(gid)

    # ------------------------------------------------------------------ a restart
    await svc.close()
    got.clear()
    svc = await make_service(path, clock, listener, computer_answer_delay=(1.0, 5.0))
    try:
        await svc.idle(gid)
        after = await svc.status(gid)
        assert after.status == "running" and after.variant == "claim_line"
        assert (after.version, after.lines, after.decisions) == (
            before.version,
            before.lines,
            before.decisions,
        )
        assert await svc.prompts(gid) == prompts
        assert [s.power for s in after.seats] == ["cross", "nought", "star"]
        await finish(svc, clock, gid, got)
    finally:
        await svc.close()


async def finish(svc: GameService, clock: FakeClock, gid: int, got: list[Outcome]) -> None:
    """Play to the end: Bob resigns to a computer, Ann lets one turn time out (CL-4: the
    first free cell), then claims cells and allows; the computers play their own."""
    resigned = await svc.resign(gid, BOB)
    assert resigned.ok
    assert resigned.public_lines == (
        "Bob resigned; a computer now plays their seat as Nought (computer).",
    )
    timed_out_turn = False
    outcomes: list[Outcome] = [resigned]
    for _ in range(100):
        await svc.idle(gid)
        outcomes += got
        got.clear()
        status = await svc.status(gid)
        if status.status != "running":
            break
        open_prompts = await svc.prompts(gid)
        if not open_prompts:
            clock.advance(5.01)  # a computer's answer to a window is due
            continue
        prompt = open_prompts[0]
        assert prompt.user_id == ANN
        if prompt.kind == "turn" and not timed_out_turn:
            free = next(a for a in prompt.choices if isinstance(a, Claim))
            assert prompt.deadline is not None
            clock.set(prompt.deadline)
            await svc.idle(gid)
            expired = got[0]
            assert expired.kind == "timeout" and expired.public_lines[0] == (
                f"Ann claims {free.cell}."
            )
            timed_out_turn = True
            continue
        choice = prompt.choices[0] if prompt.kind == "turn" else Allow()
        out = await svc.answer(gid, ANN, prompt.version, choice)
        assert out.ok, out.error
        outcomes.append(out)
    else:
        raise AssertionError("the game did not end")
    assert timed_out_turn
    for outcome in outcomes:
        check_private_stays_private(outcome)
    final = outcomes[-1]
    assert final.game_over and final.status == "finished" and final.result_line is not None
    status = await svc.status(gid)
    assert status.status == "finished" and status.result is not None
    winners = [status.seats[s].name for s in status.result["winners"]]
    if status.result["draw"]:
        assert final.result_line == "A draw." and winners == []
    else:
        assert final.result_line == f"Winner: {winners[0]}."
        assert status.result["reason"] == "line"
    assert not (await svc.act(gid, ANN, Claim("c3"))).ok  # over: nothing more is taken


async def test_an_outcome_compares_with_the_views_its_previous_outcome_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        opened = await svc.open_lobby(
            channel_id=1, host_id=ANN, host_name="Ann", variant="claim_line"
        )
        gid = opened.game_id
        assert gid is not None and (await svc.join(gid, BOB, "Bob")).ok
        start = await svc.start_game(gid, ANN, seed=SEED)
        (turn,) = start.prompts
        assert turn.user_id is not None
        made: list[int | None] = []
        view_for = ClaimState.view_for

        def counted(state: ClaimState, seat: int | None) -> Any:
            made.append(seat)
            return view_for(state, seat)

        monkeypatch.setattr(ClaimState, "view_for", counted)
        claimed = await svc.act(gid, turn.user_id, Claim("b2"))
        assert claimed.ok and not any(n.hand_changed for n in claimed.private.values())
        # each seat's view and the spectator's of the new state, once; none of the old
        assert sorted(made, key=str) == [0, 1, None]
        status = await svc.status(gid)
        prompts = await svc.prompts(gid)
        assert status.view is claimed.spectator_view and prompts == list(claimed.prompts)
        assert sorted(made, key=str) == [0, 1, None]  # queries reuse them too
    finally:
        await svc.close()
