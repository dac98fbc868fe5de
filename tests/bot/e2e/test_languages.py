"""Languages through the real client and the fake Discord: a French server where a German
and a Czech player play with a computer. The channel speaks French (the server's
language when the table opened), each player's DMs and private answers speak their own
client's language, and the command sync carries the commands' descriptions in German,
French and Czech."""

from __future__ import annotations

from bot.cogs.turn import TurnCog
from tests.bot.e2e.harness import World, make_world
from tests.bot.e2e.policy import Policy, aggressive_computer
from tests.fake_discord.models import FakeMessage


def labels(message: FakeMessage) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [b.get("label", "") for b in message.buttons]


async def test_a_french_server_with_a_german_and_a_czech_player(fake_discord, tmp_path) -> None:
    fake = fake_discord
    world: World = await make_world(fake, tmp_path, start=False)
    world.guild.preferred_locale = "fr"
    ann, bob = world.users["ann"], world.users["bob"]
    ann.locale, bob.locale = "de", "cs"
    world.seed = 113
    await world.start(service_options={"chooser": aggressive_computer})
    try:
        # Discord's own texts: descriptions and choices in every language, within limits
        # (the fake refuses a sync that breaks them)
        newgame = next(c for c in fake.commands[None] if c["name"] == "newgame")
        assert newgame["description_localizations"] == {
            "de": "Einen Tisch für ein neues Spiel in diesem Kanal öffnen "
            "(oder in einem neuen Thread)",
            "fr": "Ouvrir une table pour une nouvelle partie dans ce salon "
            "(ou dans un nouveau fil)",
            "cs": "Založit stůl pro novou hru v tomto kanálu (nebo v jeho novém vlákně)",
        }
        options = {o["name"]: o for o in newgame["options"]}
        assert options["players"]["description_localizations"]["cs"] == (
            "Nejvyšší počet hráčů u stolu (2-5)"
        )
        day = next(c for c in options["turn_timeout"]["choices"] if c["value"] == 86400)
        assert day["name_localizations"] == {"de": "1 Tag", "fr": "1 jour", "cs": "1 den"}
        assert "name_localizations" not in newgame or not newgame["name_localizations"]
        assert world.bot is not None
        cog = world.bot.get_cog("TurnCog")
        assert isinstance(cog, TurnCog)
        turns = {c.name for c in cog.made}  # the games' turn commands: their own catalogues
        for command in fake.commands[None]:
            if command["name"] not in turns:
                assert set(command["description_localizations"]) == {"de", "fr", "cs"}

        # the table opens in the server's language; its host is greeted in German
        await world.slash("ann", "newgame")
        gid = await world.gid()
        lobby = world.lobby_message()
        assert "une table pour 2" in lobby.content
        assert labels(lobby) == [
            "Rejoindre",
            "Quitter",
            "Ajouter un ordinateur",
            "Options",
            "Lancer",
        ]
        assert fake.dm_messages(ann)[-1].content.endswith(
            "Du sitzt jetzt an diesem Tisch. Was nur du sehen darfst, und deine privaten "
            f"Panels ({_panels(world, gid)}) kommen hierher."
        )
        # the Czech player joins with the French button; the lobby stays French
        await world.click("bob", lobby, f"ew:l:{gid}:join")
        assert "Přidal(a) ses k tomuto stolu" in fake.dm_messages(bob)[-1].content
        assert "**Places (2/" in world.lobby_message().content
        # a refusal to each, in their own language, changes nothing
        refused = await world.click("bob", lobby, f"ew:l:{gid}:start")
        assert refused.ephemeral and refused.content == "To může jen hostitel."
        refused = await world.slash("bob", "cancel")
        assert refused.ephemeral and refused.content == (
            "Hru může zrušit jen hostitel nebo člen, který smí spravovat tento kanál."
        )
        assert (await world.bot.service.lobby_info(gid)).seats[1].user_id == bob.id
        mine = await world.slash("ann", "games")
        assert mine.ephemeral and "**Deine Spiele (1):**" in mine.content
        await world.click("ann", lobby, f"ew:l:{gid}:bot")
        await world.click("ann", lobby, f"ew:l:{gid}:start")
        assert "La partie a commencé : voir ci-dessous." in lobby.content

        # the whole game: every channel message French, every DM the reader's language
        await world.play_to_end(gid, Policy(), 200)
        assert (await world.bot.service.status(gid)).status == "finished"
        channel = fake.messages(world.channel)
        shown = {label for m in channel for label in labels(m)}
        assert {"À toi de jouer", "Revanche"} <= shown
        assert not shown & {"Your turn", "Du bist dran", "Jsi na tahu", "Rematch"}
        closings = {
            ann: {
                "✔ Im Kanal beantwortet.",
                "✔ Beantwortet.",
                "↪ Ein neueres Panel folgt.",
                "Diese Entscheidung ist geschlossen; siehe den Kanal.",
                "Das Spiel ist vorbei.",
            },
            bob: {
                "✔ Zodpovězeno v kanálu.",
                "✔ Zodpovězeno.",
                "↪ Následuje novější panel.",
                "Toto rozhodnutí je uzavřené; viz kanál.",
                "Hra skončila.",
            },
        }
        for user, theirs in closings.items():
            dms = fake.dm_messages(user)
            assert all(_label_line(m) for m in dms)
            closed = [_closing(m) for m in dms if _closing(m)]
            assert closed and set(closed) <= theirs, (user.name, set(closed) - theirs)
    finally:
        await world.stop()


def _panels(world: World, gid: int) -> str:
    """What the game's panel decisions are called in German (as the greeting lists them)."""
    from bot.games import panel_names
    from rules import i18n

    assert world.bot is not None
    variant = world.bot.service._games[gid].variant
    with i18n.use("de"):
        return ", ".join(panel_names(variant))


def _closing(message: FakeMessage) -> str:
    """The line under a DM panel whose buttons were taken off ('' for none)."""
    last = message.content.splitlines()[-1]
    return last[1:-1] if len(last) > 2 and last[0] == last[-1] == "_" else ""


def _label_line(message: FakeMessage) -> bool:
    """A DM starts with where its game is (server › #channel · link)."""
    return "›" in message.content.splitlines()[0]


async def test_the_servers_language_setting_outranks_its_discord_language(world: World) -> None:
    """/settings language: (Manage Server) picks the language of new games' channels over
    the server's Discord language; "the server's Discord language" goes back to it."""
    fake = world.fake
    world.guild.preferred_locale = "de"
    owner = fake.users[world.guild.owner_id]
    res = await world.slash(owner, "settings", language="cs")
    assert res.ephemeral and "Language of new games in their channels: Čeština" in res.content
    await world.slash("ann", "newgame")
    lobby = world.lobby_message()
    assert labels(lobby) == ["Přidat se", "Odejít", "Přidat počítač", "Volby", "Spustit"]
    res = await world.slash(owner, "settings", language="server")
    assert "Language of new games in their channels: the server's Discord language" in res.content
    other = fake.add_text_channel(world.guild, "spiele")
    await world.slash("ann", "newgame", channel=other)
    lobby = fake.messages(other)[-1]
    assert labels(lobby) == ["Beitreten", "Verlassen", "Computer hinzufügen", "Optionen", "Starten"]
    assert labels(world.lobby_message())[0] == "Přidat se", "a game keeps its language"
