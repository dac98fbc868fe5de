"""The message catalogues (i18n): every package's template is extracted from its current
sources, every language translates every message with the same placeholders, and every
compiled catalogue is compiled from its ``.po`` (``python -m tools.i18n check`` says the
same in words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import i18n
from tools import i18n as catalogues

DIRS = catalogues.catalogue_dirs()
FORMAL = {
    # "vous", its possessives and its verbs ("Choisissez"), but "chez" and "assez"
    "fr": re.compile(r"\b(vous|votre|vos|(?!chez\b|assez\b)\w+ez)\b", re.IGNORECASE),
    # "vy", its possessives, its verbs, and the usual polite imperatives ("Zvolte")
    "cs": re.compile(
        r"\b(vy|vás|vám|vámi|váš|vaše|vaši|vašeho|vašemu|vašem|vaší|vašich|vašim|vašimi"
        r"|máte|jste|budete|zvolte|vyberte|zahrajte|umístěte|odhoďte|zaplaťte|kupte"
        r"|napište|zadejte|počkejte|použijte|zkuste|klikněte)\b",
        re.IGNORECASE,
    ),
    # mid-sentence, where a capital can only be the polite address
    "de": re.compile(r"[a-zäöüß,] (Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b"),
}
"""The formal "you" of each language: the product says "tu", "ty" and "du" everywhere."""


def _name(directory: Path) -> str:
    return directory.relative_to(catalogues.ROOT).as_posix()


@pytest.mark.parametrize("directory", DIRS, ids=_name)
def test_catalogue_is_complete_and_compiled(directory: Path) -> None:
    assert [str(p) for p in catalogues.problems(directory)] == []


@pytest.mark.parametrize("directory", DIRS, ids=_name)
def test_catalogue_addresses_the_player_informally(directory: Path) -> None:
    formal = []
    for locale, pattern in FORMAL.items():
        po = directory / "locale" / locale / "LC_MESSAGES" / "messages.po"
        for message in catalogues.read(po, locale):
            found = message.string
            forms = [found] if isinstance(found, str) else list(found or ())
            formal += [f"{locale}: {form}" for form in forms if form and pattern.search(form)]
    assert formal == []


def test_every_package_with_words_has_a_catalogue() -> None:
    names = {_name(d) for d in DIRS}
    assert {"rules", "render", "ai", "service", "bot", "console"} <= names


def test_a_missing_translation_and_a_broken_placeholder_are_found(tmp_path: Path) -> None:
    """The check itself: a catalogue lacking a message, or translating one with another
    placeholder, is reported."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "catalogue.py").write_text("")
    (package / "words.py").write_text(
        'from .catalogue import _\nA = _("{power} takes {field}.")\nB = _("Pass")\n'
    )
    po = package / "locale" / "de" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "{power} takes {field}."\nmsgstr "{macht} nimmt {field}."\n',
        "utf-8",
    )
    found = [str(p) for p in catalogues.problems(package, tmp_path)]
    assert any("lacks 'Pass'" in p for p in found)
    assert any("placeholders ['field', 'macht']" in p for p in found)


def test_languages_follow_the_context() -> None:
    assert i18n.choose("de-DE") == "de" and i18n.choose("en-GB") == "en"
    assert i18n.choose("pt-BR", None, "cs") == "cs"
    assert i18n.choose("ja") == i18n.DEFAULT
    with i18n.use("fr"):
        assert i18n.current() == "fr"
        with i18n.use("cs"):
            assert i18n.current() == "cs"
        assert i18n.current() == "fr"
    assert i18n.current() == i18n.DEFAULT


def test_a_catalogue_translates_in_the_context_language(tmp_path: Path) -> None:
    """A compiled catalogue is read with the standard library: a message, the plural forms
    of Czech (three), and English where the message is written or a language lacks it."""
    po = tmp_path / "locale" / "cs" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n\n'
        'msgid "Pass"\nmsgstr "Pas"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\n'
        'msgstr[0] "{n} karta"\nmsgstr[1] "{n} karty"\nmsgstr[2] "{n} karet"\n',
        "utf-8",
    )
    po.with_suffix(".mo").write_bytes(catalogues.compiled(po, "cs"))
    catalogue = i18n.Catalogue(str(tmp_path / "catalogue.py"))
    with i18n.use("cs"):
        assert catalogue.gettext("Pass") == "Pas"
        forms = [catalogue.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 5)]
        assert forms == ["1 karta", "3 karty", "5 karet"]
        assert catalogue.gettext("Resign") == "Resign"
    with i18n.use("de"):
        assert catalogue.gettext("Pass") == "Pass"
    assert catalogue.gettext("Pass") == "Pass"
    assert i18n.translate_any("Pass", "cs") == "Pas"


def test_a_translators_file_fills_what_is_missing(tmp_path: Path) -> None:
    """``take``: a translator's file fills the catalogue's empty messages, leaves the
    translated ones alone, and the result is compiled."""
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    po = tmp_path / "locale" / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(header + 'msgid "Pass"\nmsgstr "Passer"\n\nmsgid "Resign"\nmsgstr ""\n', "utf-8")
    given = tmp_path / "given.po"
    given.write_text(header + 'msgid "Pass"\nmsgstr "X"\n\nmsgid "Resign"\nmsgstr "Abandonner"\n')
    assert catalogues.take(given, tmp_path, "fr") == 1
    filled = {m.id: m.string for m in catalogues.read(po, "fr") if m.id}
    assert filled == {"Pass": "Passer", "Resign": "Abandonner"}
    assert po.with_suffix(".mo").read_bytes() == catalogues.compiled(po, "fr")
