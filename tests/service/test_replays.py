"""Replays and public records of stored games (``service.replays``), on real SQLite files:
a finished game step by step exactly as its channel saw it, a running one up to where it
stands, refusals, a record that no longer replays, and no hand anywhere: a game whose
hidden cards are dealt again (the same actions, the same public events) gives the same
steps, the same animation, byte for byte, and the same record."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from render.replay import Frame, animate
from rules.pyramids.cards import card_name
from service import GameService, Outcome, Replay, ServiceError
from service.replays import BROKEN, RECORD_FORMAT
from service.scheduler import FakeClock
from tests.bot.helpers import HOST, collector, make_service, new_game, step
from tests.service.redeal import deck_order, play, redealt_deck, rewrite

T0 = 1_700_000_000.0
GUILD, CHANNEL = 7, 70


async def finished_game(svc: GameService, seed: int = 11) -> tuple[int, list[Outcome]]:
    """One person (random answers) against three computers, to the end; returns the game
    and every outcome it made (the person's and the computers')."""
    got, listener = collector()
    svc.add_listener(listener)
    gid, start = await new_game(
        svc, humans=1, computers=3, guild=GUILD, channel=CHANNEL, seed=seed,
        options={"round_limit": 5},
    )  # fmt: skip
    outcomes = [start]
    rng = random.Random(seed)
    for _ in range(400):
        await svc.idle(gid)
        out = await step(svc, gid, rng)
        if out is None:
            break
        outcomes.append(out)
    await svc.idle(gid)
    assert (await svc.status(gid)).status == "finished"
    return gid, outcomes + got


def frames(replay: Replay) -> list[Frame]:
    return [Frame(s.view, s.events, s.title, s.caption) for s in replay.steps]


async def test_a_finished_game_replays_step_by_step_as_its_channel_saw_it(
    tmp_path: Path,
) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        gid, outcomes = await finished_game(svc)
        replay = await svc.replay(gid)
        actions = await svc.store.actions(gid)
        assert replay.actions == len(actions) > 20
        assert [s.number for s in replay.steps] == list(range(len(actions) + 1))
        n = len(actions)
        assert replay.steps[0].title == "Start" and replay.steps[-1].title == f"{n} / {n}"
        assert replay.status == "finished" and replay.result is not None
        assert replay.result_line and replay.result_line in replay.text()
        shown = {o.version: o for o in outcomes if o.game_id == gid and o.kind != "reminder"}
        for s in replay.steps:  # the channel saw this view and these words at each step
            out = shown[s.number]
            assert s.view == out.spectator_view
            assert s.events == out.events
            assert s.lines == out.public_lines or (not out.public_lines and len(s.lines) == 1)
            assert all(e.public for e in s.events) and s.lines
        silent = [s for s in replay.steps if not shown[s.number].public_lines]
        assert all("answered (" in s.caption for s in silent)
        seats = (await svc.status(gid)).seats
        assert replay.names == tuple(s.name for s in seats)
        text = replay.text()
        assert text.count("\n") >= len(replay.steps) and "Start. Seat order" in text
    finally:
        await svc.close()


async def test_a_running_game_replays_up_to_where_it_stands(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        gid, _ = await new_game(svc, humans=2, guild=GUILD, channel=CHANNEL)
        rng = random.Random(3)
        for _ in range(9):
            assert await step(svc, gid, rng) is not None
        replay = await svc.replay(gid)
        st = await svc.status(gid)
        assert replay.status == "running" and replay.result is None
        assert replay.actions == st.version == 9
        assert replay.steps[-1].view == st.view
        played = await svc.played_in_channel(GUILD, CHANNEL)
        assert [(p.id, p.status, p.names) for p in played] == [
            (gid, "running", tuple(s.name for s in st.seats))
        ]
    finally:
        await svc.close()


async def test_what_cannot_be_replayed_is_refused_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    svc = await make_service(path, FakeClock(T0))
    try:
        with pytest.raises(ServiceError, match=r"There is no game #99\."):
            await svc.replay(99)
        out = await svc.open_lobby(channel_id=5, host_id=HOST, host_name="Ann", guild_id=GUILD)
        assert out.game_id is not None
        with pytest.raises(ServiceError, match="not started"):
            await svc.replay(out.game_id)
        with pytest.raises(ServiceError, match="not started"):
            await svc.record(out.game_id)
        gid, _ = await new_game(svc, humans=2, channel=6)
        for _ in range(4):
            await step(svc, gid, random.Random(1))
        assert (await svc.replay(gid, channel_id=6)).actions == 4
        with pytest.raises(ServiceError, match=rf"There is no game #{gid} in this channel\."):
            await svc.record(gid, channel_id=5)
        # a log that no longer leads to the stored position (a damaged file)
        conn = sqlite3.connect(path)
        [(text,)] = conn.execute("SELECT state FROM games WHERE id = ?", (gid,)).fetchall()
        state = json.loads(text)
        state["turn"] += 1
        with conn:
            conn.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), gid))
        conn.close()
        with pytest.raises(ServiceError) as refused:
            await svc.replay(gid)
        assert str(refused.value) == BROKEN
    finally:
        await svc.close()


async def test_hidden_cards_dealt_again_change_no_step_no_frame_and_no_record(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    svc = await make_service(first, FakeClock(T0))
    gid, _ = await finished_game(svc, seed=5)
    rec = await svc.store.load_game(gid)
    records = await svc.store.actions(gid)
    await svc.close()
    assert rec is not None
    played = play(rec, records)
    assert played.state == rec.state  # the log plays back to the stored game
    other = play(rec, records, redealt_deck(deck_order(records), played.public))
    assert other.hands != played.hands, "the hands differ"
    assert other.public == played.public
    shutil.copy(first, second)
    rewrite(second, gid, other)

    replays, records_json, gifs = [], [], []
    for path in (first, second):
        svc = await make_service(path, FakeClock(T0))
        try:
            replay = await svc.replay(gid)
            replays.append(replay)
            records_json.append(json.dumps(await svc.record(gid), ensure_ascii=False))
            gifs.append(animate(replay.variant, frames(replay)[:40], replay.names).data)
        finally:
            await svc.close()
    a, b = replays
    assert [s.view for s in a.steps] == [s.view for s in b.steps]
    assert [s.lines for s in a.steps] == [s.lines for s in b.steps]
    assert records_json[0] == records_json[1]
    assert gifs[0] == gifs[1]
    # and no card that was only ever in a hand is named in the record
    hidden = (played.held() | other.held()) - played.public
    assert len(hidden) > 10
    assert not any(card_name(c) in records_json[0] for c in hidden)


async def test_a_record_holds_the_public_game_and_nothing_else(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        gid, _ = await finished_game(svc, seed=4_611_686_018_427_387_847)
        rec = await svc.store.load_game(gid)
        assert rec is not None and rec.creation is not None
        record = await svc.record(gid)
        text = json.dumps(record)
        assert json.loads(text) == record
        assert record["format"] == RECORD_FORMAT and record["version"] == 1
        game = record["game"]
        assert (game["id"], game["variant"], game["status"]) == (gid, "european_war", "finished")
        assert game["started_at"].endswith("+00:00") and game["actions"] == rec.version
        assert [p["seat"] for p in record["players"]] == [0, 1, 2, 3]
        assert sorted(p["computer"] or "person" for p in record["players"]) == [
            "normal", "normal", "normal", "person",
        ]  # fmt: skip
        assert record["result"]["winners"] or record["result"]["draw"]
        assert len(record["steps"]) == rec.version + 1
        stored = await svc.store.actions(gid)
        for entry, action in zip(record["steps"][1:], stored, strict=True):
            public = [
                {"kind": e["kind"], "data": e["data"]} for e in action.events if e["to"] is None
            ]
            assert entry["events"] == public and entry["words"]
            assert entry["seat"] == action.seat
        assert rec.creation["seed"] == 4_611_686_018_427_387_847
        assert "seed" not in text and "4611686018427387847" not in text
        fields = {k for step in record["steps"] for e in step["events"] for k in e["data"]}
        assert "hand" not in fields
    finally:
        await svc.close()
