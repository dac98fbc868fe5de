"""Boards as data: load and validate the JSON board files shipped under ``rules/pyramids/boards``.

The engine reads fields, links and harbours only from a :class:`Board`.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..errors import BoardError
from .catalogue import N_, _

BOARD_IDS = ("european_war", "world_war_5")
SHORT_NAMES = (N_("Britain"), N_("France"), N_("Central Powers"))
"""The short names of powers whose board name is longer (for computer players); the
others' short name is their name."""


@dataclass(frozen=True, slots=True)
class Power:
    """A power (European War) or continent (World War 5) and its three home fields.
    ``english`` is its name as the board file gives it; :attr:`name` is in the reader's
    language."""

    id: str
    english: str
    fields: tuple[str, ...]

    @property
    def name(self) -> str:
        """The power's name in the current language."""
        return _(self.english)

    @property
    def short(self) -> str:
        """A short name in the current language: "Central Powers (Germany and
        Austria-Hungary)" -> "Central Powers", "Britain and its allies" -> "Britain"."""
        return _(self.english.split(" (")[0].removesuffix(" and its allies"))


@dataclass(frozen=True, slots=True)
class Field:
    """One field (territory): its owner power, its links and its harbour group, if any.
    ``english`` is its name as the board file gives it; :attr:`name` is in the reader's
    language."""

    id: str
    english: str
    owner: str
    neighbours: frozenset[str]
    harbour: str | None
    x: float
    y: float

    @property
    def name(self) -> str:
        """The field's name in the current language."""
        return _(self.english)

    def names(self) -> tuple[str, ...]:
        """Every name the field may be typed by: its English name and, in another
        language, that language's name."""
        return tuple(dict.fromkeys((self.english, self.name)))


@dataclass(frozen=True, slots=True)
class Link:
    """A drawn connection between two fields. ``kind`` is land, special, internal or sea."""

    a: str
    b: str
    kind: str
    wraps_map_edge: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """A validated board. ``field_order`` and ``power_order`` give a stable order."""

    id: str
    name: str
    powers: dict[str, Power]
    fields: dict[str, Field]
    links: tuple[Link, ...]
    harbour_groups: dict[str, tuple[str, ...]]
    field_order: tuple[str, ...]
    power_order: tuple[str, ...]
    coordinate_system: dict[str, Any]
    neutral_areas: tuple[dict[str, Any], ...]
    adjacency: dict[str, tuple[str, ...]]
    """Each field's linked fields (land and special links), in ``field_order``."""
    sea_reach: dict[str, tuple[str, ...]]
    """Each field's harbour-group partners (empty without a harbour), in ``field_order``."""

    def field_by_name(self, text: str) -> str | None:
        """Resolve a field id or a readable name, English or in the current language
        (case-, space- and '+'-insensitive)."""
        key = _norm(text)
        for f in self.fields.values():
            if key in (_norm(f.id), *map(_norm, f.names())):
                return f.id
        return None

    def power_by_name(self, text: str) -> str | None:
        """Resolve a power id or readable name (English or in the current language), or
        a short form such as 'russia'."""
        key = _norm(text)
        for p in self.powers.values():
            if key in (_norm(p.id), _norm(p.english), _norm(p.name), _norm(p.short)):
                return p.id
        matches = [
            p.id
            for p in self.powers.values()
            if key and (key in _norm(p.english) or key in _norm(p.name))
        ]
        return matches[0] if len(matches) == 1 else None


def _norm(text: str) -> str:
    """Lower case, letters and digits only, accents dropped ("Němec" = "nemec")."""
    plain = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in plain if ch.isalnum())


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise BoardError(f"board file is invalid: {message}")


def parse_board(board_id: str, data: dict[str, Any], *, pyramid_arcade: bool = False) -> Board:
    """Build a :class:`Board` from a board file's dict and validate it.

    Both schemas are read: European War's ``powers``/``fields`` and World War 5's
    ``continents``/``territories``. ``pyramid_arcade`` applies World War 5's printed-board
    link changes (``pyramid_arcade_variant``).

    Raises:
        BoardError: the data breaks the schema (unknown owner, asymmetric link, ...).
    """
    try:
        raw_powers = data["powers"] if "powers" in data else data["continents"]
        raw_fields = data["fields"] if "fields" in data else data["territories"]
        powers: dict[str, Power] = {}
        for p in raw_powers:
            members = p["fields"] if "fields" in p else p["territories"]
            powers[p["id"]] = Power(p["id"], p["name"], tuple(members))
        neighbours: dict[str, set[str]] = {f["id"]: set(f["neighbours"]) for f in raw_fields}
        links = [
            Link(
                lk["a"],
                lk["b"],
                lk.get("kind") or ("special" if lk.get("special") else "land"),
                bool(lk.get("wraps_map_edge", False)),
            )
            for lk in data["links"]
        ]
        if pyramid_arcade:
            variant = data["pyramid_arcade_variant"]
            removed = {frozenset(pair) for pair in variant["remove"]}
            links = [lk for lk in links if frozenset((lk.a, lk.b)) not in removed]
            for a, b in variant["remove"]:
                neighbours[a].discard(b)
                neighbours[b].discard(a)
            for a, b in variant["add"]:
                neighbours[a].add(b)
                neighbours[b].add(a)
                links.append(Link(a, b, "land"))
        fields = {
            f["id"]: Field(
                f["id"],
                f["name"],
                f["owner"],
                frozenset(neighbours[f["id"]]),
                f.get("harbour"),
                float(f["x"]),
                float(f["y"]),
            )
            for f in raw_fields
        }
        groups = {g: tuple(ms) for g, ms in data.get("harbour_groups", {}).items()}
        name = data.get("game", board_id)
        coords = dict(data["coordinate_system"])
        neutral = tuple(data.get("neutral_areas", ()))
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardError(f"board file is invalid: missing or malformed {exc}") from exc

    _need(len(fields) == len(raw_fields), "duplicate field ids")
    for fid, f in fields.items():
        _need(f.owner in powers, f"{fid} is owned by unknown power {f.owner!r}")
        _need(fid in powers[f.owner].fields, f"{fid} is not listed by its owner {f.owner}")
        _need(fid not in f.neighbours, f"{fid} links to itself")
        for n in f.neighbours:
            _need(n in fields, f"{fid} links to unknown field {n!r}")
            _need(fid in fields[n].neighbours, f"link {fid}-{n} is not symmetric")
        if f.harbour is not None:
            _need(f.harbour in groups, f"{fid} has unknown harbour group {f.harbour!r}")
            _need(fid in groups[f.harbour], f"{fid} missing from harbour group {f.harbour}")
    for p in powers.values():
        _need(len(p.fields) == 3, f"power {p.id} must have three fields")
        for fid in p.fields:
            _need(fid in fields and fields[fid].owner == p.id, f"{p.id} lists foreign {fid}")
    for g, members in groups.items():
        for fid in members:
            _need(fid in fields and fields[fid].harbour == g, f"{fid} in {g} has no such harbour")
    link_pairs = {frozenset((lk.a, lk.b)) for lk in links}
    _need(
        link_pairs == {frozenset((a, b)) for a, f in fields.items() for b in f.neighbours},
        "links list does not match the neighbour lists",
    )
    order = tuple(fields)
    adjacency = {fid: tuple(o for o in order if o in f.neighbours) for fid, f in fields.items()}
    sea_reach = {
        fid: tuple(o for o in order if o != fid and f.harbour and fields[o].harbour == f.harbour)
        for fid, f in fields.items()
    }
    return Board(
        id=board_id,
        name=name,
        powers=powers,
        fields=fields,
        links=tuple(links),
        harbour_groups=groups,
        field_order=order,
        power_order=tuple(powers),
        coordinate_system=coords,
        neutral_areas=neutral,
        adjacency=adjacency,
        sea_reach=sea_reach,
    )


@cache
def load_board(board_id: str, pyramid_arcade: bool = False) -> Board:
    """Load and validate a board shipped in the package (cached per process).

    Raises:
        BoardError: unknown board id or invalid file.
    """
    if board_id not in BOARD_IDS:
        raise BoardError(f"unknown board {board_id!r}")
    text = (
        resources.files("rules.pyramids").joinpath("boards", f"{board_id}.json").read_text("utf-8")
    )
    return parse_board(board_id, json.loads(text), pyramid_arcade=pyramid_arcade)
