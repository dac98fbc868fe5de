"""Table and server settings in terms of the game contract: time limits by the game's
timings (rows stored before them still read the same), and server defaults of game
options by option name, checked against what the registered games offer."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from rules.contract import TURN_TIME, Timing
from service.models import GameSettings, GuildSettings, SettingsError
from service.scheduler import FakeClock
from tests.bot.helpers import HOST, make_service

OLD_ROW = {
    "max_players": 4,
    "arranged": False,
    "options": {"diplomacy_seconds": 45, "turn_timeout_action": "arm"},
    "turn_timeout": 3600.0,
    "setup_timeout": 300.0,
    "duel_timeout": 90.0,
    "retreat_timeout": None,
    "reminder_lead": 0.0,
    "lobby_expiry": 600.0,
}
"""A table's settings as stored before the game's timings (one key per time limit)."""


def test_a_stored_table_keeps_its_time_limits() -> None:
    settings = GameSettings.from_dict(OLD_ROW)
    assert dict(settings.timeouts) == {"setup": 300.0, "duel": 90.0, "retreat": None}
    timings = rules.game_named("european_war").timings
    durations = {kind: settings.duration(t) for kind, t in timings.items()}
    assert durations == {
        "setup": 300.0,
        "turn": 3600.0,
        "action": 3600.0,
        "diplomacy": 45.0,  # from the option, EW-15
        "duel": 90.0,
        "retreat": None,  # no limit, as stored
    }
    assert GameSettings.from_dict(settings.to_dict()) == settings
    assert settings.duration(TURN_TIME) == 3600.0
    assert settings.duration(Timing("lunch", 50.0)) == 50.0  # a limit it never set


def test_server_option_defaults_are_checked_against_the_games() -> None:
    gs = GuildSettings(1).with_changes(options={"diplomacy_seconds": 12, "sea_attacks": True})
    assert dict(gs.options) == {"diplomacy_seconds": 12, "sea_attacks": True}
    assert dict(gs.with_changes(options={"sea_attacks": None}).options) == {"diplomacy_seconds": 12}
    with pytest.raises(SettingsError, match="no game has an option called 'lunch'"):
        gs.with_changes(options={"lunch": 1})
    with pytest.raises(SettingsError, match="diplomacy_seconds must be a whole number"):
        gs.with_changes(options={"diplomacy_seconds": 4})
    with pytest.raises(SettingsError, match="turn_timeout_action must be one of: pass, arm"):
        gs.with_changes(options={"turn_timeout_action": "sleep"})
    with pytest.raises(SettingsError, match="sea_attacks must be true or false"):
        gs.with_changes(options={"sea_attacks": 1})


async def test_a_server_default_reaches_only_games_offering_that_option(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db", FakeClock())
    try:
        await svc.update_guild_settings(
            3, options={"diplomacy_seconds": 12, "five_players": True, "turn_timeout_action": "arm"}
        )
        ew = await svc.open_lobby(channel_id=1, host_id=HOST, host_name="A", guild_id=3)
        assert ew.ok and ew.lobby is not None and ew.lobby.variant == "european_war"
        assert ew.lobby.options["diplomacy_seconds"] == 12 and ew.lobby.options["five_players"]
        assert ew.lobby.options["turn_timeout_action"] == "arm" and ew.lobby.max_players == 5
        ww = await svc.open_lobby(
            channel_id=2, host_id=HOST, host_name="A", guild_id=3, variant="world_war_5"
        )
        assert ww.ok and ww.lobby is not None
        assert ww.lobby.options["five_players"] and ww.lobby.max_players == 6
        # World War 5 offers no diplomacy window: the server's default is not its option
        assert ww.lobby.options["diplomacy_seconds"] == 30
        # a table's own choice wins over the server's default
        own = await svc.open_lobby(
            channel_id=4, host_id=HOST, host_name="A", guild_id=3, options={"five_players": False}
        )
        assert own.ok and own.lobby is not None and own.lobby.max_players == 4
        unknown = await svc.open_lobby(
            channel_id=5, host_id=HOST, host_name="A", guild_id=3, variant="chess"
        )
        assert not unknown.ok and unknown.error == "Unknown game 'chess'."
    finally:
        await svc.close()
