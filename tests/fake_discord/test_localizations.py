"""The fake Discord and languages: a command sync's ``*_localizations`` are checked as
Discord checks them (known locales, lengths) and kept, and each interaction carries its
user's client language and its server's."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from tests.fake_discord.fixtures import running_bot
from tests.fake_discord.limits import check_commands
from tests.fake_discord.models import ApiError
from tests.fake_discord.server import FakeDiscord

GERMAN = {"Say hello": "Hallo sagen", "Whom": "Wen", "loud": "laut"}


class Words(app_commands.Translator):
    """German for the demo's texts; ``long`` makes every description too long."""

    def __init__(self, long: bool = False) -> None:
        self.long = long

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        if locale is not discord.Locale.german:
            return None
        if (
            self.long
            and context.location is app_commands.TranslationContextLocation.command_description
        ):
            return "x" * 101
        return GERMAN.get(string.message)


class Hello(commands.Cog):
    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []

    @app_commands.command(name="hello", description="Say hello")
    @app_commands.describe(who="Whom")
    @app_commands.choices(how=[Choice(name="loud", value="loud")])
    async def hello(
        self, interaction: discord.Interaction, who: str, how: Choice[str] | None = None
    ) -> None:
        self.seen.append((str(interaction.locale), str(interaction.guild_locale)))
        await interaction.response.send_message(f"hello {who}", ephemeral=True)


class HelloBot(commands.Bot):
    def __init__(self, translator: app_commands.Translator) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())
        self.translator = translator
        self.cog = Hello()

    async def setup_hook(self) -> None:
        await self.add_cog(self.cog)
        await self.tree.set_translator(self.translator)


async def test_localizations_are_kept_and_each_interaction_has_its_languages(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Paris", locale="fr")
    channel = fake.add_text_channel(guild, "jeux")
    hans = fake.add_user("hans", guild=guild, locale="de")
    bot = HelloBot(Words())
    async with running_bot(fake, bot):
        (hello,) = [c for c in fake.commands[None] if c["name"] == "hello"]
        assert hello["description_localizations"] == {"de": "Hallo sagen"}
        (who, how) = hello["options"]
        assert who["description_localizations"] == {"de": "Wen"}
        assert how["choices"][0]["name_localizations"] == {"de": "laut"}
        await fake.slash(hans, channel, "hello", who="Marie")
        fake.users[hans.id].locale = "cs"
        await fake.slash(hans, channel, "hello", who="Marie")
    assert bot.cog.seen == [("de", "fr"), ("cs", "fr")]


async def test_a_description_over_100_characters_is_refused(fake_discord: FakeDiscord) -> None:
    fake_discord.add_guild()
    bot = HelloBot(Words(long=True))
    async with running_bot(fake_discord, bot, sync_commands=False):
        with pytest.raises(app_commands.CommandSyncFailure):
            await bot.tree.sync()


@pytest.mark.parametrize(
    ("where", "field", "value"),
    [
        ("description_localizations", "de", ""),
        ("description_localizations", "xx", "Hallo"),
        ("name_localizations", "de", "Hallo sagen"),  # a name has no spaces
    ],
)
def test_localizations_are_checked(where: str, field: str, value: str) -> None:
    command = {"name": "hello", "description": "Say hello", where: {field: value}}
    with pytest.raises(ApiError) as info:
        check_commands([command])
    assert info.value.status == 400


def test_a_choice_name_localization_over_100_characters_is_refused() -> None:
    choice = {"name": "loud", "value": "loud", "name_localizations": {"fr": "y" * 101}}
    option = {"type": 3, "name": "how", "description": "How", "choices": [choice]}
    with pytest.raises(ApiError):
        check_commands([{"name": "hello", "description": "Say hello", "options": [option]}])
