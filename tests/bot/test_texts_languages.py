"""The bot's own texts in every language, through the functions that make them: each
formatted message fills its placeholders (a translation naming another would fail here),
and the words come out in the language of the context."""

from __future__ import annotations

import pytest
from discord import app_commands

import i18n
from bot.cogs.table import settings_text
from bot.entry import check_options
from bot.errors import StalePayload
from bot.permissions import missing_text
from bot.texts import duration_words, game_line, leaderboard_text, lobby_text, stats_text
from bot.views.counts import count_line
from bot.views.table import draw_question
from rules import contract
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
