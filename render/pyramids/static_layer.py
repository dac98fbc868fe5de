"""The static board layer: everything on the board image that never changes in a game.

Sea, neutral land, the fields in their power's (continent's) colours with their borders,
straits and sea lanes, harbour symbols and their legend, sea and neutral-area labels,
field names, and the empty side panel. Drawn once per process at
``layout.SUPERSAMPLE`` times the size and downscaled once (antialiasing); callers
``.copy()`` it and draw pieces on top.

The geography is flat colour with crisp edges (one sea colour, one fill per field,
coasts and borders snapped to their own colours): every board PNG carries this layer,
so its compressibility is paid on every board. Links, harbours and labels stay
antialiased.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.drawing import (
    dashed_line,
    fill_region,
    halo_text,
    quadratic_curve,
    stroke_ring,
    trim_polyline,
)
from render.fonts import font
from rules import i18n

from . import edges, layout, palette
from .boards import board as load_board
from .boards import harbour_icons, lonlat_to_norm
from .catalogue import N_, _
from .edges import EdgeLink
from .labels import Label, LabelStyle, Rect, measure, place_names
from .regions import Regions, load_regions

S = layout.SUPERSAMPLE

NAME_SIZE: dict[str, int] = {"european_war": 16, "world_war_5": 14}
"""Field-name font size (board pixels, bold) per board."""
SEA_LABEL_SIZE = 14
NEUTRAL_LABEL_SIZE = 12
HARBOUR_RADIUS = 10
LINK_TRIM = 22
"""Dashed links stop this many pixels short of the anchors (under the pieces anyway)."""

SEA_LABELS: dict[str, tuple[tuple[str, float, float], ...]] = {
    "european_war": (
        (N_("Atlantic\nOcean"), -8.0, 47.0),
        (N_("North Sea"), 3.2, 56.3),
        (N_("Baltic\nSea"), 19.3, 56.6),
        (N_("Mediterranean Sea"), 17.0, 33.9),
        (N_("Black Sea"), 34.5, 43.3),
    ),
    "world_war_5": (
        (N_("Pacific\nOcean"), -140.0, 5.0),
        (N_("Pacific\nOcean"), 165.0, 20.0),
        (N_("Atlantic\nOcean"), -42.0, 28.0),
        (N_("Atlantic\nOcean"), -18.0, -28.0),
        (N_("Indian\nOcean"), 78.0, -22.0),
        (N_("Arctic Ocean"), -20.0, 82.0),
        (N_("Southern Ocean"), 40.0, -52.0),
    ),
}
"""Sea names per board: text (in English: translated where drawn), longitude, latitude of
the text's centre."""
NEUTRAL_NAMES = (N_("Switzerland"), N_("Denmark"), N_("Romania"))
"""The neutral areas' names (the baked regions give them in English)."""

STRAIT_VIA: dict[frozenset[str], tuple[float, float]] = {
    frozenset(("britain", "france_benelux")): (1.3, 50.9),
    frozenset(("spain", "north_africa")): (-5.6, 36.0),
    frozenset(("italy", "south_balkans")): (18.9, 39.6),
    frozenset(("germany", "south_scandinavia")): (11.6, 55.6),
}
"""Longitude/latitude each European War special link bends through (the strait)."""


def _px(x: float, y: float) -> tuple[float, float]:
    return layout.to_px(x, y)


def _field_fills(board_id: str, pyramid_arcade: bool) -> dict[str, palette.RGB]:
    b = load_board(board_id, pyramid_arcade)
    fills: dict[str, palette.RGB] = {}
    for fid, f in b.fields.items():
        fam = palette.family_for(f.owner)
        index = b.powers[f.owner].fields.index(fid) % len(fam.fills)
        fills[fid] = fam.fills[index]
    return fills


def field_fill(board_id: str, field_id: str) -> palette.RGB:
    """Return the fill colour of a field on the static layer.

    Raises:
        KeyError: unknown field.
        rules.BoardError: unknown board.
    """
    return _field_fills(board_id, False)[field_id]


def _draw_geography(
    canvas: Image.Image, board_id: str, regions: Regions, fills: dict[str, palette.RGB]
) -> None:
    draw = ImageDraw.Draw(canvas)
    everything = list(regions.fields.values()) + list(regions.neutral.values())
    for region in regions.neutral.values():
        fill_region(canvas, region, palette.NEUTRAL_LAND, S)
    for fid, region in regions.fields.items():
        fill_region(canvas, region, fills[fid], S)
    for region in everything:
        for poly in region:
            for ring in poly:
                stroke_ring(draw, ring, palette.COAST, 2 * S // 2 + 1, S)
    b = load_board(board_id)
    for border in regions.borders:
        if border.kind == "neutral":
            colour, width = palette.NEUTRAL_BORDER, 3
        elif border.kind == "field":
            colour, width = palette.family_for(b.fields[border.a].owner).border, 3
        else:
            colour, width = palette.POWER_BORDER, 5
        for line in border.lines:
            stroke_ring(draw, line, colour, width, S, closed=False)


def _geography_colours(board_id: str, fills: dict[str, palette.RGB]) -> list[palette.RGB]:
    """Every flat colour of the geography: sea, land fills, coast and border strokes."""
    b = load_board(board_id)
    out = [palette.SEA, palette.NEUTRAL_LAND, palette.COAST, palette.NEUTRAL_BORDER]
    out += [palette.POWER_BORDER, palette.PANEL_BACKGROUND, *fills.values()]
    out += [palette.family_for(owner).border for owner in b.powers]
    return list(dict.fromkeys(out))


def _snap(canvas: Image.Image, colours: list[palette.RGB]) -> Image.Image:
    """The geography with crisp edges: the supersampled drawing is averaged down, each
    pixel snapped to the nearest of ``colours`` (so an edge pixel takes the colour that
    covers most of it), then scaled back up for the antialiased drawings on top. Blended
    edge colours made the map's PNG ~20% larger: every coast and border broke deflate's
    runs with colours of their own."""
    pal = Image.new("P", (1, 1))
    flat = [v for c in colours for v in c]
    pal.putpalette(flat + flat[:3] * (256 - len(colours)))
    small = canvas.reduce(S).quantize(palette=pal, dither=Image.Dither.NONE)
    return small.convert("RGB").resize(canvas.size, Image.Resampling.NEAREST)


def edge_links(board_id: str, pyramid_arcade: bool = False) -> tuple[EdgeLink, ...]:
    """The board's links across the map's east-west edge, with their tags (see
    :mod:`render.pyramids.edges`) in the current language, placed clear of every piece
    spot, name, label, harbour symbol and legend.

    Raises:
        rules.BoardError: unknown board.
    """
    return _edge_links(board_id, pyramid_arcade, i18n.current())


@lru_cache(maxsize=16)
def _edge_links(board_id: str, pyramid_arcade: bool, locale: str) -> tuple[EdgeLink, ...]:
    b = load_board(board_id, pyramid_arcade)
    anchors = {fid: _px(f.x, f.y) for fid, f in b.fields.items()}
    names = {lab.key: lab.box for lab in _name_labels(board_id, locale)}
    obstacles: list[Rect] = [layout.piece_box(f.x, f.y) for f in b.fields.values()]
    obstacles += [*names.values(), *_fixed_boxes(board_id)]
    return edges.edge_links(b, anchors, obstacles, names)


def _links(board_id: str, pyramid_arcade: bool) -> list[list[tuple[float, float]]]:
    """Polylines (board pixels) of the links drawn as dashes: straits and sea lanes (a
    lane across the map's edge: its two halves, each to its tag)."""
    b = load_board(board_id, pyramid_arcade)
    base_pairs = {frozenset((lk.a, lk.b)) for lk in load_board(board_id).links}
    width = float(layout.MAP_WIDTH)
    halves = {frozenset((e.west, e.east)): e for e in edge_links(board_id, pyramid_arcade)}
    out: list[list[tuple[float, float]]] = []
    for lk in b.links:
        pair = frozenset((lk.a, lk.b))
        if lk.kind not in ("special", "sea") and pair in base_pairs:
            continue
        fa, fb = b.fields[lk.a], b.fields[lk.b]
        a, c = _px(fa.x, fa.y), _px(fb.x, fb.y)
        if lk.wraps_map_edge:
            edge = halves[pair]
            west, east = b.fields[edge.west], b.fields[edge.east]
            for start, end in (
                (_px(west.x, west.y), (0.0, edge.west_tag.centre_y)),
                (_px(east.x, east.y), (width, edge.east_tag.centre_y)),
            ):
                out.append(trim_polyline([start, end], LINK_TRIM, 0.0))
            continue
        if pair in STRAIT_VIA:
            via = _px(*lonlat_to_norm(b, *STRAIT_VIA[pair]))
            pts = quadratic_curve(a, via, c)
        else:
            pts = [a, c]
        out.append(trim_polyline(pts, LINK_TRIM, LINK_TRIM))
    return [p for p in out if len(p) >= 2]


def _draw_links(canvas: Image.Image, lines: list[list[tuple[float, float]]]) -> None:
    draw = ImageDraw.Draw(canvas)
    for pts in lines:
        big = [(x * S, y * S) for x, y in pts]
        dashed_line(draw, big, palette.WHITE, 7 * S // 2, 9.0 * S, 5.0 * S)
    for pts in lines:
        big = [(x * S, y * S) for x, y in pts]
        dashed_line(draw, big, palette.LINK, 2 * S, 9.0 * S, 5.0 * S)


def harbour_spots(board_id: str) -> dict[str, tuple[float, float]]:
    """Where the harbour symbols are drawn: field id -> centre in board pixels.

    Each symbol sits at its ``harbour_icon`` position from the board file, except that
    one falling on a piece spot (``layout.piece_box``) is pushed just outside it, by the
    shortest way, so that pieces never hide a harbour.

    Raises:
        rules.BoardError: unknown board.
    """
    b = load_board(board_id)
    boxes = [layout.piece_box(f.x, f.y) for f in b.fields.values()]
    margin = HARBOUR_RADIUS + 2
    out: dict[str, tuple[float, float]] = {}
    for fid, (x, y) in harbour_icons(board_id).items():
        px, py = _px(x, y)
        for left, top, right, bottom in boxes:
            left, top, right, bottom = left - margin, top - margin, right + margin, bottom + margin
            if left < px < right and top < py < bottom:
                moves = [(left - px, 0.0), (right - px, 0.0), (0.0, top - py), (0.0, bottom - py)]
                dx, dy = min(moves, key=lambda m: abs(m[0]) + abs(m[1]))
                px, py = px + dx, py + dy
        out[fid] = (px, py)
    return out


def _harbour_boxes(board_id: str) -> dict[str, Rect]:
    r = HARBOUR_RADIUS + 1
    return {fid: (x - r, y - r, x + r, y + r) for fid, (x, y) in harbour_spots(board_id).items()}


def _harbour_symbol(draw: ImageDraw.ImageDraw, centre: tuple[float, float], group: str) -> None:
    """One harbour symbol (a disc in the group's colour with its letter), centred on
    ``centre`` in board pixels, on a canvas ``S`` times larger."""
    colour = palette.HARBOUR.get(group, palette.LINK)
    px, py = centre[0] * S, centre[1] * S
    r = HARBOUR_RADIUS * S
    draw.ellipse((px - r, py - r, px + r, py + r), fill=colour, outline=palette.WHITE, width=2 * S)
    draw.text(
        (px, py + S),
        palette.HARBOUR_LETTER.get(group, "?"),
        font=font(12 * S, bold=True),
        fill=palette.WHITE,
        anchor="mm",
    )


def _draw_harbours(canvas: Image.Image, board_id: str) -> None:
    b = load_board(board_id)
    draw = ImageDraw.Draw(canvas)
    for fid, centre in harbour_spots(board_id).items():
        _harbour_symbol(draw, centre, b.fields[fid].harbour or "")


LEGEND_AT: dict[str, tuple[float, float]] = {"european_war": (8.0, 8.0)}
"""Top left corner (board pixels) of the harbour legend, per board with harbours: open
sea, clear of every piece spot, name and symbol (a test checks it)."""
LEGEND_GROUPS = ("atlantic", "mediterranean")
LEGEND_ROW = 24


def legend_words() -> tuple[str, dict[str, str], str, str]:
    """The harbour legend's words in the current language: its title, each group's
    line, how ships sail, and the straits' note."""
    groups = {"atlantic": _("Atlantic harbour"), "mediterranean": _("Mediterranean harbour")}
    return (
        _("HARBOURS"),
        groups,
        _("Sail only between harbours of one letter"),
        _("Strait: a land link"),
    )


def _legend_groups(board_id: str) -> list[str]:
    b = load_board(board_id)
    return [g for g in LEGEND_GROUPS if g in b.harbour_groups]


def legend_box(board_id: str) -> Rect | None:
    """The harbour legend's box (board pixels), or ``None`` for a board without one."""
    at = LEGEND_AT.get(board_id)
    groups = _legend_groups(board_id)
    if at is None or not groups:
        return None
    label, note = font(12), font(10)
    title, names, sail, strait = legend_words()
    width = max(
        *(36 + label.getlength(names[g]) for g in groups),
        10 + font(10, bold=True).getlength(title),
        10 + note.getlength(sail),
        40 + note.getlength(strait),
    )
    height = 24 + len(groups) * LEGEND_ROW + 34
    return (at[0], at[1], at[0] + math.ceil(width) + 10, at[1] + height)


def _draw_legend(canvas: Image.Image, board_id: str) -> None:
    """The harbour legend: each group's symbol and name, how ships sail, and the dashed
    straits (land links)."""
    box = legend_box(board_id)
    if box is None:
        return
    left, top, right, bottom = box
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle(
        (left * S, top * S, right * S - 1, bottom * S - 1),
        radius=8 * S,
        fill=palette.WHITE,
        outline=palette.COAST,
        width=S,
    )
    title, names, sail, strait = legend_words()
    small = font(10 * S, bold=True)
    draw.text(((left + 10) * S, (top + 8) * S), title, font=small, fill=palette.SEA_LABEL)
    label = font(12 * S)
    y = top + 24
    for group in _legend_groups(board_id):
        _harbour_symbol(draw, (left + 20, y + HARBOUR_RADIUS), group)
        draw.text(((left + 36) * S, (y + 3) * S), names[group], font=label, fill=palette.TEXT)
        y += LEGEND_ROW
    note = font(10 * S)
    draw.text(((left + 10) * S, (y + 1) * S), sail, font=note, fill=palette.TEXT)
    y += 16
    line = [((left + 10) * S, (y + 7) * S), ((left + 34) * S, (y + 7) * S)]
    dashed_line(draw, line, palette.LINK, 2 * S, 9.0 * S, 5.0 * S)
    draw.text(((left + 40) * S, (y + 1) * S), strait, font=note, fill=palette.TEXT)


def _spaced(text: str) -> str:
    """Letter-space a label with hair spaces (map style for seas)."""
    return "\n".join("\u200a".join(line) for line in text.split("\n"))


def _sea_labels(board_id: str) -> list[Label]:
    b = load_board(board_id)
    style = LabelStyle(font(SEA_LABEL_SIZE * S), S, 0, 2 * S)
    out = []
    for english, lon, lat in SEA_LABELS.get(board_id, ()):
        text = _(english)
        spaced = _spaced(text)
        w, h = measure(spaced, style)
        cx, cy = _px(*lonlat_to_norm(b, lon, lat))
        out.append(Label(text, spaced, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)))
    return out


def _fixed_boxes(board_id: str) -> list[Rect]:
    boxes = [lab.box for lab in _sea_labels(board_id)]
    boxes += [lab.box for lab in _neutral_labels(load_regions(board_id))]
    legend = legend_box(board_id)
    boxes += [legend] if legend is not None else []
    return boxes + list(_harbour_boxes(board_id).values())


def fixed_label_boxes(board_id: str) -> list[Rect]:
    """Boxes (board pixels) of the sea and neutral-area labels, the harbour legend and
    symbols, and the tags of links across the map's edge.

    Raises:
        rules.BoardError: unknown board.
    """
    tags = [t.box for e in edge_links(board_id) for t in (e.west_tag, e.east_tag)]
    return _fixed_boxes(board_id) + tags


def _neutral_labels(regions: Regions) -> list[Label]:
    style = LabelStyle(font(NEUTRAL_LABEL_SIZE * S), S, 2 * S, 0)
    out = []
    for english, (x, y) in regions.neutral_labels.items():
        name = _(english)
        w, h = measure(name, style)
        out.append(Label(name, name, (x - w / 2, y - h / 2, x + w / 2, y + h / 2)))
    return out


def name_labels(board_id: str) -> list[Label]:
    """Where the static layer writes each field's name (board pixels), in board order.

    Raises:
        rules.BoardError: unknown board.
    """
    return list(_name_labels(board_id, i18n.current()))


def _name_style(board_id: str) -> LabelStyle:
    return LabelStyle(font(NAME_SIZE.get(board_id, 15) * S, bold=True), S, 3 * S, 0)


@lru_cache(maxsize=16)
def _name_labels(board_id: str, locale: str) -> tuple[Label, ...]:
    """The field names' labels in ``locale`` (the current language when called)."""
    b = load_board(board_id)
    regions = load_regions(board_id)
    obstacles = list(_harbour_boxes(board_id).values())
    obstacles += [lab.box for lab in _sea_labels(board_id)]
    obstacles += [lab.box for lab in _neutral_labels(regions)]
    legend = legend_box(board_id)
    obstacles += [legend] if legend is not None else []
    names = [(fid, f.name, *_px(f.x, f.y)) for fid, f in b.fields.items()]
    return tuple(place_names(names, _name_style(board_id), obstacles))


def _draw_labels(canvas: Image.Image, board_id: str, regions: Regions) -> None:
    draw = ImageDraw.Draw(canvas)
    sea_font = font(SEA_LABEL_SIZE * S)
    for lab in _sea_labels(board_id):
        cx, top = lab.top_centre
        draw.multiline_text(
            (cx * S, top * S),
            lab.text,
            font=sea_font,
            fill=palette.SEA_LABEL,
            anchor="ma",
            align="center",
            spacing=2 * S,
        )
    neutral_font = font(NEUTRAL_LABEL_SIZE * S)
    for lab in _neutral_labels(regions):
        cx, top = lab.top_centre
        halo_text(
            draw,
            (cx * S, top * S),
            lab.text,
            neutral_font,
            palette.NEUTRAL_LABEL,
            palette.NEUTRAL_LAND,
            2 * S,
        )
    style = _name_style(board_id)
    for lab in name_labels(board_id):
        cx, top = lab.top_centre
        halo_text(
            draw, (cx * S, top * S), lab.text, style.font, palette.TEXT, palette.HALO, style.halo
        )


def _draw_edge_tags(canvas: Image.Image, board_id: str, pyramid_arcade: bool) -> None:
    """The tags where links leave the map's edge, each naming where its link goes."""
    draw = ImageDraw.Draw(canvas)
    tag_font = font(edges.TAG_SIZE * S)
    for edge in edge_links(board_id, pyramid_arcade):
        for tag in (edge.west_tag, edge.east_tag):
            left, top, right, bottom = (v * S for v in tag.box)
            draw.rounded_rectangle(
                (left, top, right - 1, bottom - 1),
                radius=4 * S,
                fill=palette.WHITE,
                outline=palette.LINK,
                width=S,
            )
            draw.text(
                ((left + right) / 2, (top + bottom) / 2),
                tag.text,
                font=tag_font,
                fill=palette.LINK,
                anchor="mm",
            )


def _draw_panel(canvas: Image.Image) -> None:
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = (v * S for v in layout.PANEL_BOX)
    draw.rectangle((left, top, right - 1, bottom - 1), fill=palette.PANEL_BACKGROUND)
    draw.rectangle((left, top, left + 2 * S - 1, bottom - 1), fill=palette.PANEL_EDGE)


def static_board(board_id: str, pyramid_arcade: bool = False) -> Image.Image:
    """Return the static layer of a board image (RGB, ``layout.BOARD_SIZE``), cached
    per language (its words are in the current language).

    The same image object is returned on every call: callers must ``.copy()`` it before
    drawing on it.

    Args:
        board_id: ``"european_war"`` or ``"world_war_5"``.
        pyramid_arcade: World War 5's Pyramid Arcade printing (two sea lanes fewer, a
            Scandinavia - Southwest Asia link more).

    Raises:
        rules.BoardError: unknown board.
        FileNotFoundError: no baked map for the board.
    """
    return _static_board(board_id, pyramid_arcade, i18n.current())


@lru_cache(maxsize=16)
def _static_board(board_id: str, pyramid_arcade: bool, locale: str) -> Image.Image:
    """The static layer in ``locale`` (the current language when called)."""
    regions = load_regions(board_id)
    fills = _field_fills(board_id, pyramid_arcade)
    size = (layout.BOARD_SIZE[0] * S, layout.BOARD_SIZE[1] * S)
    canvas = Image.new("RGB", size, palette.PANEL_BACKGROUND)
    map_left, map_top, map_right, map_bottom = (v * S for v in layout.MAP_BOX)
    canvas.paste(palette.SEA, (map_left, map_top, map_right, map_bottom))
    _draw_geography(canvas, board_id, regions, fills)
    canvas = _snap(canvas, _geography_colours(board_id, fills))
    _draw_links(canvas, _links(board_id, pyramid_arcade))
    _draw_harbours(canvas, board_id)
    _draw_legend(canvas, board_id)
    _draw_labels(canvas, board_id, regions)
    _draw_edge_tags(canvas, board_id, pyramid_arcade)
    _draw_panel(canvas)
    # A box filter (each pixel the mean of its S x S block): as smooth as Lanczos here,
    # without its ringing, whose extra in-between colours made the board PNG ~30% larger.
    small = canvas.reduce(S)
    _snap_tags(small, board_id, pyramid_arcade)
    return small


TAG_INKS = 4
"""Shades of the tags' words (white to the link colour): their antialiasing in four
steps instead of every shade made the board PNG ~1.5 KB smaller, and reads the same."""


def _snap_tags(image: Image.Image, board_id: str, pyramid_arcade: bool) -> None:
    """Snap the inside of each edge tag (its words on white) to ``TAG_INKS`` shades."""
    shades = [palette.mix(palette.WHITE, palette.LINK, i / (TAG_INKS - 1)) for i in range(TAG_INKS)]
    pal = Image.new("P", (1, 1))
    flat = [v for c in shades for v in c]
    pal.putpalette(flat + flat[:3] * (256 - len(shades)))
    for edge in edge_links(board_id, pyramid_arcade):
        for tag in (edge.west_tag, edge.east_tag):
            # inside its rounded border
            box = (
                math.ceil(tag.box[0]) + 2,
                math.ceil(tag.box[1]) + 2,
                math.floor(tag.box[2]) - 2,
                math.floor(tag.box[3]) - 2,
            )
            inside = image.crop(box).quantize(palette=pal, dither=Image.Dither.NONE)
            image.paste(inside.convert("RGB"), box)


def anchor_px(board_id: str, field_id: str) -> tuple[float, float]:
    """Return a field's anchor in board pixels (where its pieces go).

    Raises:
        KeyError: unknown field.
    """
    f = load_board(board_id).fields[field_id]
    return _px(f.x, f.y)


__all__ = [
    "anchor_px",
    "edge_links",
    "field_fill",
    "fixed_label_boxes",
    "harbour_spots",
    "legend_box",
    "name_labels",
    "static_board",
]
