"""A game's DM to one player as mergeable *parts*, so waiting DMs coalesce.

While Discord's global limit holds a player's DMs back, each new action would queue one
more DM. Instead the outbox (:meth:`bot.outbox.Outbox.dm`) merges a new DM into the one
still waiting for the same player and game, using the structured part kept in the
item's ``meta["dm"]`` (JSON, so it survives a restart with the item):

``label``
    where the game is (server, channel, link);
``lines``
    the private lines (cards received, a spy's look), every one kept in order;
``skipped``
    how many of the oldest lines were summarised because the message would not fit;
``prompt`` / ``kind`` / ``open``
    the question's words and kind (``turn``, ``duel``…), and the kinds of decision the
    player still has open when the DM was made (None: not known): an older prompt is
    kept only while its decision is still open and no newer prompt replaced it; a
    panel's buttons are the message's ``components``;
``hand`` / ``hand_text`` / ``show_hand`` / ``draw``
    what the player holds now, as the game's images keep it (:meth:`render.GameImages.holding`:
    JSON, e.g. the cards and the side whose colour the image carries; a plain list of
    card numbers in a DM kept by an older version, drawn without that colour) and its
    words, whether the words are shown, and whether it changed (its image is drawn when
    the DM is sent, not before: a DM merged away costs no drawing);
``game``
    the game's registry name, which the hand's image is drawn for (None: a DM kept by an
    older version, whose hand goes in words);
``language``
    the language its words are in (the player's), which the bot's own words about it
    (the summary line, the hand image's title) are written in too (None: a DM kept by an
    older version, in English).

Merging never drops a private line: when the merged text would pass Discord's 2000
characters the outbox starts a new DM instead, and only when a player already has
:data:`MAX_WAITING` DMs waiting for the game are the oldest lines of the newest one
summarised in one line (the hand shown with it is current).
"""

from __future__ import annotations

import json
from typing import Any

from rules import i18n

from .catalogue import n_
from .texts import clip

MAX_CONTENT = 2000
MAX_WAITING = 3
"""DMs waiting for one player and game before the oldest lines are summarised."""


def make_part(
    label: str,
    lines: list[str],
    *,
    prompt: str | None = None,
    kind: str | None = None,
    open_kinds: list[str] | None = None,
    hand: Any = None,
    hand_text: list[str] | None = None,
    show_hand: bool = False,
    draw: bool = False,
    game: str | None = None,
    language: str | None = None,
) -> dict[str, Any]:
    """One DM's part (see the module docstring)."""
    return {
        "label": label,
        "lines": list(lines),
        "skipped": 0,
        "prompt": prompt,
        "kind": kind,
        "open": sorted(open_kinds) if open_kinds is not None else None,
        "hand": hand,
        "hand_text": list(hand_text or []),
        "show_hand": show_hand,
        "draw": draw,
        "game": game,
        "language": language,
    }


def held_key(holding: Any) -> str:
    """A holding in one canonical string: equal for the same holding, however kept."""
    return json.dumps(holding, sort_keys=True, separators=(",", ":"))


def content(part: dict[str, Any]) -> str:
    """The DM's text: label, (summary), private lines, the question, the hand's words."""
    out = [part["label"]] if part.get("label") else []
    if part.get("skipped"):
        n = part["skipped"]
        with i18n.use(part.get("language")):
            out.append(
                n_(
                    "_… {n} earlier note left out; the hand below is current._",
                    "_… {n} earlier notes left out; the hand below is current._",
                    n,
                ).format(n=n)
            )
    out += part.get("lines", [])
    if part.get("prompt"):
        out.append(part["prompt"])
    if part.get("show_hand"):
        out += part.get("hand_text", [])
    return "\n".join(out)


def merge(
    old: dict[str, Any],
    old_components: list[Any] | None,
    new: dict[str, Any],
    new_components: list[Any] | None,
    *,
    summarise: bool = False,
) -> tuple[dict[str, Any], list[Any] | None] | None:
    """``new`` merged into ``old`` (waiting): the merged part and the message's components
    (None: no panel), or None if they cannot share one message (an older panel still open
    and a question of another kind, or the text too long and ``summarise`` not allowed)."""
    if new.get("open") is not None:
        still_open = set(new["open"])
    else:  # not known (e.g. a reminder): what was open, and the new question
        still_open = set(old.get("open") or []) | ({new["kind"]} if new.get("kind") else set())
    if new.get("kind"):
        if (
            old.get("kind")
            and old["kind"] != new["kind"]
            and old["kind"] in still_open
            and old_components
        ):
            return None  # an open panel and another question: one message holds one
        prompt, kind, components = new["prompt"], new["kind"], new_components
    elif old.get("kind") and old["kind"] in still_open:
        prompt, kind, components = old["prompt"], old["kind"], old_components
    else:  # the older question was answered or closed since: its prompt is stale
        prompt, kind, components = None, None, None
    hand_from = new if new.get("hand") is not None else old
    merged = {
        "label": new.get("label") or old.get("label", ""),
        "lines": list(old.get("lines", [])) + list(new.get("lines", [])),
        "skipped": old.get("skipped", 0) + new.get("skipped", 0),
        "prompt": prompt,
        "kind": kind,
        "open": sorted(still_open),
        "hand": hand_from.get("hand"),
        "hand_text": hand_from.get("hand_text", []),
        "show_hand": bool(old.get("show_hand") or new.get("show_hand")),
        "draw": bool(old.get("draw") or new.get("draw")),
        "game": new.get("game") or old.get("game"),
        "language": new.get("language") or old.get("language"),
    }
    if len(content(merged)) <= MAX_CONTENT:
        return merged, components
    if not summarise:
        return None
    while merged["lines"] and len(content(merged)) > MAX_CONTENT:
        merged["lines"].pop(0)
        merged["skipped"] += 1
    return merged, components


def text_of(part: dict[str, Any]) -> str:
    """:func:`content` cut to Discord's limit (only a huge single hand ever needs it)."""
    return clip(content(part), MAX_CONTENT)
