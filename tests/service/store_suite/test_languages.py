"""Languages through the protocol: a server's channel language among its settings, and each
person's last seen client language (migration 14)."""

from __future__ import annotations

import pytest

from service.models import GameSettings, GuildSettings, SettingsError
from service.store import Store

from .conftest import Opener
from .records import SNOWFLAKE, lobby


async def test_a_servers_language_is_saved_with_its_settings_and_cleared(store: Store) -> None:
    assert (await store.guild_settings(SNOWFLAKE)).language is None
    french = GuildSettings(SNOWFLAKE).with_changes(language="fr", max_games=4)
    await store.save_guild_settings(french, 1.0)
    assert await store.guild_settings(SNOWFLAKE) == french
    assert (await store.guild_settings(SNOWFLAKE + 1)).language is None
    back = french.with_changes(language=None)
    await store.save_guild_settings(back, 2.0)
    assert await store.guild_settings(SNOWFLAKE) == back
    assert back.language is None and back.max_games == 4


def test_a_language_the_product_does_not_speak_is_refused() -> None:
    with pytest.raises(SettingsError, match="language must be one of: en, de, fr, cs"):
        GuildSettings(SNOWFLAKE).with_changes(language="ja")
    with pytest.raises(SettingsError, match="language"):
        GameSettings(language="xx").check("european_war")


async def test_a_games_language_is_kept_in_its_settings(store: Store) -> None:
    gid = await lobby(store, settings=GameSettings(language="cs"))
    rec = await store.load_game(gid)
    assert rec is not None and rec.settings.language == "cs"


def test_an_older_game_without_a_language_reads_english() -> None:
    old = GameSettings(language="de").to_dict()
    del old["language"]
    assert GameSettings.from_dict(old).language == "en"
    assert GameSettings.from_dict({**old, "language": "klingon"}).language == "en"


async def test_client_languages_are_remembered_replaced_and_survive_a_reopen(
    reopen: Opener,
) -> None:
    store = await reopen()
    try:
        assert await store.user_locales([SNOWFLAKE, 6]) == {}
        await store.set_user_locale(SNOWFLAKE, "de", 10.0)
        await store.set_user_locale(6, "en-US", 11.0)
        await store.set_user_locale(SNOWFLAKE, "cs", 12.0)
    finally:
        await store.close()
    store = await reopen()
    try:
        assert await store.user_locales([SNOWFLAKE, 6, 7, SNOWFLAKE]) == {
            SNOWFLAKE: "cs",
            6: "en-US",
        }
        assert await store.user_locales([]) == {}
        assert await store.user_locales([7]) == {}
    finally:
        await store.close()
