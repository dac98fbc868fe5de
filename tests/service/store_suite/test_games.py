"""The store's games through the protocol: lobbies, starting, the action log, versions
and stale writes, the end of a game, pauses, seats and what a restart loads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.models import DecisionRecord, GameSettings
from service.store import ChannelBusy, GuildFull, NewSeat, SeatTaken, StaleVersion, Store

from .conftest import Opener
from .records import SNOWFLAKE, act, lobby, running_game, write

EXPIRY = DecisionRecord(-1, "lobby", 0, 3600.0, 3600.0, None)


async def test_a_lobby_keeps_its_host_settings_seats_and_expiry(store: Store) -> None:
    settings = replace(GameSettings(), max_players=3, turn_timeout=None)
    gid = await store.create_lobby(
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE + 1,
        host_id=SNOWFLAKE + 2,
        variant="world_war_5",
        settings=settings,
        host_seat=NewSeat(SNOWFLAKE + 2, None, "Ann", "red", 0.25),
        expiry=EXPIRY,
        max_games=None,
        now=0.5,
    )
    rec = await store.load_game(gid)
    assert rec is not None
    assert (rec.guild_id, rec.channel_id, rec.host_id) == (SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2)
    assert (rec.status, rec.variant, rec.version, rec.created_at) == (
        "lobby",
        "world_war_5",
        0,
        0.5,
    )
    assert rec.settings == settings
    assert rec.state is None and rec.result is None and rec.started_at is None
    [seat] = rec.seats
    assert (seat.user_id, seat.computer_level, seat.display_name, seat.requested_power) == (
        SNOWFLAKE + 2,
        None,
        "Ann",
        "red",
    )
    assert (seat.joined_at, seat.seat, seat.power, seat.is_computer) == (0.25, None, None, False)
    assert rec.decisions == [EXPIRY]
    assert await store.active_game_in_channel(SNOWFLAKE + 1) == gid
    assert await store.load_game(gid + 1000) is None


async def test_seats_come_and_go_and_every_lobby_write_bumps_the_revision(store: Store) -> None:
    gid = await lobby(store, expiry=EXPIRY)
    later = DecisionRecord(-1, "lobby", 0, 3600.0, 4000.0, None)
    await store.add_seat(gid, 0, NewSeat(None, "hard", "Bot", None, 1.0), expiry=later)
    await store.add_seat(gid, 1, NewSeat(2, None, "Ben", "blue", 2.0))
    rec = await store.load_game(gid)
    assert rec is not None and rec.revision == 2
    assert [(s.user_id, s.computer_level, s.is_computer) for s in rec.seats] == [
        (1, None, False),
        (None, "hard", True),
        (2, None, False),
    ]
    assert rec.decisions == [later]
    with pytest.raises(StaleVersion):  # written over an older revision
        await store.add_seat(gid, 1, NewSeat(3, None, "Cy", None, 3.0))
    # the host leaves: the lobby passes to Ben in the same transaction
    await store.remove_seat(gid, 2, rec.seats[0].id, host_id=2)
    with pytest.raises(StaleVersion):
        await store.remove_seat(gid, 2, rec.seats[1].id, host_id=2)
    rec = await store.load_game(gid)
    assert rec is not None and rec.host_id == 2 and rec.revision == 3
    assert [s.display_name for s in rec.seats] == ["Bot", "Ben"]
    settings = replace(GameSettings(), max_players=2, arranged=True)
    await store.update_lobby(gid, 3, settings, host_id=2, expiry=EXPIRY)
    rec = await store.load_game(gid)
    assert rec is not None and rec.settings == settings and rec.revision == 4
    assert rec.decisions == [EXPIRY]
    with pytest.raises(StaleVersion):
        await store.update_lobby(gid, 3, GameSettings(), host_id=1)


async def test_a_person_sits_once_per_game(store: Store) -> None:
    gid = await lobby(store)
    with pytest.raises(SeatTaken):
        await store.add_seat(gid, 0, NewSeat(1, None, "Ann again", None, 1.0))
    rec = await store.load_game(gid)
    assert rec is not None and len(rec.seats) == 1 and rec.revision == 0  # nothing kept
    await store.add_seat(gid, 0, NewSeat(None, "easy", "Bot 1", None, 1.0))
    await store.add_seat(gid, 1, NewSeat(None, "easy", "Bot 2", None, 2.0))  # computers: any
    other = await lobby(store, channel=2)
    await store.add_seat(other, 0, NewSeat(2, None, "Ben", None, 1.0))  # one seat per game


async def test_one_active_game_per_channel(store: Store) -> None:
    gid = await running_game(store, channel=7)
    with pytest.raises(ChannelBusy):
        await lobby(store, channel=7)
    assert await store.active_game_in_channel(7) == gid
    rec = await store.load_game(gid)
    assert rec is not None
    await store.end_game(gid, rec.revision, "cancelled", None, 5.0)
    again = await lobby(store, channel=7)  # history is fine: a new game may open
    assert again != gid and await store.active_game_in_channel(7) == again


async def test_the_server_cap_counts_only_active_games_of_that_server(store: Store) -> None:
    first = await lobby(store, 1, guild=9, max_games=2)
    await lobby(store, 2, guild=9, max_games=2)
    await lobby(store, 3, guild=8, max_games=2)  # another server
    with pytest.raises(GuildFull):
        await lobby(store, 4, guild=9, max_games=2)
    assert await store.active_game_in_channel(4) is None
    await lobby(store, 4, guild=9, max_games=None)  # no cap asked: none checked
    rec = await store.load_game(first)
    assert rec is not None
    await store.end_game(first, rec.revision, "cancelled", None, 1.0)
    await lobby(store, 5, guild=9, max_games=4)  # an ended game no longer counts


async def test_starting_seats_the_players_and_sets_the_first_decisions(store: Store) -> None:
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None
    assert (rec.status, rec.version, rec.started_at) == ("running", 0, 2.0)
    assert (rec.creation, rec.start_events, rec.state) == (
        {"seed": 3},
        [{"kind": "dealt"}],
        {"turn": 0},
    )
    assert [(s.seat, s.power, s.display_name) for s in rec.seats] == [
        (0, "p0", "Ann"),
        (1, "p1", "Bot"),
    ]
    assert rec.decisions == [DecisionRecord(0, "turn", 0, 600.0, 600.0, None)]
    assert rec.last_acted == {}
    with pytest.raises(StaleVersion):  # no longer a lobby
        await store.start_game(
            gid,
            rec.revision,
            creation={},
            start_events=[],
            state={},
            seats=[],
            decisions=[],
            now=3.0,
        )
    with pytest.raises(StaleVersion):
        await store.add_seat(gid, rec.revision, NewSeat(5, None, "Late", None, 3.0))
    with pytest.raises(StaleVersion):
        await store.update_lobby(gid, rec.revision, GameSettings(), host_id=1)


async def test_an_action_commits_its_row_snapshot_version_and_decisions_together(
    store: Store,
) -> None:
    gid = await running_game(store)
    before = await store.load_game(gid)
    assert before is not None
    assert await act(store, gid, now=3.5) == 1
    rec = await store.load_game(gid)
    assert rec is not None
    assert (rec.version, rec.revision, rec.state) == (1, before.revision + 1, {"turn": 1})
    assert rec.decisions == [DecisionRecord(1, "turn", 1, 600.0, 603.5, None)]
    assert rec.last_acted == {0: 1}
    [logged] = await store.actions(gid)
    assert (logged.seq, logged.seat, logged.user_id, logged.source, logged.created_at) == (
        1,
        0,
        1,
        "player",
        3.5,
    )
    assert logged.action == {"kind": "pass", "n": 1}
    assert logged.events == [{"kind": "passed", "seat": 0}]


async def test_the_log_reads_from_any_point_and_its_tail(store: Store) -> None:
    gid = await running_game(store)
    for _ in range(5):
        await act(store, gid, source="computer")
    assert [a.seq for a in await store.actions(gid)] == [1, 2, 3, 4, 5]
    assert [a.seq for a in await store.actions(gid, after=3)] == [4, 5]
    assert await store.actions(gid, after=5) == []
    assert [a.seq for a in await store.last_actions(gid, 2)] == [4, 5]
    assert [a.seq for a in await store.last_actions(gid, 10)] == [1, 2, 3, 4, 5]
    assert {a.source for a in await store.actions(gid)} == {"computer"}
    rec = await store.load_game(gid)
    assert rec is not None and rec.last_acted == {0: 5, 1: 4}
    assert await store.actions(gid + 1000) == []


async def test_a_channel_lists_the_games_started_in_it_newest_first(store: Store) -> None:
    guild, channel = SNOWFLAKE, SNOWFLAKE + 1
    first = await running_game(store, channel, guild)
    await act(store, first, result={"winners": [0]}, now=4.0)
    never = await lobby(store, channel, guild)  # a lobby that never started: not listed
    rec = await store.load_game(never)
    assert rec is not None
    await store.end_game(never, rec.revision, "cancelled", None, 5.0)
    second = await running_game(store, channel, guild)
    await running_game(store, channel + 1, guild)  # another channel
    played = await store.played_in_channel(guild, channel, 10)
    assert [(p.id, p.status, p.variant) for p in played] == [
        (second, "running", "european_war"),
        (first, "finished", "european_war"),
    ]
    assert played[0].names == ("Ann", "Bot") and played[0].ended_at is None
    assert (played[1].started_at, played[1].ended_at) == (2.0, 4.0)
    assert [p.id for p in await store.played_in_channel(guild, channel, 1)] == [second]
    assert await store.played_in_channel(guild, channel + 7, 10) == []
    assert await store.played_in_channel(guild + 1, channel, 10) == []


async def test_a_stale_write_is_refused_and_writes_nothing(store: Store) -> None:
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None
    await act(store, gid)
    with pytest.raises(StaleVersion):  # the revision moved on
        await write(store, gid, rec.revision, rec.version)
    now = await store.load_game(gid)
    assert now is not None
    with pytest.raises(StaleVersion):  # the revision matches, the version does not
        await write(store, gid, now.revision, now.version - 1)
    assert [a.seq for a in await store.actions(gid)] == [1]
    after = await store.load_game(gid)
    assert after is not None
    assert (after.version, after.revision, after.state) == (now.version, now.revision, now.state)
    # every kind of write to a game carries the revision
    with pytest.raises(StaleVersion):
        await store.set_draw_vote(gid, rec.revision, 0, True)
    with pytest.raises(StaleVersion):
        await store.set_paused(gid, rec.revision, 5.0, [])
    with pytest.raises(StaleVersion):
        await store.replace_seat(
            gid, rec.revision, 0, user_id=9, computer_level=None, display_name="Gus", now=5.0
        )
    with pytest.raises(StaleVersion):
        await store.end_game(gid, rec.revision, "cancelled", None, 5.0)
    assert await store.active_game_in_channel(1) == gid


async def test_a_result_finishes_the_game_and_nothing_is_written_after_it(store: Store) -> None:
    gid = await running_game(store)
    await act(store, gid)
    await act(store, gid, result={"winner": 1}, now=8.25)
    rec = await store.load_game(gid)
    assert rec is not None
    assert (rec.status, rec.result, rec.ended_at, rec.version) == (
        "finished",
        {"winner": 1},
        8.25,
        2,
    )
    assert rec.decisions == []
    assert await store.active_game_in_channel(1) is None
    assert [g.id for g in await store.load_active()] == []
    with pytest.raises(StaleVersion):  # a finished game takes no more actions
        await write(store, gid, rec.revision, rec.version)
    with pytest.raises(StaleVersion):
        await store.end_game(gid, rec.revision, "archived", None, 9.0)


async def test_ending_a_game_drops_its_decisions(store: Store) -> None:
    for status in ("cancelled", "archived"):
        gid = await running_game(store, channel=len(status))
        rec = await store.load_game(gid)
        assert rec is not None
        await store.end_game(gid, rec.revision, status, {"reason": "test"}, 5.0)
        rec = await store.load_game(gid)
        assert rec is not None
        assert (rec.status, rec.result, rec.ended_at, rec.decisions) == (
            status,
            {"reason": "test"},
            5.0,
            [],
        )
    lobby_id = await lobby(store, channel=50)
    await store.end_game(lobby_id, 0, "cancelled", None, 6.0)  # a lobby may end too
    ended = await store.load_game(lobby_id)
    assert ended is not None and ended.status == "cancelled" and ended.result is None


async def test_a_pause_keeps_its_time_deadlines_and_held_channel(store: Store) -> None:
    gid = await running_game(store, channel=SNOWFLAKE)
    rec = await store.load_game(gid)
    assert rec is not None
    paused = DecisionRecord(0, "turn", 0, 600.0, None, None)
    await store.set_paused(
        gid, rec.revision, 1_700_000_000.125, [paused], hold=(SNOWFLAKE, "Attach Files")
    )
    rec = await store.load_game(gid)
    assert rec is not None
    assert (rec.paused_at, rec.decisions) == (1_700_000_000.125, [paused])
    assert await store.held_channels() == [(SNOWFLAKE, gid, True, "Attach Files")]
    resumed = DecisionRecord(0, "turn", 0, 600.0, 1_700_000_600.125, 1_700_000_300.5)
    await store.set_paused(gid, rec.revision, None, [resumed])
    rec = await store.load_game(gid)
    assert rec is not None and rec.paused_at is None and rec.decisions == [resumed]
    with pytest.raises(StaleVersion):  # only a running game pauses
        await store.set_paused(await lobby(store, channel=2), 0, 1.0, [])


async def test_a_seat_changes_hands_but_a_person_still_sits_once(store: Store) -> None:
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None
    await store.set_draw_vote(gid, rec.revision, 0, True)
    await store.set_draw_vote(gid, rec.revision + 1, 1, True)
    rec = await store.load_game(gid)
    assert rec is not None and [s.agrees_draw for s in rec.seats] == [True, True]
    await store.set_draw_vote(gid, rec.revision, 1, False)
    rec = await store.load_game(gid)
    assert rec is not None and [s.agrees_draw for s in rec.seats] == [True, False]
    # the computer's seat goes to Gus: a person now, and Ann's vote stays hers
    await store.replace_seat(
        gid, rec.revision, 1, user_id=SNOWFLAKE, computer_level=None, display_name="Gus", now=7.5
    )
    rec = await store.load_game(gid)
    assert rec is not None
    gus = rec.seats[1]
    assert (gus.seat, gus.user_id, gus.computer_level, gus.display_name, gus.joined_at) == (
        1,
        SNOWFLAKE,
        None,
        "Gus",
        7.5,
    )
    assert gus.power == "p1" and not gus.is_computer
    with pytest.raises(SeatTaken):  # Gus already holds seat 1
        await store.replace_seat(
            gid, rec.revision, 0, user_id=SNOWFLAKE, computer_level=None, display_name="Gus", now=8
        )
    # Ann hands over to a computer: her draw vote goes with her
    await store.replace_seat(
        gid, rec.revision, 0, user_id=None, computer_level="normal", display_name="Bot", now=9.0
    )
    rec = await store.load_game(gid)
    assert rec is not None
    assert [(s.user_id, s.computer_level, s.agrees_draw) for s in rec.seats] == [
        (None, "normal", False),
        (SNOWFLAKE, None, False),
    ]


async def test_a_reminder_is_claimed_once(store: Store) -> None:
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None
    assert await store.mark_reminded(gid, 0, "turn", 0) is False  # none was set
    await store.set_paused(gid, rec.revision, None, [DecisionRecord(0, "turn", 0, 600, 600, 300)])
    assert await store.mark_reminded(gid, 0, "turn", 1) is False  # another decision
    assert await store.mark_reminded(gid, 0, "turn", 0) is True
    assert await store.mark_reminded(gid, 0, "turn", 0) is False
    rec = await store.load_game(gid)
    assert rec is not None and rec.decisions == [DecisionRecord(0, "turn", 0, 600, 600, None)]


async def test_a_restart_loads_every_active_game_with_what_it_needs(reopen: Opener) -> None:
    store = await reopen()
    try:
        done = await running_game(store, channel=1)
        playing = await running_game(store, channel=2, guild=SNOWFLAKE)
        waiting = await lobby(store, channel=3, expiry=EXPIRY)
        rec = await store.load_game(done)
        assert rec is not None
        await store.end_game(done, rec.revision, "cancelled", None, 5.0)
        await act(store, playing)
        await act(store, playing)
        expected = {g: await store.load_game(g) for g in (playing, waiting)}
        schema = await store.schema_version()
        assert schema >= 1
    finally:
        await store.close()
    store = await reopen()
    try:
        assert await store.schema_version() == schema
        loaded = await store.load_active()
        assert [g.id for g in loaded] == [playing, waiting]
        assert {g.id: g for g in loaded} == expected
        assert loaded[0].last_acted == {0: 1, 1: 2}
        assert loaded[0].guild_id == SNOWFLAKE
        assert loaded[1].decisions == [EXPIRY] and loaded[1].state is None
        assert await store.load_game(done) is not None  # ended games stay readable
    finally:
        await store.close()


async def test_times_and_discord_ids_are_kept_exactly(store: Store) -> None:
    """Deadlines are wall-clock seconds near 1.7e9: a single-precision column would
    move them by half a minute; Discord ids need 64 bits."""
    due = 1_764_000_123.456789
    gid = await lobby(
        store,
        channel=SNOWFLAKE,
        guild=SNOWFLAKE + 1,
        host=SNOWFLAKE + 2,
        expiry=DecisionRecord(-1, "lobby", 0, 3600.5, due, due - 0.001),
        now=due,
    )
    rec = await store.load_game(gid)
    assert rec is not None
    assert rec.created_at == due and rec.decisions[0].due_at == due
    assert rec.decisions[0].remind_at == due - 0.001
    assert (rec.channel_id, rec.guild_id, rec.host_id) == (
        SNOWFLAKE,
        SNOWFLAKE + 1,
        SNOWFLAKE + 2,
    )
    assert rec.seats[0].user_id == SNOWFLAKE + 2 and rec.seats[0].joined_at == due
    assert await store.active_game_in_channel(SNOWFLAKE) == gid


async def test_a_users_unfinished_games_with_their_seats_and_decisions(store: Store) -> None:
    """What a list of a player's games needs, from any process: every lobby and running
    game they sit in (oldest first; not ended ones, not others'), with the seats and the
    open decisions as a load gives them, and a pause."""
    playing = await running_game(store, channel=1, guild=SNOWFLAKE)  # user 1 is Ann
    await act(store, playing)
    waiting = await lobby(store, channel=2, expiry=EXPIRY)
    await store.add_seat(waiting, 0, NewSeat(SNOWFLAKE, None, "Gus", "blue", 4.0))
    ended = await running_game(store, channel=3)
    rec = await store.load_game(ended)
    assert rec is not None
    await store.end_game(ended, rec.revision, "finished", {"draw": True}, 5.0)
    paused = await running_game(store, channel=4)
    rec = await store.load_game(paused)
    assert rec is not None
    await store.set_paused(
        paused, rec.revision, 6.0, [DecisionRecord(0, "turn", 0, 600, None, None)]
    )
    await lobby(store, channel=5, host=7)  # not Ann's

    mine = await store.user_games(1)
    assert [g.id for g in mine] == [playing, waiting, paused]
    for g in mine:
        full = await store.load_game(g.id)
        assert full is not None
        assert (g.guild_id, g.channel_id, g.status, g.variant, g.paused_at) == (
            full.guild_id,
            full.channel_id,
            full.status,
            full.variant,
            full.paused_at,
        )
        assert g.seats == full.seats
        assert sorted(g.decisions, key=lambda d: d.key) == sorted(
            full.decisions, key=lambda d: d.key
        )
    assert mine[0].decisions == [DecisionRecord(1, "turn", 1, 600.0, 603.0, None)]
    assert mine[1].decisions == [EXPIRY] and [s.user_id for s in mine[1].seats] == [1, SNOWFLAKE]
    assert mine[2].paused_at == 6.0 and mine[2].decisions[0].due_at is None
    assert [g.id for g in await store.user_games(SNOWFLAKE)] == [waiting]
    assert await store.user_games(99) == []
