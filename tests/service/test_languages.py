"""Each part of an outcome in its reader's language, through ``service.GameService`` on a
real SQLite file with a real game (Claim the Line, ``tests/games/claim_line.py``).

The game's channel speaks the game's language (the server's setting, else the server's
Discord language, else English); what one player alone reads, that player's client
language as last seen, else the game's; a refusal, the caller's. The test game's words
are not translated, so its presentation here stamps each text it makes with the
language it was made in (``[fr] …``): what is checked is the language each part was
worded in. The service's own messages are checked translated.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import i18n
from rules.events import Event
from service import GameService, Outcome
from service.scheduler import FakeClock
from tests.bot.helpers import HOST, make_service, new_game
from tests.games.claim_line import Claim, ClaimGame, ClaimWords

T0 = 1_700_000_000.0
ANN, BOB, CAROL = 101, 102, 103
GUILD = 7
SEED = 2
"""Deals Ann (seat 0) a 3, Bob (seat 1) a 6 and the computer (seat 2) a 1; Ann starts."""


def stamped(text: str | None) -> str | None:
    """``text`` marked with the language it is being written in."""
    return None if text is None else f"[{i18n.current()}] {text}"


class StampedWords(ClaimWords):
    """Claim the Line's words, each stamped with the language it was made in."""

    def describe(self, event: Event, view: Any, names: Sequence[str]) -> str | None:
        return stamped(super().describe(event, view, names))

    def action_label(self, action: Any, view: Any, names: Sequence[str]) -> str:
        return f"[{i18n.current()}] {super().action_label(action, view, names)}"

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        return f"[{i18n.current()}] {super().prompt(kind, view, names)}"

    def status_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        return [f"[{i18n.current()}] {line}" for line in super().status_lines(view, names)]

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        return [f"[{i18n.current()}] {line}" for line in super().private_lines(view, names)]

    def result_line(self, view: Any, names: Sequence[str]) -> str | None:
        return stamped(super().result_line(view, names))

    def computer_name(self, side: str) -> str:
        return f"[{i18n.current()}] {super().computer_name(side)}"


class StampedClaim(ClaimGame):
    """Claim the Line worded by :class:`StampedWords`."""

    presentation = StampedWords()


@pytest.fixture(autouse=True)
def claim_line() -> Iterator[None]:
    """The stamped Claim the Line is registered for the test only."""
    rules.register(StampedClaim())
    try:
        yield
    finally:
        rules.unregister("claim_line")


def languages_of(lines: Sequence[str | None]) -> set[str]:
    """The languages the stamped ``lines`` were written in."""
    return {line[1:3] for line in lines if line}


async def open_lobby(svc: GameService, channel: int, **extra: Any) -> Outcome:
    """Ann opens a Claim the Line table (her reply in English, her caller's language)."""
    with i18n.use("en"):
        return await svc.open_lobby(
            channel_id=channel,
            host_id=ANN,
            host_name="Ann",
            guild_id=GUILD,
            variant="claim_line",
            turn_timeout=600.0,
            **extra,
        )


async def test_a_games_language_comes_from_the_server_setting_else_discord_else_english(
    tmp_path: Path,
) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        german_server = await open_lobby(svc, 1, guild_locale="de")
        assert german_server.language == "de"
        assert german_server.lobby is not None and german_server.lobby.language == "de"
        unknown = await open_lobby(svc, 2, guild_locale="ja")
        assert unknown.language == "en"  # a language the product does not speak
        assert (await open_lobby(svc, 3)).language == "en"

        await svc.update_guild_settings(GUILD, language="cs")
        chosen = await open_lobby(svc, 4, guild_locale="de")
        assert chosen.language == "cs", "the server's /settings language comes first"
        assert (await svc.status(chosen.game_id or 0)).language == "cs"
        cleared = await svc.update_guild_settings(GUILD, language=None)
        assert cleared.language is None
        assert (await open_lobby(svc, 5, guild_locale="de")).language == "de"
    finally:
        await svc.close()


async def test_channel_person_and_caller_each_read_their_own_language(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    svc = await make_service(path, FakeClock(T0))
    try:
        svc.note_locale(ANN, "de")  # Ann's client speaks German; Bob's was never seen
        svc.note_locale(CAROL, "cs")
        opened = await open_lobby(svc, 1, guild_locale="fr")
        assert opened.ok and opened.language == "fr"
        gid = opened.game_id
        assert gid is not None
        with i18n.use("de"):
            assert (await svc.join(gid, BOB, "Bob")).ok
            added = await svc.add_computer(gid, ANN, "normal")
        assert added.ok and added.language == "fr"

        with i18n.use("en"):  # the words of the outcome take nothing from the caller's
            start = await svc.start_game(gid, ANN, seed=SEED)
        assert start.ok, start.error
        assert start.language == "fr"
        assert languages_of(start.public_lines) == {"fr"}
        assert languages_of(start.status_lines) == {"fr"}
        assert start.names[2] == "[fr] Star (computer)", "a seat's name is the channel's"
        ann, bob = start.private[ANN], start.private[BOB]
        assert (ann.language, bob.language) == ("de", "fr")
        assert languages_of([*ann.lines, *ann.private_lines]) == {"de"}
        assert languages_of([*bob.lines, *bob.private_lines]) == {"fr"}
        (turn,) = start.prompts
        assert turn.user_id == ANN and turn.language == "de"
        assert languages_of([turn.text, *turn.labels]) == {"de"}

        # a refusal is in the caller's language, whatever the game's and the person's
        with i18n.use("cs"):
            refused = await svc.act(gid, CAROL, Claim("a1"))
        assert not refused.ok and refused.error == "V této hře nehraješ."
        with i18n.use("fr"):
            refused = await svc.act(gid, CAROL, Claim("a1"))
        assert refused.error == "Tu ne joues pas dans cette partie."

        # Ann's claim opens a window for Bob: his prompt in the game's language
        with i18n.use("en"):
            claimed = await svc.act(gid, ANN, Claim("b2"), version=turn.version)
        assert claimed.ok, claimed.error
        assert languages_of(claimed.public_lines) == {"fr"}
        (respond,) = claimed.prompts
        assert respond.user_id == BOB and languages_of([respond.text, *respond.labels]) == {"fr"}

        svc.note_locale(BOB, "cs-CZ")  # Bob is seen in a Czech client
        assert svc.locale_of(BOB) == "cs" and svc.locale_of(ANN) == "de"
        (again,) = [p for p in await svc.prompts(gid) if p.user_id == BOB]
        assert again.language == "cs" and languages_of([again.text]) == {"cs"}
        await svc.idle()
    finally:
        await svc.close()

    # a restart keeps the game's language and each person's
    svc = await make_service(path, FakeClock(T0 + 1))
    try:
        assert svc.locale_of(ANN) == "de" and svc.locale_of(BOB) == "cs"
        assert svc.locale_of(CAROL) is None, "not seated in a game loaded: not read yet"
        (bob_prompt,) = [p for p in await svc.prompts(gid) if p.user_id == BOB]
        assert languages_of([bob_prompt.text, *bob_prompt.labels]) == {"cs"}
        status = await svc.status(gid)
        assert status.language == "fr"
        with i18n.use("en"):
            paused = await svc.pause(gid, ANN)
        assert paused.ok and paused.language == "fr"
        assert languages_of(paused.status_lines) == {"fr"}
    finally:
        await svc.close()


async def test_a_client_language_is_stored_only_when_it_changes(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    written: list[tuple[int, str]] = []
    store = svc.store
    save = store.set_user_locale

    async def counted(user_id: int, locale: str, now: float) -> None:
        written.append((user_id, locale))
        await save(user_id, locale, now)

    store.set_user_locale = counted  # type: ignore[method-assign]
    try:
        for tag in ("de", "de", None, "de", "fr", "fr", "ja"):
            svc.note_locale(ANN, tag)
        await svc.idle()
        assert written == [(ANN, "de"), (ANN, "fr"), (ANN, "ja")]
        assert svc.locale_of(ANN) is None, "a client language the product does not speak"
        assert await store.user_locales([ANN]) == {ANN: "ja"}
    finally:
        await svc.close()


async def test_a_rematch_keeps_its_games_language(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        with i18n.use("de"):  # the host's client speaks German; the server, Czech
            gid, started = await new_game(
                svc, humans=2, computers=1, guild=GUILD, guild_locale="cs"
            )
        assert started.language == "cs"
        assert (await svc.agree_draw(gid, HOST)).ok
        assert (await svc.agree_draw(gid, 102)).game_over
        await svc.update_guild_settings(GUILD, language="fr")  # for new tables only
        with i18n.use("de"):
            again = await svc.rematch(gid, 102)
        assert again.ok and again.language == "cs"
        assert again.public_lines[0].startswith("P102 žádá o odvetu")
        assert again.lobby is not None
        assert "Počítač 1 (normální)" in [s.name for s in again.lobby.seats]
    finally:
        await svc.close()
