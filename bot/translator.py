"""Discord's own texts in the product's languages: command and option descriptions and
choice names, from the message catalogues (:func:`i18n.translate_any`), sent with the
command sync as ``*_localizations`` so each person's client shows them in its language.

Command and option names stay English (people type them). A text whose English is made
from a template (``locale_str(text, template="... {default}", default=...)``: a
description naming the default game, a game's description clipped to Discord's limit) is
translated from its template and filled in again.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from rules import i18n

LIMIT = 100
"""Discord's limit on a description and a choice's name, in characters."""
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def words(string: locale_str, language: str) -> str | None:
    """``string`` in ``language`` (one of :data:`i18n.LOCALES`), None when no catalogue
    translates it (Discord then shows the English)."""
    template = str(string.extras.get("template", string.message))
    translated = i18n.translate_any(template, language)
    if language == i18n.DEFAULT or translated == template:
        return None
    fields = {k: v for k, v in string.extras.items() if k != "template"}
    text = translated.format(**fields) if fields else translated
    return text[:LIMIT]


class CatalogueTranslator(app_commands.Translator):
    """discord.py's :class:`~discord.app_commands.Translator` reading the catalogues."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text of ``string`` for Discord's ``locale``, or None (names; a language the
        product does not speak; a text no catalogue has)."""
        if context.location in NAMES:
            return None
        language = i18n.supported(locale.value)
        if language is None:
            return None
        return words(string, language)
