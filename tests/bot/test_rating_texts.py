"""The words of /leaderboard and /stats (``bot.texts``) from the service's records: places,
plurals, the asker's line below the best, names that cannot break the markdown, a record
with games left early and no rating yet, hints when taken."""

from __future__ import annotations

from bot.texts import leaderboard_text, nth, plural, stats_text
from service import KindStats, Leaderboard, PlayerStats, Standing


def test_places_and_plurals() -> None:
    assert [nth(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip
    assert (plural(1, "loss", "losses"), plural(0, "loss", "losses")) == ("1 loss", "0 losses")
    assert (plural(1, "game"), plural(2, "game")) == ("1 game", "2 games")


def test_leaderboard_with_the_askers_line_below_the_best() -> None:
    best = (Standing(1, 1, "*Ann*", 12.345, 9, 7), Standing(2, 2, "Bob", -0.04, 1, 0))
    mine = Standing(14, 3, "Cy", -3.0, 2, 1)
    board = Leaderboard("kind", "A Game", 5, best, 14, mine)
    lines = leaderboard_text(board, "of Home", 3).splitlines()
    assert lines[:5] == [
        "**A Game — leaderboard of Home** (14 rated players)",
        "1. \\*Ann\\* — 12.3 · 9 games, 7 wins",
        "2. Bob — 0.0 · 1 game, 0 wins",
        "…",
        "14. **Cy** (you) — -3.0 · 2 games, 1 win",
    ]
    # the asker among the best is marked there, not repeated
    board = Leaderboard("kind", "A Game", 5, best, 14, best[1])
    lines = leaderboard_text(board, "of Home", 2).splitlines()
    assert lines[2] == "2. **Bob** (you) — 0.0 · 1 game, 0 wins" and "…" not in lines
    empty = Leaderboard("kind", "A Game", None, (), 0, None)
    assert leaderboard_text(empty, "of everyone", 1).startswith(
        "**A Game — leaderboard of everyone**\nNobody is rated yet."
    )


def test_stats_of_two_kinds_one_not_rated_with_games_left_and_hints() -> None:
    rated = KindStats("one", "First Game", 5, 2, 1, 0, 1, 1, "Cross", 3, 4.56, 2, 7, ((1.0, 4.56),))
    alone = KindStats("two", "Second Game", 1, 1, 0, 0, 0, 0, None, 0, None, None, 0, ())
    stats = PlayerStats(9, "Dee", (rated, alone), hints=4)
    assert stats_text(stats, "ignored").splitlines() == [
        "**Stats of Dee**",
        "**First Game** · rating **4.6** (2nd of 7)",
        "5 games: 2 wins, 1 shared win, 0 draws, 1 loss, 1 left early",
        "Favourite side: Cross (3 games)",
        "**Second Game** · not rated yet (a game with at least two people is rated)",
        "1 game: 1 win, 0 shared wins, 0 draws, 0 losses",
        "Hints taken: 4",
    ]
    assert stats_text(PlayerStats(9, None, ()), "dee_") == (
        "dee\\_ has not finished a game in a server yet."
    )
