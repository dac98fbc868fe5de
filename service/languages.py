"""Which language each part of an outcome is written in (see :mod:`rules.i18n`).

A game's channel speaks the game's language (:attr:`GameSettings.language`, fixed when
its lobby opens: the server's ``/settings`` language, else the server's Discord
language, else English). What one person alone reads (a private note, a prompt, a direct
message) is written in that person's client language as last seen on any interaction,
else in the game's. The reply to the caller (a refusal, a confirmation) is written in
the context the front end set around its call, so nothing here touches it.

People's client languages are kept in memory (:class:`Languages`) and in the store
(``user_locales``, written only when one changes); a game loaded from the store first
learns those of its players from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager

from rules import i18n

from .live import LiveGame


def of_game(live: LiveGame) -> str:
    """The language of ``live``'s channel."""
    return live.settings.language


class Languages:
    """Each person's client language as last seen (Discord's tag, e.g. ``de`` or
    ``en-US``), in memory: what :meth:`of_person` reads while an outcome is worded."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[int, str | None] = {}
        """User id -> the client tag last seen (None: looked up, never seen)."""

    def note(self, user_id: int, tag: str) -> bool:
        """``user_id``'s client is in ``tag`` now; True if that is news (to be stored)."""
        if self._seen.get(user_id) == tag:
            return False
        self._seen[user_id] = tag
        return True

    def tag_of(self, user_id: int) -> str | None:
        """The client tag last seen of ``user_id`` (None: not known)."""
        return self._seen.get(user_id)

    def unknown(self, user_ids: Iterable[int | None]) -> list[int]:
        """Those of ``user_ids`` (None: a computer seat) never looked up yet."""
        return sorted({u for u in user_ids if u is not None and u not in self._seen})

    def learn(self, asked: Iterable[int], found: dict[int, str]) -> None:
        """What the store said of ``asked``: ``found`` their tags (the others never
        seen). A tag noted meanwhile is newer and stays."""
        for user_id in asked:
            self._seen.setdefault(user_id, found.get(user_id))

    def language(self, user_id: int | None, live: LiveGame) -> str:
        """What ``user_id`` reads in ``live``: their client's language if the product
        speaks it, else the game's."""
        tag = self._seen.get(user_id) if user_id is not None else None
        return i18n.choose(tag, of_game(live))

    def of_person(self, user_id: int | None, live: LiveGame) -> AbstractContextManager[str]:
        """Write what ``user_id`` alone reads in ``live`` (see :meth:`language`)."""
        return i18n.use(self.language(user_id, live))

    @staticmethod
    def of_game(live: LiveGame) -> AbstractContextManager[str]:
        """Write what ``live``'s channel shows."""
        return i18n.use(of_game(live))
