"""/games through the real client and the fake Discord: a player's unfinished games across
two servers (the game, a link to its channel, whose move, their own deadline first), what
runs in the channel it is asked in (also a game the asker is not in), a lobby still open,
and from a DM; privately every time."""

from __future__ import annotations

import re

from tests.bot.e2e.harness import World


async def test_games_lists_mine_across_two_servers_and_the_one_here(world: World) -> None:
    fake = world.fake
    ann, bob, dee = world.users["ann"], world.users["bob"], world.users["dee"]
    gid = await world.open_table(("ann", "bob", "cy"))
    other = fake.add_guild("Other Server")
    war = fake.add_text_channel(other, "war")
    await world.slash("ann", "newgame", channel=war)
    assert world.bot is not None
    there = await world.bot.service.active_game(war.id)
    assert there is not None
    await world.slash("ann", "addbot", channel=war)
    await world.slash("ann", "start", channel=war)
    lobby_channel = fake.add_text_channel(world.guild, "lobby")
    await world.slash("bob", "newgame", channel=lobby_channel)

    res = await world.slash(ann, "games")
    assert res.ephemeral
    lines = res.content.splitlines()
    assert lines[0].startswith("**In this channel:** **European War** · here — ▶ **you**")
    assert lines[1] == "**Your games (2):**"
    mine = lines[2:]
    assert len(mine) == 2
    links = {
        f"https://discord.com/channels/{world.guild.id}/{world.channel.id}",
        f"https://discord.com/channels/{other.id}/{war.id}",
    }
    assert {re.search(r"\((https://[^)]+)\)", line).group(1) for line in mine} == links  # type: ignore[union-attr]
    assert any("Test Server › [#games]" in line for line in mine)
    assert any("Other Server › [#war]" in line for line in mine)
    # ann places her pieces in both: her own deadline is given
    assert all("▶ **you** (placing your pieces, time runs out <t:" in line for line in mine)

    # bob: his game here and his open lobby; in ann's other server, what runs there
    res = await world.slash(bob, "games", channel=war)
    lines = res.content.splitlines()
    assert lines[0] == ("**In this channel:** **European War** · here — waiting for ann."), lines[0]
    assert lines[1] == "**Your games (2):**"
    assert any("a table still open (1 seated)" in line for line in lines[2:])
    assert any(f"/{world.channel.id})" in line for line in lines[2:])

    # someone at no table, in a channel without a game, and from a DM
    res = await world.slash(dee, "games", channel=fake.add_text_channel(world.guild, "quiet"))
    assert res.content.splitlines() == [
        "**In this channel:** no game. /newgame opens one.",
        "You are not at any table now.",
    ]
    res = await world.slash(ann, "games", channel=fake.dm_channel(ann))
    assert res.content.splitlines()[0] == "**Your games (2):**"
    assert gid and there
