"""The pyramid games' images in German, French and Czech: the words drawn are the
language's (the map's names and seas, the panel, the duel, the hand), whole, and each
language keeps its own static layer; equal boards give equal bytes in every language."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from render.pyramids import PyramidImages, board_png, duel_png, hand_png
from render.pyramids.board import draw_board, summary
from render.pyramids.duel import duel_image
from render.pyramids.hand import hand_image
from render.pyramids.labels import two_lines
from render.pyramids.static_layer import _sea_labels, legend_words, name_labels, static_board
from render.text import recording
from rules import i18n, pyramids
from tests.render.helpers import ev, made_up_view

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def _drawn_words(language: str) -> list[str]:
    view = made_up_view("european_war", {"germany": (2, 3), "austria": (2, 1)})
    events = [ev("moved", seat=2, src="germany", dst="austria", size=1, by_sea=False)]
    with i18n.use(language), recording() as drawn:
        draw_board(view, NAMES, events, False)
    return [text.replace("\u200a", "") for text in drawn]


@pytest.mark.parametrize(
    ("language", "title", "sentence"),
    [
        ("de", "LETZTE AKTION", "Cy zieht eine kleine Figur von Deutschland nach Österreich."),
        ("fr", "DERNIÈRE ACTION", "Cy a déplacé une petite pièce de Allemagne à Autriche."),
        ("cs", "POSLEDNÍ AKCE", "Cy táhne malou figurku z pole Německo na pole Rakousko."),
    ],
)
def test_a_board_s_panel_speaks_the_language(language: str, title: str, sentence: str) -> None:
    drawn = _drawn_words(language)
    assert title in drawn
    # the last action's sentence, wrapped at spaces, is drawn whole
    at = drawn.index(title) + 1
    assert " ".join(drawn[at:])[: len(sentence)] == sentence
    assert "LAST ACTION" not in drawn


@pytest.mark.parametrize(
    ("language", "germany", "sea"),
    [
        ("de", "Deutschland", "Nordsee"),
        ("fr", "Allemagne", "Mer du Nord"),
        ("cs", "Německo", "Severní moře"),
    ],
)
def test_the_map_names_its_fields_and_seas_in_the_language_uncut(
    language: str, germany: str, sea: str
) -> None:
    board = pyramids.load_board("european_war")
    with i18n.use(language):
        labels = {lab.key: lab.text for lab in name_labels("european_war")}
        assert labels["germany"] == germany
        for fid, f in board.fields.items():
            assert labels[fid] in (f.name, two_lines(f.name)), fid
        title, groups, sail, strait = legend_words()
        with i18n.use("en"):
            english = legend_words()
        assert (title, groups, sail, strait) != english
        assert all(a != b for a, b in zip(groups.values(), english[1].values(), strict=True))
        layer = static_board("european_war")
        assert static_board("european_war") is layer
    with i18n.use("en"):
        assert static_board("european_war") is not layer  # each language has its own
    with i18n.use(language):
        assert sea in [lab.key for lab in _sea_labels("european_war")]


@pytest.mark.parametrize("language", ["de", "fr", "cs"])
def test_equal_boards_give_equal_bytes_and_languages_differ(language: str) -> None:
    view = made_up_view("world_war_5", {"usa": (0, 3), "brazil": (1, 2)})
    with i18n.use(language):
        first = board_png(view, NAMES)
        assert board_png(view, NAMES) == first
    with i18n.use("en"):
        english = board_png(view, NAMES)
    assert english != first
    with i18n.use(language):
        assert board_png(view, NAMES) == first  # whatever was drawn in between


@pytest.mark.parametrize(
    ("language", "role", "count", "alt"),
    [
        ("de", "ANGREIFER", "3 Karten", "Figuren:"),
        ("fr", "ATTAQUANT", "3 cartes", "Pièces :"),
        ("cs", "ÚTOČNÍK", "3 karty", "Figurky:"),
    ],
)
def test_duel_hand_and_alt_text_speak_the_language(
    language: str, role: str, count: str, alt: str
) -> None:
    game, _ = pyramids.new_game("european_war", [None] * 3, seed=3, arranged=True)
    view = pyramids.view_for(game, None)
    battle = pyramids.BattleView(
        stage="duel",
        attacker=0,
        defender=1,
        src=view_field(view, 0),
        dst=view_field(view, 1),
        attacker_size=3,
        defender_size=2,
        attacker_cards=(5,),
        defender_cards=(),
        attacker_limit=3,
        defender_limit=2,
        attacker_total=7,
        defender_total=0,
        attacker_done=False,
        defender_done=False,
        to_play=1,
        waiting_for=(),
        retreat_options=(),
    )
    duel_view = dataclasses.replace(view, battle=battle)
    with i18n.use(language):
        with recording() as drawn:
            duel_image(duel_view, NAMES)
        assert role in [t.replace("\u200a", "") for t in drawn]
        with recording() as drawn:
            hand_image([1, 2, 3], title="Ann")
        assert count in drawn
        assert alt in summary(view, NAMES)
        assert duel_png(duel_view, NAMES) and hand_png([1, 2, 3], title="Ann")


def view_field(view: pyramids.View, seat: int) -> str:
    """The first home field of ``seat``'s power."""
    board = pyramids.load_board(view.board_id)
    return board.powers[view.seats[seat].power].fields[0]


def test_the_images_alt_texts_speak_the_language() -> None:
    images = PyramidImages("european_war")
    with i18n.use("de"):
        assert images.private_text([51, 0]).startswith("Deine Karten: 2")
        assert images.private_text([]) == "Deine Karten: keine"
        assert images.extra_text("duel") == "Das Duell: offen gespielte Karten und Summen."
    with i18n.use("cs"):
        assert images.private_text([]) == "Tvoje karty: žádné"


def test_the_gallery_is_written_in_the_language_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m render.pyramids.gallery DIR cs`` draws its samples in Czech; an unknown
    language is refused before anything is drawn."""
    from render.pyramids import gallery

    drawn_in: list[str] = []

    def write(out: Path) -> list[Path]:
        drawn_in.append(i18n.current())
        return []

    monkeypatch.setattr(gallery, "write_gallery", write)
    assert gallery.main([str(tmp_path), "cs"]) == 0
    assert gallery.main([str(tmp_path)]) == 0
    assert gallery.main([str(tmp_path), "xx"]) == 2
    assert drawn_in == ["cs", "en"]
