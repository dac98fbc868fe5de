"""The service's own words in every language the product speaks, through the real paths: a
whole table (lobby, refusals, start, status, draws, undo, pause, seats, cancel, replay, the
rule book, settings errors, hints, panels) is played once per language on a real SQLite
file, and everything the service said is collected.

Each formatted message is filled in every language (a placeholder a translation lacks
or adds would raise here), every text but the few the same in every language differs
from English, and representative ones read as their translation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import i18n
from rules.presentation import Tally, TallyGroup
from service import (
    Counts,
    GameService,
    HintInfo,
    Outcome,
    ServiceError,
    first_step,
    rulebook,
    shortfall,
)
from service.models import GuildSettings, SettingsError
from service.queries import time_left
from service.scheduler import FakeClock
from tests.bot.helpers import make_service
from tests.games.claim_line import Claim, ClaimGame

T0 = 1_700_000_000.0
ANN, BOB, CAROL = 101, 102, 103
GUILD = 7
SEED = 2
"""Ann (seat 0) starts (see ``test_third_game``)."""


pytestmark = pytest.mark.usefixtures("claim_line")


class Said:
    """What the service said, in order: public lines and refusals alike."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def lines(self, outcome: Outcome) -> Outcome:
        """Keep ``outcome``'s public lines (it must have succeeded)."""
        assert outcome.ok, outcome.error
        self.texts += outcome.public_lines
        return outcome

    def refusal(self, outcome: Outcome) -> None:
        """Keep ``outcome``'s refusal (it must have been refused)."""
        assert not outcome.ok and outcome.error
        self.texts.append(outcome.error)

    def error(self, exc: Exception) -> None:
        """Keep a raised refusal's words."""
        self.texts.append(str(exc))


async def play_a_table(path: Path, locale: str) -> list[str]:
    """A table in a server speaking ``locale``, every caller's client in it too."""
    svc = await make_service(path, FakeClock(T0), undo_seconds=30.0)
    said = Said()
    try:
        with i18n.use(locale):
            await table(svc, said, locale)
            said.texts += offline(locale)
    finally:
        await svc.close()
    return said.texts


async def table(svc: GameService, said: Said, locale: str) -> None:
    """Everything a table goes through, each refusal in the caller's language."""
    opened = said.lines(
        await svc.open_lobby(
            channel_id=1,
            host_id=ANN,
            host_name="Ann",
            guild_id=GUILD,
            variant="claim_line",
            turn_timeout=600.0,
            guild_locale=locale,
            host_power="Cross",
        )
    )
    gid = opened.game_id
    assert gid is not None and opened.language == locale
    said.refusal(await svc.open_lobby(channel_id=1, host_id=BOB, host_name="B", guild_id=GUILD))
    said.refusal(await svc.join(gid, ANN, "Ann"))
    said.refusal(await svc.join(gid, BOB, "Bob", power="pyramid"))
    said.refusal(await svc.join(gid, BOB, "Bob", power="cross"))
    said.lines(await svc.join(gid, CAROL, "Carol"))
    said.lines(await svc.leave(gid, CAROL))
    said.refusal(await svc.leave(gid, CAROL))
    said.refusal(await svc.add_computer(gid, ANN, "brutal"))
    said.refusal(await svc.remove_computer(gid, ANN))
    said.refusal(await svc.start_game(gid, ANN))
    said.refusal(await svc.start_game(gid, BOB))
    said.lines(await svc.add_computer(gid, ANN, "hard"))
    said.refusal(await svc.configure(gid, ANN, max_players=1))
    said.lines(await svc.configure(gid, ANN, options={"window_seconds": 25}))
    said.lines(await svc.join(gid, BOB, "Bob"))
    said.refusal(await svc.add_computer(gid, ANN))
    said.refusal(await svc.configure(gid, ANN, max_players=2))
    said.lines(await svc.remove_computer(gid, ANN))
    said.lines(await svc.add_computer(gid, ANN, "hard"))
    said.refusal(await svc.rematch(gid, ANN))

    start = await svc.start_game(gid, ANN, seed=SEED)  # its lines are the game's own
    assert start.ok, start.error
    said.refusal(await svc.join(gid, CAROL, "Carol"))
    said.refusal(await svc.leave(gid, BOB))
    said.refusal(await svc.act(gid, CAROL, Claim("a1")))
    said.refusal(await svc.agree_draw(gid, ANN))
    said.refusal(await svc.refuse_draw(gid, ANN))
    said.refusal(await svc.undo(gid, ANN))
    said.refusal(await svc.undo(gid, BOB))
    said.refusal(await svc.command(gid, ANN, "claim", {"cell": "z9"}))
    said.refusal(await svc.command(gid, ANN, "nope", {}))
    said.refusal(await svc.command(gid, ANN, "claim", {"colour": "red"}))
    said.refusal(await svc.act_with(gid, ANN, "fly", {}))
    status = (await svc.status(gid)).lines  # the game's summary between two of its own
    said.texts += [status[0], status[-1]]
    for user in (CAROL, BOB):
        with pytest.raises(ServiceError) as refused:
            await svc.hint(gid, user)
        said.error(refused.value)

    said.lines(await svc.pause(gid, ANN))
    said.refusal(await svc.pause(gid, ANN))
    said.refusal(await svc.pause(gid, BOB))
    said.texts += (await svc.status(gid)).lines[:1]
    said.lines(await svc.resume(gid, ANN))
    said.refusal(await svc.resume(gid, ANN))
    said.refusal(await svc.replace_seat(gid, ANN, 7, level="normal"))
    said.refusal(await svc.replace_seat(gid, ANN, 1, user_id=ANN, name="Ann"))
    said.refusal(await svc.replace_seat(gid, ANN, 2, level="brutal"))
    said.lines(await svc.replace_seat(gid, ANN, 2, user_id=CAROL, name="Carol"))
    said.lines(await svc.resign(gid, CAROL))
    said.lines(await svc.cancel(gid, ANN))
    said.refusal(await svc.cancel(gid, ANN))
    said.refusal(await svc.rematch(gid, ANN))
    with pytest.raises(ServiceError) as refused:
        await svc.leaderboard("no_such_game")
    said.error(refused.value)

    replay = await svc.replay(gid)
    said.texts.append(replay.text().splitlines()[1])  # the heading is names only
    said.texts.append(replay.steps[0].title)
    for channel in (None, 9):
        with pytest.raises(ServiceError) as refused:
            await svc.replay(gid + 50 if channel is None else gid, channel_id=channel)
        said.error(refused.value)


def offline(locale: str) -> list[str]:
    """The words made without a game: the rule book's chrome, settings errors, a hint's
    lines, a counts panel's shortfall, durations."""
    out = [
        rulebook.lookup(None, "claim_line").splitlines()[0],
        rulebook.lookup("99", "claim_line"),
        rulebook.lookup("zebra", "claim_line"),
    ]
    for change in ({"lunch": 1}, {"turn_timeout": 5.0}, {"language": "ja"}, {"max_games": 0.5}):
        try:
            GuildSettings(GUILD).with_changes(**change)
        except SettingsError as exc:
            out.append(str(exc))
    out += HintInfo(1, 0, "turn", None, "Claim b2", (), 3).lines()
    out.append(first_step(ClaimGame(), 0, (), ()).question)
    tally = Tally(2, "casualties", (TallyGroup("small", (1, 2), 1),))
    out.append(shortfall(Counts(0, tally, (1,))) or "")
    return out


@pytest.mark.parametrize("locale", [lang for lang in i18n.LOCALES if lang != "en"])
async def test_every_word_of_a_table_is_translated(locale: str, tmp_path: Path) -> None:
    english = await play_a_table(tmp_path / "en.db", "en")
    translated = await play_a_table(tmp_path / f"{locale}.db", locale)
    assert len(english) > 60 and len(translated) == len(english)
    same = [en for en, other in zip(english, translated, strict=True) if en == other]
    assert same == []


def test_durations_in_every_language() -> None:
    for locale in i18n.LOCALES:
        with i18n.use(locale):
            assert [time_left(s) for s in (45, 720, 12000, 10800)] == [
                "45 s",
                "12 min",
                "3 h 20 min",
                "3 h",
            ]


async def test_representative_words_read_as_their_translation(tmp_path: Path) -> None:
    texts = {
        locale: await play_a_table(tmp_path / f"{locale}.db", locale)
        for locale in ("de", "fr", "cs")
    }
    assert "Bob ist dabei (3/3)." in texts["de"]
    assert "V této hře nehraješ." in texts["cs"]
    assert "Ke stolu přisedá Počítač 1 (těžký) (3/3)." in texts["cs"]
    assert "Claim the Line : en cours" in texts["fr"]
    assert "La partie a été annulée." in texts["fr"]
    assert "**Tipp:** Claim b2" in texts["de"]
    assert "(Tvé rady v této hře: 3.)" in texts["cs"]
