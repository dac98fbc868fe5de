"""The JSON files older releases kept beside the database are imported once, then
renamed; a broken one is left alone and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from bot.legacy import import_legacy_files
from bot.sync import COMMANDS_HASH_KEY
from service.store import open_store


async def test_old_files_are_imported_once_and_renamed(tmp_path: Path) -> None:
    (tmp_path / "preferences.json").write_text(json.dumps({"no_pings": [5, 7]}))
    (tmp_path / "departures.json").write_text(json.dumps({"40": 1000.5}))
    (tmp_path / "commands.sha256").write_text("12:abcd\n")
    store = await open_store(tmp_path / "games.db")
    try:
        done = await import_legacy_files(store, tmp_path, 2000.0)
        assert sorted(done) == ["commands.sha256", "departures.json", "preferences.json"]
        assert not await store.user_pings(5) and not await store.user_pings(7)
        assert await store.user_pings(6)
        assert await store.departures() == {40: 1000.5}
        assert await store.meta(COMMANDS_HASH_KEY) == "12:abcd"
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".imported")) == [
            "commands.sha256.imported",
            "departures.json.imported",
            "preferences.json.imported",
        ]
        await store.set_user_pings(5, True, 2001.0)
        assert await import_legacy_files(store, tmp_path, 2002.0) == []  # nothing left
        assert await store.user_pings(5)
    finally:
        await store.close()


async def test_a_broken_file_is_left_in_place(tmp_path: Path) -> None:
    (tmp_path / "preferences.json").write_text("{broken")
    (tmp_path / "departures.json").write_text(json.dumps({"x": "y"}))
    store = await open_store(tmp_path / "games.db")
    try:
        assert await import_legacy_files(store, tmp_path, 1.0) == []
        assert await store.user_pings(5) and await store.departures() == {}
    finally:
        await store.close()
    assert (tmp_path / "preferences.json").is_file()
    assert (tmp_path / "departures.json").is_file()
