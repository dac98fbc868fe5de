"""Every translated word of the bot fits where Discord shows it, in every language: the
buttons, select options and placeholders of every view the bot makes (checked by the fake
Discord's own validation: a button's label 80 characters, an option's 100, a placeholder
150), the longest texts (/help, /about) in messages of 2000 characters, and every message
of the bot's catalogue within a message's 2000. The bot sends no embeds; command
descriptions and choice names (100) are checked by the command sync through the fake
Discord (tests/bot/e2e/test_languages.py)."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.catalogue import _, catalogue
from bot.texts import about, help_for, pages
from bot.views.confirm import confirm_view
from bot.views.controls import Controls
from bot.views.counts import count_line, counts_view
from bot.views.lobby import lobby_view, options_view
from bot.views.table import draw_items, draw_question
from bot.views.turn import step_view
from rules import contract, i18n
from rules.contract import Param
from rules.presentation import Tally, TallyGroup
from service import Counts, LobbyInfo, Offer, Step
from tests.fake_discord.limits import check_components, check_message
from tools import i18n as catalogues

CONTROLS = Controls(cast(Any, None))  # rendering only: no click is answered here
GID, UID, VER = 123456, 654321, 42


def _step(offers: int, complete: bool = False) -> Step:
    said = (Offer("a", "Chosen", ""),)
    return Step(
        VER,
        contract.game_names()[0],
        "move",
        "Move",
        said,
        {"src": "a"},
        (False,),
        (0,),
        None if complete else Param("dst", "space"),
        "" if complete else "Where to:",
        () if complete else tuple(Offer(f"v{i}", f"Field {i}", "") for i in range(offers)),
    )


def _one(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def views() -> list[discord.ui.View]:
    """Every kind of view the bot makes, in the current language."""
    made = [lobby_view(CONTROLS, GID)]
    for name in contract.game_names():
        info = LobbyInfo(UID, name, (), 5, False, {}, 3600.0, None)
        made.append(options_view(CONTROLS, GID, info))
    for yes, people in ((0, 1), (1, 2), (1, 3), (0, 3)):
        made.append(confirm_view(CONTROLS, "draw", GID, UID, draw_question(yes, people)[1]))
    made.append(confirm_view(CONTROLS, "cancel", GID, UID, _("Cancel the game")))
    made.append(confirm_view(CONTROLS, "resign", GID, UID, _("Resign")))
    made.append(_one(*draw_items(CONTROLS, GID), CONTROLS.undo(GID, VER), CONTROLS.rematch(GID)))
    made.append(_one(CONTROLS.opener(GID, "t"), CONTROLS.opener(GID, "a")))
    made.append(_one(CONTROLS.open_panel(GID, UID)))
    for page in range(3):  # Earlier, Later, Back, Cancel and the selects' placeholders
        made.append(step_view(CONTROLS, GID, _step(200), page))
    made.append(step_view(CONTROLS, GID, _step(0, complete=True)))  # Confirm
    tally = Tally(
        3, "casualties", (TallyGroup("Infantry", ("x",) * 3, 2), TallyGroup("Fleet", ("y",)))
    )
    made.append(counts_view(CONTROLS, GID, Counts(VER, tally, (2, 1))))
    return made


def _economy() -> list[Counts]:
    """Counts panels as large as a game makes them: six chits to buy (toggles) with 30
    places to put them (two selects), 60 types to disband (one digit each in the custom
    ids, pages), and 300 RP split between twelve cities (amounts)."""
    places = tuple(f"Buda, Pest & Pressburg (Hungary) {i}" for i in range(30))
    chits = tuple(
        TallyGroup(f"Mounted Chasseurs ({i} RP)", (), 0, i, placed=(("x",),) * 30) for i in range(6)
    )
    buy = Tally(9, "RP", chits, "at most", "done", places, 29, "city")
    units = tuple(TallyGroup(f"Unit {i}", ("u",) * 9, i % 2) for i in range(60))
    upkeep = Tally(30, "units to disband", units, "at least", "done")
    cities = tuple(TallyGroup(f"City {i}", ("d",) * 300, 0, whole=True) for i in range(12))
    split = Tally(300, "RP", cities)
    return [
        Counts(VER, buy, (1, 0, 1, 0, 1, 1), 29),
        Counts(VER, upkeep, tuple(g.suggested for g in units)),
        Counts(VER, split, (300,) + (0,) * 11),
    ]


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_every_view_fits_discords_limits(language: str) -> None:
    with i18n.use(language):
        made = views()
        labels = [
            c.get("label") or c.get("placeholder")
            for v in made
            for row in v.to_components()
            for c in row["components"]
        ]
        for view in made:
            check_components(view.to_components())
    if language != i18n.DEFAULT:  # the views are really in that language
        with i18n.use(i18n.DEFAULT):
            english = [
                c.get("label") or c.get("placeholder")
                for v in views()
                for row in v.to_components()
                for c in row["components"]
            ]
        assert sum(a != b for a, b in zip(labels, english, strict=True)) > len(labels) // 2


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_the_largest_counts_panels_fit(language: str) -> None:
    with i18n.use(language):
        for counts in _economy():
            for page in (0, 1):
                check_components(counts_view(CONTROLS, GID, counts, page).to_components())
            check_message({"content": count_line(counts)}, 0)


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_the_longest_texts_fit_in_messages(language: str) -> None:
    with i18n.use(language):
        texts = [about(), *(p for name in contract.game_names() for p in pages(help_for(name)))]
        tally = Tally(
            12, "casualties", tuple(TallyGroup(f"Type {i}", ("x",) * 3) for i in range(6))
        )
        texts.append(count_line(Counts(VER, tally, (3, 3, 3, 3, 0, 0))))
    for text in texts:
        check_message({"content": text}, 0)


@pytest.mark.parametrize("language", [lang for lang in i18n.LOCALES if lang != i18n.DEFAULT])
def test_every_message_fits_in_a_message(language: str) -> None:
    template = catalogues.read(catalogue.directory / "messages.pot")
    translations = catalogue.translations(language)
    for message in template:
        if not message.id:
            continue
        forms = tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)
        for n, form in enumerate(forms):
            if message.context:
                text = translations.pgettext(message.context, form)
            elif len(forms) > 1:
                text = translations.ngettext(forms[0], forms[1], n + 1)
            else:
                text = translations.gettext(form)
            assert len(text) <= 1900, form[:60]  # room for what fills the placeholders
