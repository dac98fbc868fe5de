"""No text in any gallery image is cut: what was drawn is compared with what was meant.

Every text an image makes from its inputs (names, powers, statuses, events, titles)
is drawn by :func:`render.text.put` or :func:`render.text.put_words`, which
:func:`render.text.recording` records (the map's own labels are fixed: the static
layer's tests place them). Each board is drawn with an ``element`` hook, so the strings
of each part of its panel are known apart; each part's strings are compared with the
intended ones, worked out here from the view, the names and the events: a name drawn
must be one of the forms of the rule (:func:`render.text.name_forms`), a sentence must
be drawn whole (its lines joined give it back), and nothing anywhere may end in an
ellipsis. Every board, duel and hand is drawn in every language the product speaks (the
longest language's words must fit as English's do).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from PIL import Image

import rules
from render.pyramids import gallery, status
from render.pyramids.board import draw_board, use_arcade
from render.pyramids.catalogue import _
from render.pyramids.duel import duel_image
from render.pyramids.hand import hand_image
from render.pyramids.panel import foe_label, last_action_lines, power_forms
from render.text import ELLIPSIS, display_name, name_forms, name_levels, recording
from rules import pyramids

NAMES = gallery.NAMES


@cache
def _samples() -> tuple[gallery.Sample, ...]:
    return tuple(gallery.samples())


def _files(kind: type) -> list[str]:
    return [s.file for s in _samples() if isinstance(s, kind)]


def _sample(file: str) -> Any:
    return next(s for s in _samples() if s.file == file)


def _names(view: pyramids.View) -> list[str]:
    return [display_name(NAMES, s) for s in range(len(view.seats))]


def _variants(view: pyramids.View, words: Any) -> set[str]:
    """``words(names)`` at every level of abbreviation of the seats' names."""
    return {words(level) for level in name_levels(_names(view))}


def _draw_parts(
    view: pyramids.View, events: Sequence[rules.Event], names: Sequence[str] = NAMES
) -> tuple[list[tuple[tuple[Any, ...], list[str]]], list[str]]:
    """Draw the board: (each panel part's key and the strings drawn in it, the strings
    drawn outside the panel's parts)."""
    parts: list[tuple[tuple[Any, ...], list[str]]] = []

    def element(canvas: Image.Image, key: tuple[Any, ...], box: Any, draw: Any) -> None:
        with recording() as drawn:
            draw()
        parts.append((key, drawn))

    with recording() as outside:
        draw_board(view, names, events, use_arcade(view, None), element=element)
    return parts, outside


def _no_ellipsis(strings: Sequence[str]) -> None:
    for text in strings:
        assert ELLIPSIS not in text, text


def _sentences_whole(lines: Sequence[str], sentences: Sequence[str]) -> bool:
    """Whether ``lines`` are ``sentences``, each from a new line, wrapped only at spaces."""
    i = 0
    for sentence in sentences:
        taken: list[str] = []
        while i < len(lines) and len(" ".join(taken)) < len(sentence):
            taken.append(lines[i])
            i += 1
        if " ".join(taken) != sentence:
            return False
    return i == len(lines)


def _check_seat(view: pyramids.View, seat: int, drawn: list[str]) -> None:
    sv = view.seats[seat]
    own = display_name(NAMES, seat)
    assert any(text in name_forms(own) for text in drawn), (own, drawn)
    assert any(text in power_forms(sv) for text in drawn), (sv.power_name, drawn)
    if view.variant == "european_war" and len(view.seats) > 1:
        foe = display_name(NAMES, sv.arch_enemy)
        assert any(text in {foe_label(form) for form in name_forms(foe)} for text in drawn), (
            foe,
            drawn,
        )
    words = {*name_forms(own), *power_forms(sv)}
    tags = {status.tag_label(t) for t in ("winner", "eliminated", *status.TAGS.values())}
    for text in drawn:
        # the rest: counts, "×2", a tag, or the foe
        assert text in words | tags or text.startswith(foe_label("")) or len(text) <= 4, text


def _check_status(view: pyramids.View, drawn: list[str]) -> None:
    headline, *lines = drawn
    assert headline in _variants(view, lambda n: status.status(view, n).headline), headline
    assert " ".join(lines) in _variants(view, lambda n: status.status(view, n).detail), lines


def _check_last_action(view: pyramids.View, events: Sequence[rules.Event], drawn: list[str]) -> int:
    """The box tells the newest sentences whole, the oldest left out first; returns how
    many it tells."""
    title, *lines = drawn
    assert title.replace("\u200a", "") == _("LAST ACTION")
    for level in name_levels(_names(view)):
        sentences = last_action_lines(view, level, events)
        for dropped in range(len(sentences)):
            if _sentences_whole(lines, sentences[dropped:]):
                return len(sentences) - dropped
    raise AssertionError(f"the last-action box is not the events' sentences: {lines}")


@pytest.mark.parametrize("file", _files(gallery.BoardSample))
def test_every_gallery_board_draws_its_text_uncut(file: str, locale: str) -> None:
    sample: gallery.BoardSample = _sample(file)
    view, events = sample.view, sample.events
    parts, outside = _draw_parts(view, events)
    _no_ellipsis(outside)
    for _key, drawn in parts:
        _no_ellipsis(drawn)
    kinds = [key[0] for key, _ in parts]
    seats = [(key[1], drawn) for key, drawn in parts if key[0] == "seat"]
    assert [seat for seat, _ in seats] == list(range(len(view.seats)))
    for seat, drawn in seats:
        _check_seat(view, seat, drawn)
    _check_status(view, next(drawn for key, drawn in parts if key[0] == "status"))
    if last_action_lines(view, NAMES, events):
        told = _check_last_action(
            view, events, next(drawn for key, drawn in parts if key[0] == "last action")
        )
        assert told >= 1
    else:
        assert "last action" not in kinds
    if view.over:
        winners = _variants(view, lambda n: status.winners_text(view, n))
        assert any(text in winners for text in outside), outside
    dice = [drawn for key, drawn in parts if key[0] == "dice"]
    if dice and view.last_roll:
        for side in ("attacker", "defender"):
            name = display_name(NAMES, int(view.last_roll[side]))
            assert any(text in name_forms(name) for text in dice[0]), (name, dice[0])


def test_the_gallery_has_a_long_name_and_a_long_turn_told_whole() -> None:
    """The gallery shows what the rules are for: a name too long for its row, a power
    name with a part in brackets, and a turn whose events fill the box."""
    assert any(len(name_forms(n)) > 1 for n in NAMES)
    turn: gallery.BoardSample = _sample("board_turn_european_war.png")
    parts, _ = _draw_parts(turn.view, turn.events)
    drawn = next(drawn for key, drawn in parts if key[0] == "last action")
    told = _check_last_action(turn.view, turn.events, drawn)
    assert told >= 5
    # the newest event is the last line: the box ends the turn
    newest = last_action_lines(turn.view, NAMES, turn.events)[-1]
    assert drawn[-1] in newest


@pytest.mark.parametrize("file", _files(gallery.DuelSample))
def test_every_gallery_duel_draws_its_names_uncut(file: str, locale: str) -> None:
    sample: gallery.DuelSample = _sample(file)
    with recording() as drawn:
        duel_image(sample.view, NAMES, sample.result, events=sample.events)
    _no_ellipsis(drawn)
    if sample.result is not None:
        seats = (int(sample.result.data["attacker"]), int(sample.result.data["defender"]))
    else:
        assert sample.view.battle is not None
        seats = (sample.view.battle.attacker, sample.view.battle.defender)
    for seat in seats:
        name = display_name(NAMES, seat)
        assert any(text in name_forms(name) for text in drawn), (name, drawn)


@pytest.mark.parametrize("file", _files(gallery.HandSample))
def test_every_gallery_hand_draws_its_title_whole(file: str, locale: str) -> None:
    sample: gallery.HandSample = _sample(file)
    with recording() as drawn:
        hand_image(sample.cards, title=sample.title, side=sample.side)
    _no_ellipsis(drawn)
    assert drawn[0] == sample.title


@pytest.mark.parametrize("file", _files(gallery.ChartSample))
def test_every_gallery_chart_draws_its_title_and_legend_whole(file: str) -> None:
    sample: gallery.ChartSample = _sample(file)
    with recording() as drawn:
        gallery.draw(sample)
    _no_ellipsis(drawn)
    assert drawn[0] == f"{display_name([sample.name], 0)} — rating over time"
    assert {s.label for s in sample.series} <= set(drawn)


def test_names_no_gallery_has_are_shortened_only_by_the_rule(locale: str) -> None:
    """One long word, emoji only (no glyph: "Seat 2"), many words."""
    names = ["W" * 32, "🙂🙂", "Jean Baptiste Emmanuel Zorg of the Fifth Element", "Eve"]
    game, _ = pyramids.new_game("european_war", [None] * 4, seed=2, arranged=True)
    view = pyramids.view_for(game, None)
    parts, _ = _draw_parts(view, (), names)
    seats = [(key[1], drawn) for key, drawn in parts if key[0] == "seat"]
    assert len(seats) == 4
    for seat, drawn in seats:
        _no_ellipsis(drawn)
        forms = name_forms(display_name(names, seat))
        first = forms[-1].rstrip(".")
        assert any(
            text in forms or (text.endswith(".") and first.startswith(text[:-1])) for text in drawn
        ), (forms, drawn)
