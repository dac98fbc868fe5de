"""A server's settings and its games as a whole through the protocol: archiving a
channel or a server, and deleting everything of a server."""

from __future__ import annotations

from service.models import GuildSettings
from service.store import Store

from .records import SNOWFLAKE, act, lobby, running_game


async def test_settings_default_until_saved_then_replace(store: Store) -> None:
    assert await store.guild_settings(SNOWFLAKE) == GuildSettings(SNOWFLAKE)
    mine = GuildSettings(SNOWFLAKE).with_changes(turn_timeout=3600.5, max_games=3)
    await store.save_guild_settings(mine, 1.0)
    assert await store.guild_settings(SNOWFLAKE) == mine
    assert await store.guild_settings(SNOWFLAKE + 1) == GuildSettings(SNOWFLAKE + 1)
    again = mine.with_changes(reminder_lead=0.0)
    await store.save_guild_settings(again, 2.0)
    assert await store.guild_settings(SNOWFLAKE) == again


async def test_archiving_a_channel_ends_its_active_game_only(store: Store) -> None:
    a = await running_game(store, channel=1, guild=3)
    b = await running_game(store, channel=2, guild=3)
    assert await store.archive(channel_id=1, now=9.5) == [a]
    rec = await store.load_game(a)
    assert rec is not None
    assert (rec.status, rec.ended_at, rec.decisions) == ("archived", 9.5, [])
    assert await store.archive(channel_id=1, now=10.0) == []  # nothing active left there
    assert [g.id for g in await store.load_active()] == [b]
    await act(store, b)  # the other game plays on


async def test_archiving_a_server_ends_all_its_active_games(store: Store) -> None:
    a = await running_game(store, channel=1, guild=SNOWFLAKE)
    b = await lobby(store, channel=2, guild=SNOWFLAKE)
    elsewhere = await running_game(store, channel=3, guild=4)
    finished = await running_game(store, channel=4, guild=SNOWFLAKE)
    await act(store, finished, result={"winner": 0})
    assert sorted(await store.archive(guild_id=SNOWFLAKE, now=9.0)) == sorted([a, b])
    assert [g.id for g in await store.load_active()] == [elsewhere]
    done = await store.load_game(finished)
    assert done is not None and done.status == "finished"  # history stays as it was
    assert await store.active_game_in_channel(1) is None


async def test_deleting_a_server_takes_its_games_log_and_settings(store: Store) -> None:
    mine = [await running_game(store, channel=c, guild=SNOWFLAKE) for c in (1, 2)]
    other = await running_game(store, channel=3, guild=4)
    for g in (*mine, other):
        await act(store, g)
    await store.save_guild_settings(GuildSettings(SNOWFLAKE).with_changes(max_games=2), 1.0)
    await store.save_guild_settings(GuildSettings(4).with_changes(max_games=7), 1.0)
    await store.record_departure(SNOWFLAKE, 5.0)
    assert await store.delete_guild(SNOWFLAKE) == 2
    for g in mine:
        assert await store.load_game(g) is None
        assert await store.actions(g) == []
    assert await store.guild_settings(SNOWFLAKE) == GuildSettings(SNOWFLAKE)
    assert await store.departures() == {}
    assert await store.guild_settings(4) == GuildSettings(4, max_games=7)
    assert [a.seq for a in await store.actions(other)] == [1]
    assert await store.delete_guild(SNOWFLAKE) == 0
    await lobby(store, channel=1, guild=SNOWFLAKE)  # the channel is free again
