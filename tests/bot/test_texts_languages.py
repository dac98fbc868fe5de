"""The bot's own texts in every language, through the functions that make them: each
formatted message fills its placeholders (a translation naming another would fail here),
and the words come out in the language of the context."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.cogs.table import settings_text
from bot.entry import check_options
from bot.errors import StalePayload
from bot.permissions import missing_text
from bot.texts import duration_words, game_line, leaderboard_text, lobby_text, stats_text
from bot.views.counts import count_line
from bot.views.table import draw_question
from rules import contract, i18n
from rules.presentation import Tally, TallyGroup
from service import (
    Counts,
    DecisionInfo,
    GameListing,
    KindStats,
    Leaderboard,
    LobbyInfo,
    PlayerStats,
    SeatInfo,
    Standing,
    shortfall,
)
from service.models import GuildSettings

GAME = contract.game_names()[0]
SEATS = (
    SeatInfo(None, 1, "Ann", None, "x", "Xland"),
    SeatInfo(None, None, "Bot", "easy", None, None),
)


def texts() -> list[str]:
    """One of each kind of text, in the current language."""
    info = LobbyInfo(1, GAME, SEATS, 4, True, {}, 3600.0, 1.8e9)
    mine = (DecisionInfo(0, "turn", 7, "Ann", 1.8e9),)
    waiting = (DecisionInfo(0, "turn", 8, "Bob", None),)
    kinds = (KindStats("k", "A Game", 5, 2, 1, 0, 1, 1, "Cross", 3, 4.5, 2, 7, ((1.0, 4.5),)),)
    board = Leaderboard("k", "A Game", 5, (Standing(1, 7, "Ann", 3.0, 4, 2),), 9, None)
    tally = Tally(3, "casualties", (TallyGroup("Infantry", ("x",) * 3, 1),))
    return [
        lobby_text(info),
        lobby_text(info, closed="-"),
        game_line(GameListing(1, 2, 3, "running", GAME, True, SEATS, mine), 7, "here"),
        game_line(GameListing(1, 2, 3, "running", GAME, False, SEATS, waiting), 7, "here"),
        game_line(GameListing(1, 2, 3, "lobby", GAME, False, SEATS, ()), 7, "here"),
        leaderboard_text(board, "of X", 7),
        stats_text(PlayerStats(7, "Ann", kinds, hints=2), "Ann"),
        settings_text(GuildSettings(guild_id=1, language="cs")),
        missing_text(["Attach Files", "Embed Links"]),
        missing_text([], "refused"),
        count_line(Counts(1, tally, (1,))),
        *(draw_question(yes, people)[0] for yes, people in ((0, 1), (1, 3), (0, 3))),
        *(duration_words(s) for s in (None, 86400, 7200, 300, 45)),
    ]


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_every_text_is_made_in_the_contexts_language(language: str) -> None:
    with i18n.use(language):
        made = texts()
    with i18n.use(i18n.DEFAULT):
        english = texts()
    assert all(made)
    differ = sum(a != b for a, b in zip(made, english, strict=True))
    if language == i18n.DEFAULT:
        assert differ == 0
    else:
        assert differ >= len(made) // 2, "the texts are translated"


def test_a_stale_options_refusal_in_czech() -> None:
    @app_commands.command(name="log", description="The log")
    async def log(interaction: object, n: app_commands.Range[int, 1, 50] = 10) -> None: ...

    with i18n.use("cs"), pytest.raises(StalePayload) as refused:
        check_options(log, [{"name": "n", "type": 4, "value": 99}])
    assert refused.value.message == "Volba `n` příkazu /log musí být od 1 do 50 (ne 99)."


def _economy_counts() -> list[Counts]:
    """Counts panels of each bound, with a place, within and past their totals."""
    buy = Tally(
        9,
        "RP",
        (TallyGroup("Hussars (3 RP)", (), 0, 3, placed=(("a",), ("b",))),) * 4,
        "at most",
        "done",
        ("Paris", "Lyon"),
        0,
        "city",
    )
    upkeep = Tally(2, "units to disband", (TallyGroup("Reserves", ("u",) * 3, 2),), "at least")
    split = Tally(5, "RP", (TallyGroup("Paris", ("d",) * 5, 5, whole=True),))
    return [
        Counts(1, buy, (1, 1, 0, 0), 1),
        Counts(1, buy, (1, 1, 1, 1), 0),
        Counts(1, upkeep, (2,)),
        Counts(1, upkeep, (1,)),
        Counts(1, split, (5,)),
        Counts(1, split, (4,)),
    ]


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_counts_lines_and_refusals_of_every_bound_in_every_language(language: str) -> None:
    with i18n.use(language):
        made = [count_line(c) for c in _economy_counts()]
        made += [r for c in _economy_counts() if (r := shortfall(c)) is not None]
    with i18n.use(i18n.DEFAULT):
        english = [count_line(c) for c in _economy_counts()]
        english += [r for c in _economy_counts() if (r := shortfall(c)) is not None]
    assert len(made) == len(english) == 9  # three of them over their bound
    if language == i18n.DEFAULT:
        assert (
            made[0] == "➤ RP: **6** of at most 9 — Hussars (3 RP), Hussars (3 RP) · City: **Lyon**"
        )
        assert made[-2] == "Units to disband: at least 2; you have chosen 1."
    else:
        assert all(a != b for a, b in zip(made, english, strict=True)), made
    if language == "cs":
        assert made[3] == "➤ Units to disband: **1**, alespoň 2 — Reserves 1 (uprav počty)"
        assert made[6] == "RP: nejvýše 9; vybráno máš 12."
