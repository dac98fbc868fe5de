"""Opening a store: ``open_store`` picks the implementation from a path or a URL, and the
service hands a front end only its part of the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import GameService
from service.scheduler import FakeClock
from service.sqlite_store import SqliteStore
from service.store import open_store


@pytest.mark.parametrize("form", ["path", "text", "url"])
async def test_a_path_or_an_sqlite_url_opens_that_file(tmp_path: Path, form: str) -> None:
    path = tmp_path / "nested" / "games.db"
    forms: dict[str, str | Path] = {"path": path, "text": str(path), "url": f"sqlite:///{path}"}
    where = forms[form]
    store = await open_store(where)
    try:
        assert isinstance(store, SqliteStore) and store.path == path
        await store.set_meta("k", form)
    finally:
        await store.close()
    assert path.is_file()
    again = await open_store(path)
    try:
        assert await again.meta("k") == form
    finally:
        await again.close()


async def test_a_database_this_build_cannot_open_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mysql"):
        await open_store("mysql://bot@localhost/games")
    with pytest.raises(ValueError, match="synchronous"):
        await open_store(tmp_path / "x.db", synchronous="SOMETIMES")
    assert not (tmp_path / "x.db").exists()


async def test_the_service_hands_out_the_front_end_s_part_of_its_store(tmp_path: Path) -> None:
    service = GameService(await open_store(tmp_path / "g.db"), clock=FakeClock(0.0))
    await service.start()
    await service.front_store.set_user_pings(5, False, 1.0)
    await service.front_store.record_departure(9, 2.0)
    await service.close()  # closes the store: what the front end kept is committed
    store = await open_store(tmp_path / "g.db")
    try:
        assert await store.user_pings(5) is False
        assert await store.departures() == {9: 2.0}
    finally:
        await store.close()
