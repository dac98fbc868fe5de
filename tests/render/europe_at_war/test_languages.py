"""Europe at War's images in German, French and Czech: the side panel, the legend, the
battle image and the map's own names are drawn in the reader's language, whole (no text
is cut: nothing drawn ends in an ellipsis, the legend's names fit their column, a sea's
name fits its frame), and each language's map is drawn and cached apart."""

from __future__ import annotations

import pytest

from render.europe_at_war import board_png
from render.europe_at_war.battle import battle_image
from render.europe_at_war.board import board_image
from render.europe_at_war.catalogue import _
from render.europe_at_war.icons import LEGEND, TYPE_NAMES
from render.europe_at_war.layout import PANEL_WIDTH
from render.europe_at_war.static import short_name, static
from render.fonts import font
from render.text import ELLIPSIS, recording
from rules import i18n
from rules.europe_at_war.data import game_map
from rules.europe_at_war.describe import nation_name
from rules.europe_at_war.view import view_for
from tests.render.europe_at_war.test_board import position

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")
TRANSLATED = ("de", "fr", "cs")

PANEL = {
    "de": ("Deutschland und die Alpen", "Runde 6 von 12", "LEGENDE", "schwere Infanterie"),
    "fr": ("Allemagne et Alpes", "Manche 6 sur 12", "LÉGENDE", "infanterie lourde"),
    "cs": ("Německo a Alpy", "Kolo 6 z 12", "LEGENDA", "těžká pěchota"),
}
"""Words the Germany crop's panel draws in each language, for the battle position."""
BATTLE = {
    "de": ("GREIFT AN", "VERTEIDIGT", "Stärke"),
    "fr": ("ATTAQUE", "DÉFEND", "Force"),
    "cs": ("ÚTOČÍ", "BRÁNÍ SE", "Síla"),
}
MAP = {
    "de": ("Wien", "Prag", "Ostsee"),
    "fr": ("Vienne", "Berne", "Mer Baltique"),
    "cs": ("Vídeň", "Praha", "Baltské moře"),
}
"""Names the maps write in each language: two cities on the Germany crop, a sea on the
full map."""


def _no_cut(strings: list[str]) -> None:
    assert strings
    for text in strings:
        assert ELLIPSIS not in text, text


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize("key", ["full", "germany"])
def test_the_panel_is_drawn_in_the_readers_language_and_whole(locale: str, key: str) -> None:
    view = view_for(position("battle"), None)
    with i18n.use(locale), recording() as drawn:
        board_image(view, NAMES, (), key)
    _no_cut(drawn)
    with recording() as english:
        board_image(view, NAMES, (), key)
    assert "KEY" in english and "KEY" not in drawn
    region, round_text, legend, heavy = PANEL[locale]
    assert {round_text, legend, heavy} <= set(drawn)
    assert (region in drawn) == (key == "germany")
    with i18n.use(locale):
        nations = {f"{NAMES[s]} ({nation_name(n)})" for s, n in enumerate(view.nations)}
    assert nations <= set(drawn)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_the_legend_fits_its_column_in_every_language(locale: str) -> None:
    column = (PANEL_WIDTH - 28) // 2 - 20
    with i18n.use(locale):
        for t in LEGEND:
            assert font(11).getlength(_(TYPE_NAMES[t])) <= column - 4, TYPE_NAMES[t]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_battle_image_is_drawn_in_the_readers_language_and_whole(locale: str) -> None:
    view = view_for(position("battle"), None)
    assert view.battle is not None
    with i18n.use(locale), recording() as drawn:
        battle_image(view, NAMES)
    _no_cut(drawn)
    assert set(BATTLE[locale]) <= set(drawn)
    with i18n.use(locale):
        where = game_map().name(view.battle.at)
    assert any(where in text for text in drawn), (where, drawn)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_maps_names_are_written_in_the_readers_language(locale: str) -> None:
    m = game_map()
    with i18n.use(locale):
        seas = {m.name(s) for s in m.seas}
        meant = seas | {short_name(m.name(t)) for t in m.territories}
    first, second, baltic = MAP[locale]
    for key, wanted in (("germany", {first, second}), ("full", {baltic})):
        english = static(key, False, "en").names
        st = static(key, False, locale)
        assert wanted <= set(st.names) and not wanted & set(english)
        assert set(st.names) <= meant and len(st.names) == len(english)
        sea_font = font(15 if st.frame.detailed else 13, bold=True)
        for name in set(st.names) & seas:
            assert sea_font.getlength(name) + 8 <= st.frame.size[0], name


def test_each_language_draws_its_own_map() -> None:
    view = view_for(position("start"), None)
    drawn = {}
    for locale in i18n.LOCALES:
        with i18n.use(locale):
            drawn[locale] = board_png(view, NAMES, (), "germany")
    assert len(set(drawn.values())) == len(i18n.LOCALES)
    with i18n.use("en"):
        assert board_png(view, NAMES, (), "germany") == drawn["en"]
