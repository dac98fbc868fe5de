"""Languages: which one text is being written in now, and the catalogues that translate it.

Every player-visible string is an English message id, marked where it is written
(``_("...")``, ``n_("...", "...", n)``, ``N_("...")`` for a constant translated where it is
used) and translated when it is made, into the language of the current context
(:func:`use`). A context variable carries it, so each asyncio task (and each thread that
sets it) writes in its own language: the service makes a channel's lines in the game's
language and each private part in its reader's.

Each package with words of its own has a ``catalogue.py`` (``catalogue = Catalogue(__file__)``,
``_ = catalogue.gettext``) and a ``locale/`` folder beside it: ``messages.pot`` extracted from
the package's sources, and ``<lang>/LC_MESSAGES/messages.po`` (and the compiled ``.mo`` read
here, with the standard library's :mod:`gettext`) for every language but English, the
language the messages are written in. ``python -m tools.i18n`` extracts, updates, compiles
and checks them (with Babel).

Placeholders are named, in braces, filled with :meth:`str.format` after translation:
``_("{power} takes {field}.").format(power=..., field=...)``, so a translation may put them
in any order.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

LOCALES = ("en", "de", "fr", "cs")
"""The languages the product speaks; the first is the one its messages are written in."""
DEFAULT = LOCALES[0]
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "cs": "Čeština"}
"""Each language by its own name, as a picker offers it."""

_current: ContextVar[str] = ContextVar("i18n_locale", default=DEFAULT)
_catalogues: list[Catalogue] = []


def current() -> str:
    """The language text is being written in now (one of :data:`LOCALES`)."""
    return _current.get()


def supported(tag: str | None) -> str | None:
    """The language of ``tag`` if the product speaks it, else None.

    Takes Discord's locales (``"de"``, ``"en-US"``, ``"cs"``), POSIX ones (``"fr_FR.UTF-8"``)
    and the product's own codes, in any case.
    """
    if not tag:
        return None
    language = tag.replace("_", "-").split(".")[0].split("-")[0].strip().lower()
    return language if language in LOCALES else None


def choose(*tags: str | None) -> str:
    """The first of ``tags`` the product speaks, else English."""
    for tag in tags:
        found = supported(tag)
        if found:
            return found
    return DEFAULT


@contextmanager
def use(locale: str | None) -> Iterator[str]:
    """Write in ``locale`` (any tag :func:`supported` reads; None or unknown: English)
    inside the block, in this context only."""
    chosen = choose(locale)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def blocks(text: str) -> list[str]:
    """A Markdown text's messages: each run of lines between blank lines (a heading, a
    paragraph, a list), as the catalogues hold a rule book."""
    return [block for chunk in text.split("\n\n") if (block := chunk.strip("\n")).strip()]


def N_(message: str) -> str:
    """Mark ``message`` for extraction where it cannot be translated yet (a module
    constant); translate it where it is used, with its package's ``_``."""
    return message


class Catalogue:
    """One package's translations: ``locale/<lang>/LC_MESSAGES/messages.mo`` beside the
    module named by ``module_file`` (a ``catalogue.py``'s ``__file__``)."""

    def __init__(self, module_file: str) -> None:
        self.directory = Path(module_file).resolve().parent / "locale"
        self._loaded: dict[str, gettext.NullTranslations] = {}
        _catalogues.append(self)

    def translations(self, locale: str) -> gettext.NullTranslations:
        """The translations into ``locale`` (none for English or a missing catalogue)."""
        found = self._loaded.get(locale)
        if found is None:
            mo = self.directory / locale / "LC_MESSAGES" / "messages.mo"
            if locale != DEFAULT and mo.is_file():
                with mo.open("rb") as stream:
                    found = gettext.GNUTranslations(stream)
            else:
                found = gettext.NullTranslations()
            self._loaded[locale] = found
        return found

    def gettext(self, message: str) -> str:
        """``message`` in the current language."""
        return self.translations(current()).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for ``n`` in the current language (Czech
        has three)."""
        return self.translations(current()).ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in the current language, told apart from the same English words
        elsewhere by ``context``."""
        return self.translations(current()).pgettext(context, message)

    def markdown(self, text: str) -> str:
        """A Markdown text (a rule book) in the current language, block by block
        (:func:`blocks`); a block the catalogue lacks stays English."""
        translations = self.translations(current())
        return "\n\n".join(translations.gettext(block) for block in blocks(text)) + "\n"

    def find(self, message: str, locale: str) -> str | None:
        """The translation of ``message`` into ``locale`` if this catalogue has one."""
        if locale == DEFAULT:
            return None
        translated = self.translations(locale).gettext(message)
        return translated if translated != message else None


def translate_any(message: str, locale: str) -> str:
    """``message`` into ``locale`` by whichever loaded catalogue has it (English if none):
    for text made elsewhere from a marked constant, such as Discord's command descriptions."""
    for catalogue in _catalogues:
        found = catalogue.find(message, locale)
        if found is not None:
            return found
    return message


def catalogues() -> tuple[Catalogue, ...]:
    """Every catalogue made so far (one per imported package with words)."""
    return tuple(_catalogues)
