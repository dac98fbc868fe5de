"""/settings sets a server's default for any game's option, offered from the games'
option specs: the option by its summary, its values by their labels; a new table of a
game with that option starts from it, a game without the option is untouched."""

from __future__ import annotations

import discord

from tests.bot.e2e.harness import World


async def test_a_server_default_for_a_game_option(world: World) -> None:
    user = world.fake.add_user(
        "admin", guild=world.guild, permissions=discord.Permissions(manage_guild=True)
    )
    offered = await world.fake.autocomplete(
        user, world.channel, "settings", focused="option", option="times out"
    )
    assert [c["value"] for c in offered] == ["turn_timeout_action"]
    values = await world.fake.autocomplete(
        user, world.channel, "settings", focused="value", option="turn_timeout_action", value=""
    )
    assert [c["name"] for c in values][:2] == ["pass", "arm (draw two cards)"]
    res = await world.slash(user, "settings", option="turn_timeout_action", value="arm")
    assert res.ephemeral and "When a European War turn times out: arm (draw two cards)" in (
        res.content
    )
    res = await world.slash(user, "settings", option="diplomacy_seconds", value="a minute")
    assert res.ephemeral and "not a value" in res.content
    res = await world.slash(user, "settings", option="diplomacy_seconds", value="700")
    assert res.ephemeral and "between 5 and 600" in res.content
    res = await world.slash(user, "settings", option="turn_timeout_action")
    assert res.ephemeral and "together with its value" in res.content
    assert world.bot is not None
    gs = await world.bot.service.guild_settings(world.guild.id)
    assert dict(gs.options) == {"turn_timeout_action": "arm"}, "refusals changed nothing"

    gid = await world.open_table(start=False)
    info = await world.bot.service.lobby_info(gid)
    assert info.options["turn_timeout_action"] == "arm"

    res = await world.slash(user, "settings", option="turn_timeout_action", value="default")
    assert "Game options: each game's own default" in res.content
    gs = await world.bot.service.guild_settings(world.guild.id)
    assert dict(gs.options) == {}
