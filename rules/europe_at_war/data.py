"""The game's data, shipped in ``data/`` and validated on load: the map (``map.json``, or
``map_compact.json`` with the compact-map option, EA-36), the unit lists (``units.json``)
and the action deck (``cards.json``).

The design folder keeps the reference copies; these are the package's own. Every check
the rules rely on runs when a file is read, so a damaged copy is refused with a reason
instead of playing a broken game:

- the map: known references, symmetric land adjacency, sea lanes and coasts, straits that
  are adjacencies, revenue matching the territory type, one capital per country, every
  link of the printed country table realised and no other pair of countries touching,
  England without a land border, Warsaw and Switzerland without a coast, and (on the
  default map) 10 or more territories per country;
- the units: each set's chit count and count by type match its rows, and every row's
  speed, cost and classes agree with its codes;
- the cards: 228 rows with distinct numbers, ids and names, each with an effect kind the
  engine implements, the special-code cards exactly the ones listed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from ..errors import InvalidState
from .catalogue import _

ENGLAND = "england"
LANDLOCKED = frozenset({"warsaw", "switzerland"})
DECK_SIZE = 228
MIN_TERRITORIES = 10
"""Each country's territories on the default map ("each country is divided into 10+")."""

TYPE_REVENUE = {
    "wilderness": 1,
    "small_city": 2,
    "medium_city": 3,
    "major_city": 4,
    "capital": 5,
}
"""EA-27: revenue by territory type."""

CITY_TYPES = frozenset({"major_city", "capital"})
"""Major Cities and Capitals: city defence (EA-19), deposits (EA-28), recruits (EA-29)."""

NATIONS = ("france", "britain", "prussia", "austria", "russia")
"""EA-2: the nations a player may play, by their ids (each names its unit set)."""

IMPLEMENTED_EFFECTS = frozenset(
    {
        "move",
        "negate_move",
        "force_per_unit",
        "force_flat",
        "force_multiply",
        "casualties",
        "halve_loser_casualties",
        "destroy_enemy_unit",
        "capture_ship",
        "gain_revenue",
        "opponent_loses_revenue",
        "steal_revenue",
        "gain_units",
        "draw_cards",
        "look_at_hand",
        "opponent_discards",
        "stack_loses_units",
        "ban_attacks_on_card_player",
        "ban_all_moves",
        "avoid_battle",
        "interdiction",
        "compel_move",
        "negate_card",
    }
)
"""The effect kinds of ``cards.json`` the engine plays."""

SPECIAL_CODE = frozenset(
    {
        "Diplomacy",
        "Treaty",
        "Armistice",
        "Compel Action",
        "Revenge",
        "Winter Quarters",
        "Lost Orders",
        "Avoid Battle",
        "Interdiction",
        "Capture Ship",
    }
)
"""The ten cards with code of their own (EA-33); every other card is a generic effect."""

TIMINGS = frozenset({"move_plan", "window_w1", "window_w2", "combat", "own_turn", "response"})
CONTEXTS = frozenset({"battle", "siege", "sea"})
TYPE_CLASSES = {
    "G": {"leader", "general"},
    "D": {"leader", "admiral"},
    "S": {"ship"},
    "F": {"fort"},
    "H": {"heavy_infantry", "infantry", "heavy"},
    "L": {"light_infantry", "infantry", "light"},
    "A": {"artillery"},
    "C": {"cavalry"},
    "CH": {"cavalry", "heavy_cavalry", "heavy"},
    "CL": {"cavalry", "light_cavalry", "light"},
    "C/H": {"cavalry", "heavy_infantry", "infantry", "heavy", "mounted_infantry"},
}
"""EA-8: the classes each type code implies (``lancer`` goes by name, ``all`` to every unit)."""
LANCER_NAMES = ("Lancers", "Uhlans")
MOVE_SPEEDS = {"S": 1, "M": 2, "F": 3, "FF": 4, "-": 0}
"""EA-9: spaces per move by the printed move code."""
DOMAINS = {"G": "land", "D": "sea", "S": "sea", "F": "fixed"}


class DataError(InvalidState):
    """A shipped data file breaks the rules' expectations; the message says which."""


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise DataError(f"Europe at War data is invalid: {message}")


# ---------------------------------------------------------------------------- the map
@dataclass(frozen=True, slots=True)
class Territory:
    """One territory: its country, type and revenue, land neighbours (straits included),
    touching sea zones, and its place on a drawing (0..1 from the north-west corner)."""

    id: str
    name: str
    country: str
    type: str
    revenue: int
    adjacent: tuple[str, ...]
    seas: tuple[str, ...]
    x: float
    y: float

    @property
    def city(self) -> bool:
        """True for a Major City or a Capital."""
        return self.type in CITY_TYPES


@dataclass(frozen=True, slots=True)
class SeaZone:
    """One sea zone: its sea lanes and the coastal territories it touches."""

    id: str
    name: str
    adjacent: tuple[str, ...]
    coasts: tuple[str, ...]
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Country:
    """One country: its territories, its capital, and the nation it is home to, if any."""

    id: str
    name: str
    capital: str
    home_of: str | None
    territories: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameMap:
    """A validated map. Spaces are territories and sea zones; ``steps`` joins every space
    to the spaces one step away (land adjacency, a coast link or a sea lane, EA-30)."""

    compact: bool
    territories: Mapping[str, Territory]
    seas: Mapping[str, SeaZone]
    countries: Mapping[str, Country]
    steps: Mapping[str, tuple[str, ...]]
    straits: tuple[tuple[str, str], ...]

    def is_sea(self, space: str) -> bool:
        """True for a sea zone."""
        return space in self.seas

    def name(self, space: str) -> str:
        """A space's name for people, in the current language (:mod:`rules.i18n`)."""
        place = self.territories.get(space) or self.seas.get(space)
        return _(place.name) if place else space

    def find(self, text: str) -> str | None:
        """The space ``text`` names: its id, or its whole name in English or in the
        current language (any case)."""
        key = text.strip().lower()
        names = {sid: t.name for sid, t in self.territories.items()}
        names.update((sid, z.name) for sid, z in self.seas.items())
        for sid, name in names.items():
            if key in (sid, name.lower(), _(name).lower()):
                return sid
        return None

    def home(self, nation: str) -> Country:
        """The home country of ``nation`` (EA-2)."""
        return next(c for c in self.countries.values() if c.home_of == nation)


def parse_map(data: Any) -> GameMap:
    """Build a :class:`GameMap` from a map file's dict and validate it.

    Raises:
        DataError: the data breaks a check (the message names it).
    """
    try:
        types = {str(k): int(v) for k, v in data["territory_types"].items()}
        territories = {
            t["id"]: Territory(
                str(t["id"]),
                str(t["name"]),
                str(t["country"]),
                str(t["type"]),
                int(t["revenue"]),
                tuple(t["adjacent"]),
                tuple(t["seas"]),
                float(t["x"]),
                float(t["y"]),
            )
            for t in data["territories"]
        }
        seas = {
            z["id"]: SeaZone(
                str(z["id"]),
                str(z["name"]),
                tuple(z["adjacent_seas"]),
                tuple(z["coasts"]),
                float(z["x"]),
                float(z["y"]),
            )
            for z in data["sea_zones"]
        }
        countries = {
            c["id"]: Country(
                str(c["id"]),
                str(c["name"]),
                str(c["capital"]),
                _nation_id(c.get("home_of")),
                tuple(c["territories"]),
            )
            for c in data["countries"]
        }
        printed = {c["id"]: str(c["printed_connections"]) for c in data["countries"]}
        straits = tuple((str(s["a"]), str(s["b"])) for s in data["straits"])
        compact = bool(data["meta"].get("compact", False))
        counts = (len(data["territories"]), len(data["sea_zones"]), len(data["countries"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"Europe at War data is invalid: malformed map ({exc!r})") from exc
    _need(counts == (len(territories), len(seas), len(countries)), "duplicate ids in the map")
    _need(not set(territories) & set(seas), "a territory and a sea zone share an id")
    _check_references(territories, seas, countries, straits)
    _check_types(types, territories, countries)
    _check_country_table(territories, countries, printed)
    _check_coasts(territories, countries, seas)
    if not compact:
        for c in countries.values():
            _need(
                len(c.territories) >= MIN_TERRITORIES,
                f"{c.id} has {len(c.territories)} territories; each country has "
                f"{MIN_TERRITORIES} or more on the default map",
            )
    steps: dict[str, tuple[str, ...]] = {}
    for tid, t in territories.items():
        steps[tid] = t.adjacent + t.seas
    for zid, z in seas.items():
        steps[zid] = z.adjacent + z.coasts
    return GameMap(compact, territories, seas, countries, steps, straits)


def _nation_id(home_of: Any) -> str | None:
    if home_of is None or home_of == "":
        return None
    nation = str(home_of).lower()
    _need(nation in NATIONS, f"unknown nation {home_of!r}")
    return nation


def _check_references(
    territories: Mapping[str, Territory],
    seas: Mapping[str, SeaZone],
    countries: Mapping[str, Country],
    straits: tuple[tuple[str, str], ...],
) -> None:
    for tid, t in territories.items():
        _need(t.country in countries, f"{tid} belongs to unknown country {t.country!r}")
        _need(tid not in t.adjacent, f"{tid} is adjacent to itself")
        for n in t.adjacent:
            _need(n in territories, f"{tid} is adjacent to unknown territory {n!r}")
            _need(tid in territories[n].adjacent, f"adjacency {tid}-{n} is not symmetric")
        for zid in t.seas:
            _need(zid in seas, f"{tid} touches unknown sea zone {zid!r}")
            _need(tid in seas[zid].coasts, f"coast {tid}-{zid} is not symmetric")
    for zid, z in seas.items():
        for coast in z.coasts:
            symmetric = coast in territories and zid in territories[coast].seas
            _need(symmetric, f"coast {zid}-{coast} is not symmetric")
        for n in z.adjacent:
            _need(n in seas and zid in seas[n].adjacent, f"sea lane {zid}-{n} is not symmetric")
    for a, b in straits:
        _need(a in territories and b in territories[a].adjacent, f"strait {a}-{b} is no adjacency")
    for cid, c in countries.items():
        members = {tid for tid, t in territories.items() if t.country == cid}
        _need(set(c.territories) == members, f"{cid} lists territories that are not its own")


def _check_types(
    types: Mapping[str, int], territories: Mapping[str, Territory], countries: Mapping[str, Country]
) -> None:
    _need(dict(types) == TYPE_REVENUE, "territory types differ from the printed revenue table")
    for tid, t in territories.items():
        _need(t.type in TYPE_REVENUE, f"{tid} has unknown type {t.type!r}")
        _need(
            t.revenue == TYPE_REVENUE[t.type],
            f"{tid}: revenue {t.revenue} does not match its type {t.type}",
        )
    for cid, c in countries.items():
        capitals = [tid for tid in c.territories if territories[tid].type == "capital"]
        _need(capitals == [c.capital], f"{cid} must have exactly its one capital {c.capital}")


def _check_country_table(
    territories: Mapping[str, Territory],
    countries: Mapping[str, Country],
    printed: Mapping[str, str],
) -> None:
    """Every link the printed table gives (read from either side) is realised by a land
    adjacency, and no other pair of countries touches (England lists none: EA-13)."""
    by_name = {c.name: cid for cid, c in countries.items()}
    table: set[frozenset[str]] = set()
    for cid, text in printed.items():
        if cid == ENGLAND:
            continue
        for name in (part.strip() for part in text.split(",")):
            if name:
                _need(name in by_name, f"{cid}'s printed neighbour {name!r} is not a country")
                table.add(frozenset((cid, by_name[name])))
    touching: set[frozenset[str]] = set()
    for tid, t in territories.items():
        for n in t.adjacent:
            a, b = t.country, territories[n].country
            if a != b:
                _need(ENGLAND not in (a, b), f"England has a land border ({tid}-{n}) (EA-13)")
                pair = frozenset((a, b))
                _need(pair in table, f"{a} and {b} touch ({tid}-{n}) but the table has no link")
                touching.add(pair)
    for pair in table:
        _need(pair in touching, f"the table's link {'-'.join(sorted(pair))} is not realised")


def _check_coasts(
    territories: Mapping[str, Territory],
    countries: Mapping[str, Country],
    seas: Mapping[str, SeaZone],
) -> None:
    for cid, c in countries.items():
        coast = [tid for tid in c.territories if territories[tid].seas]
        if cid in LANDLOCKED:
            _need(not coast, f"{cid} must have no coast, but {coast[0] if coast else ''} has one")
        else:
            _need(bool(coast), f"{cid} has no coast, so England cannot reach it (EA-13)")
        if c.home_of:
            ports = [tid for tid in coast if territories[tid].city]
            _need(bool(ports), f"{cid} has no coastal Major City or Capital for ships (EA-29)")


# ---------------------------------------------------------------------------- units
@dataclass(frozen=True, slots=True)
class UnitKind:
    """One row of a unit list: a kind of chit. ``key`` is ``set/index``."""

    key: str
    name: str
    type: str
    force: int
    speed: int
    count: int
    classes: frozenset[str]
    domain: str
    vs_forts: int

    @property
    def leader(self) -> bool:
        """A General or an Admiral (EA-8)."""
        return self.type in ("G", "D")

    @property
    def general(self) -> bool:
        """A General."""
        return self.type == "G"

    @property
    def admiral(self) -> bool:
        """An Admiral."""
        return self.type == "D"

    @property
    def fort(self) -> bool:
        """A Fortification."""
        return self.type == "F"

    @property
    def naval(self) -> bool:
        """A ship or an Admiral: it lives in sea zones (EA-11)."""
        return self.domain == "sea"

    @property
    def light(self) -> bool:
        """A raider (EA-27)."""
        return "light" in self.classes


def parse_units(data: Any) -> dict[str, tuple[UnitKind, ...]]:
    """Each unit set's rows from ``units.json``, validated.

    Raises:
        DataError: a count, speed, cost or class disagrees with the rows or the codes.
    """
    try:
        sets = data["sets"]
        move_codes = {str(k): int(v["speed"]) for k, v in data["move_codes"].items()}
        out: dict[str, tuple[UnitKind, ...]] = {}
        for set_id, body in sets.items():
            rows = body["units"]
            kinds = tuple(
                UnitKind(
                    f"{set_id}/{i}",
                    str(r["name"]),
                    str(r["type"]),
                    int(r["force"]),
                    int(r["speed"]),
                    int(r["count"]),
                    frozenset(r["classes"]),
                    str(r["domain"]),
                    int(r.get("vs_forts", 0)),
                )
                for i, r in enumerate(rows)
            )
            totals = (int(body["chits"]), int(body["kinds"]), dict(body["chits_by_type"]))
            costs = [int(r["cost"]) for r in rows]
            moves = [str(r["move"]) for r in rows]
            out[str(set_id)] = kinds
            _check_set(str(set_id), kinds, totals, costs, moves, move_codes)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"Europe at War data is invalid: malformed units ({exc!r})") from exc
    _need(set(out) == {"basic", *NATIONS}, f"unit sets {sorted(out)} are not basic + the nations")
    return out


def _check_set(
    set_id: str,
    kinds: tuple[UnitKind, ...],
    totals: tuple[int, int, dict[str, int]],
    costs: list[int],
    moves: list[str],
    move_codes: Mapping[str, int],
) -> None:
    chits, kind_count, by_type = totals
    _need(dict(move_codes) == MOVE_SPEEDS, "move codes differ from EA-9's speeds")
    _need(len(kinds) == kind_count, f"{set_id} has {len(kinds)} rows, not {kind_count}")
    total = sum(k.count for k in kinds)
    _need(total == chits, f"{set_id}'s rows hold {total} chits, not {chits}")
    counted: dict[str, int] = {}
    for k in kinds:
        counted[k.type] = counted.get(k.type, 0) + k.count
    _need(counted == by_type, f"{set_id}'s chits by type do not match its rows")
    for k, cost, move in zip(kinds, costs, moves, strict=True):
        _need(k.count > 0 and k.force >= 0, f"{k.key} ({k.name}) has a bad count or Force")
        _need(cost == k.force, f"{k.key} ({k.name}) costs {cost}, not its Force (EA-29)")
        _need(move in MOVE_SPEEDS and MOVE_SPEEDS[move] == k.speed, f"{k.key} has a bad speed")
        _need(k.type in TYPE_CLASSES, f"{k.key} has unknown type {k.type!r}")
        want = {"all"} | TYPE_CLASSES[k.type] | ({"lancer"} if k.name in LANCER_NAMES else set())
        _need(k.classes == want, f"{k.key} ({k.name}) has classes {sorted(k.classes)}")
        _need(k.domain == DOMAINS.get(k.type, "land"), f"{k.key} ({k.name}) has a bad domain")
        _need(k.vs_forts >= 0, f"{k.key} has a negative bonus against Fortifications")
    for t in ("G", "D"):
        _need(counted.get(t, 0) >= 1, f"{set_id} has no {t} to start with (EA-3)")


# ---------------------------------------------------------------------------- cards
@dataclass(frozen=True, slots=True)
class Effect:
    """A card's effect (``cards.json`` ``effect_schema``); unused fields keep defaults."""

    kind: str
    amount: int = 0
    factor: Fraction = Fraction(1)
    classes: frozenset[str] = frozenset()
    who: str = "own"
    role: str = "any"
    requires: str = ""
    target: str = ""
    count: int = 0
    dice: str = ""
    groups: int = 0
    domain: str = "any"
    must_end_in_battle: bool = False
    may_pass_forts: bool = False
    attack: bool = False
    then_draw: int = 0


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck (one copy of each printed row, EA-2)."""

    n: int
    id: str
    name: str
    text: str
    category: str
    timing: str
    contexts: frozenset[str]
    effect: Effect


def parse_cards(data: Any) -> dict[str, Card]:
    """The deck from ``cards.json``, by card id, validated.

    Raises:
        DataError: not 228 distinct cards, or an effect the engine does not play.
    """
    try:
        cards = [_card(row) for row in data["cards"]]
        special = {str(s) for s in data["meta"]["special_code"]}
        special_rows = {str(row["name"]) for row in data["cards"] if row.get("special")}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"Europe at War data is invalid: malformed cards ({exc!r})") from exc
    _need(len(cards) == DECK_SIZE, f"the deck has {len(cards)} cards, not {DECK_SIZE}")
    for what in ("n", "id", "name"):
        values = {getattr(c, what) for c in cards}
        _need(len(values) == DECK_SIZE, f"the deck's card {what}s are not distinct")
    _need({c.n for c in cards} == set(range(1, DECK_SIZE + 1)), "card numbers are not 1-228")
    for c in cards:
        _need(
            c.effect.kind in IMPLEMENTED_EFFECTS, f"{c.name} has unknown effect {c.effect.kind!r}"
        )
        _need(c.timing in TIMINGS, f"{c.name} has unknown timing {c.timing!r}")
        _need(c.contexts <= CONTEXTS, f"{c.name} has unknown contexts")
        _need((c.timing == "combat") == bool(c.contexts), f"{c.name}: contexts go with combat")
    _need(special == SPECIAL_CODE == special_rows, "the special-code cards are not EA-33's ten")
    return {c.id: c for c in cards}


def _card(row: Any) -> Card:
    e = row["effect"]
    known = set(Effect.__slots__)
    _need(set(e) <= known | {"random"}, f"{row['name']} has unknown effect fields")
    effect = Effect(
        kind=str(e["kind"]),
        amount=int(e.get("amount", 0)),
        factor=Fraction(str(e.get("factor", 1))),
        classes=frozenset(e.get("classes", ())),
        who=str(e.get("who", "own")),
        role=str(e.get("role", "any")),
        requires=str(e.get("requires", "")),
        target=str(e.get("target", "")),
        count=int(e.get("count", 0)),
        dice=str(e.get("dice", "")),
        groups=int(e.get("groups", 0)),
        domain=str(e.get("domain", "any")),
        must_end_in_battle=bool(e.get("must_end_in_battle", False)),
        may_pass_forts=bool(e.get("may_pass_forts", False)),
        attack=bool(e.get("attack", False)),
        then_draw=int(e.get("then_draw", 0)),
    )
    _need(effect.who in ("own", "enemy"), f"{row['name']}: bad who")
    _need(effect.role in ("any", "attacker", "defender"), f"{row['name']}: bad role")
    _need(effect.dice in ("", "1d6", "2d6"), f"{row['name']}: bad dice")
    return Card(
        int(row["n"]),
        str(row["id"]),
        str(row["name"]),
        str(row["text"]),
        str(row["category"]),
        str(row["timing"]),
        frozenset(row.get("contexts", ())),
        effect,
    )


# ---------------------------------------------------------------------------- loading
def raw(name: str) -> Any:
    """The parsed JSON of a shipped data file (``map``, ``map_compact``, ``units``, ``cards``)."""
    text = (
        resources.files("rules.europe_at_war").joinpath("data", f"{name}.json").read_text("utf-8")
    )
    return json.loads(text)


@cache
def game_map(compact: bool = False) -> GameMap:
    """The default map, or the compact one (EA-36); validated once per process."""
    return parse_map(raw("map_compact" if compact else "map"))


@cache
def unit_sets() -> dict[str, tuple[UnitKind, ...]]:
    """The unit sets by id (``basic`` and the five nations); validated once per process."""
    return parse_units(raw("units"))


@cache
def deck() -> dict[str, Card]:
    """The 228 cards by id, in printed order; validated once per process."""
    return parse_cards(raw("cards"))
