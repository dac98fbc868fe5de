"""Words the bot posts: pure functions from service records to Discord-ready text.

Everything here is made from public records (lobby info, decisions, the spectator view);
a game's own words come from its presentation (:mod:`rules.presentation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from discord.utils import escape_markdown

from rules import contract, i18n
from rules.presentation import Presentation
from service import (
    DecisionInfo,
    GameListing,
    GameStatus,
    KindStats,
    Leaderboard,
    LobbyInfo,
    PlayerStats,
    Standing,
)

from .catalogue import N_, _, n_, p_
from .games import decision_name

CONTENT_LIMIT = 2000
SOURCE = N_(
    "open source (MIT licence): the european-war-bot project; its README explains "
    "how to run your own copy"
)
VERSION = "0.1.0"


def variant_name(variant: str) -> str:
    """The registered game's title, as its presentation gives it."""
    return contract.game_named(variant).presentation.title


def variant_slug(variant: str) -> str:
    """The registry name as users type it: underscores become hyphens."""
    return variant.replace("_", "-")


def stamp(when: float | None) -> str:
    """A Discord relative timestamp (``<t:UNIX:R>``), or '' for no deadline."""
    return f"<t:{int(when)}:R>" if when else ""


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel (or a message in it)."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def where_label(
    guild_name: str | None, channel_name: str | None, guild_id: int | None, channel_id: int
) -> str:
    """Which server and channel a DM belongs to, with a link (first line of every DM)."""
    server = guild_name or _("a server")
    channel = f"#{channel_name}" if channel_name else f"<#{channel_id}>"
    return f"**{server}** › {channel} · {jump_url(guild_id, channel_id)}"


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Cut ``text`` to Discord's limit, keeping its end (the newest lines) when long."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1) :]


def pages(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut between lines (a line
    longer than that is cut where it must)."""
    out: list[str] = []
    page = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if page:
                out.append(page)
                page = ""
            out.append(line[:limit])
            line = line[limit:]
        if page and len(page) + 1 + len(line) > limit:
            out.append(page)
            page = line
        else:
            page = f"{page}\n{line}" if page else line
    out.append(page)
    return out


def mention(user_id: int | None, name: str) -> str:
    """``<@id>`` for a person, the name for a computer."""
    return f"<@{user_id}>" if user_id is not None else name


def duration_words(seconds: float | None) -> str:
    """'12 h', '5 min', '30 s', 'no limit'."""
    if seconds is None:
        return _("no limit")
    if seconds >= 86400 and seconds % 86400 == 0:
        return p_("a duration", "{n} d").format(n=int(seconds // 86400))
    if seconds >= 3600 and seconds % 3600 == 0:
        return p_("a duration", "{n} h").format(n=int(seconds // 3600))
    if seconds >= 60 and seconds % 60 == 0:
        return p_("a duration", "{n} min").format(n=int(seconds // 60))
    return p_("a duration", "{n} s").format(n=f"{seconds:g}")


# ---------------------------------------------------------------------- lobby
def lobby_text(info: LobbyInfo, *, closed: str | None = None) -> str:
    """The lobby message: table, seats, options, expiry (or why it closed)."""
    opts = info.options
    lines = [
        _("**{title}** — a table for 2–{most} players, hosted by {host}.").format(
            title=variant_name(info.variant),
            most=info.max_players,
            host=mention(info.host_id, _("the host")),
        )
    ]
    lines.append(
        _("**Seats ({taken}/{most})**").format(taken=len(info.seats), most=info.max_players)
    )
    for i, s in enumerate(info.seats, 1):
        who = mention(s.user_id, s.name) if s.user_id is not None else s.name
        if s.power_name:
            lines.append(_("{n}. {who} — wants {power}").format(n=i, who=who, power=s.power_name))
        else:
            lines.append(f"{i}. {who}")
    words = contract.game_named(info.variant).presentation
    extras = [
        _("turn timeout {duration}").format(duration=duration_words(info.turn_timeout)),
        *words.option_words(opts),
        _("seats in join order") if info.arranged else _("seats dealt at random"),
    ]
    lines.append(_("Options: {options}.").format(options=" · ".join(extras)))
    if closed:
        lines.append(closed)
    else:
        lines.append(_("Join with the button or /join; the host starts with Start or /start."))
        if info.expires_at:
            lines.append(
                _("The lobby closes {when} unless the game starts.").format(
                    when=stamp(info.expires_at)
                )
            )
    return clip("\n".join(lines))


# ---------------------------------------------------------------------- game messages
def waiting_lines(decisions: Sequence[DecisionInfo], words: Presentation) -> list[str]:
    """Who must decide now, with deadlines, in the game's words
    (:meth:`rules.presentation.Presentation.decisions`): a line per decider, or one for
    all deciders of a kind decided together (its first deadline)."""
    out: list[str] = []
    by_kind: dict[str, list[DecisionInfo]] = {}
    for d in decisions:
        by_kind.setdefault(d.kind, []).append(d)
    for kind, spoken in words.decisions().items():
        waiting = by_kind.get(kind, [])
        if not waiting or not spoken.waiting:
            continue
        named = [mention(d.user_id, d.name) if spoken.call else d.name for d in waiting]
        if spoken.together:
            out.append(spoken.line(named, stamp(waiting[0].deadline) or None))
            continue
        for d, who in zip(waiting, named, strict=True):
            out.append(spoken.line([who], stamp(d.deadline) or None, d.user_id is None))
    return out


def game_line(st: GameStatus | GameListing, user_id: int, where: str) -> str:
    """One game in /games: its title, ``where`` it is (server and channel, linked), and
    who it waits for — ``user_id``'s own decision with its deadline first."""
    head = f"**{variant_name(st.variant)}** · {where}"
    if st.status == "lobby":
        return _("{head} — a table still open ({n} seated).").format(head=head, n=len(st.seats))
    mine = [d for d in st.decisions if d.user_id == user_id]
    others = sorted({d.name for d in st.decisions if d.user_id != user_id})
    if mine:
        deadline = min((d.deadline for d in mine if d.deadline), default=None)
        spoken = ", ".join(sorted({decision_name(st.variant, d.kind) for d in mine}))
        if deadline and st.paused:
            line = _("{head} — ▶ **you** ({what}, time runs out {when}) (paused).")
        elif deadline:
            line = _("{head} — ▶ **you** ({what}, time runs out {when}).")
        elif st.paused:
            line = _("{head} — ▶ **you** ({what}) (paused).")
        else:
            line = _("{head} — ▶ **you** ({what}).")
        return line.format(head=head, what=spoken, when=stamp(deadline))
    who = ", ".join(others) or _("nobody")
    if st.paused:
        return _("{head} — waiting for {who} (paused).").format(head=head, who=who)
    return _("{head} — waiting for {who}.").format(head=head, who=who)


def status_text(lines: Iterable[str]) -> str:
    """``/status`` output."""
    return clip("\n".join(lines))


def help_for(variant: str) -> str:
    """/help for the game played in a channel: its presentation's own text, or one made
    from its title and turn commands (:func:`spec_help`)."""
    return contract.game_named(variant).presentation.help_text() or spec_help(variant)


def spec_help(variant: str) -> str:
    """How to play a registered game here, from its presentation: its title, each turn
    command with its options and description, and where its other decisions come."""
    words = contract.game_named(variant).presentation
    lines = [
        _("**How to play {title} here**").format(title=words.title),
        _(
            "• **/newgame variant:{variant}** opens a table; people press **Join** "
            "or use **/join**; the host adds computers with **Add computer** or **/addbot** and "
            "starts with **Start** or **/start**."
        ).format(variant=variant_slug(variant)),
    ]
    lines.append(
        _(
            "• On your turn press **Your turn** in the channel (or use the panel I DM you) and "
            "click your way through, or type its command:"
        )
    )
    for c in words.commands():
        options = " ".join(o.name if o.required else f"[{o.name}]" for o in c.options)
        command = f"• **/{c.name}** {options}".rstrip()
        description = i18n.translate_any(c.description, i18n.current())
        lines.append(f"{command} — {description}.")
    lines += [
        _(
            "• Decisions out of turn come as private panels by DM, and from **Open my panel** "
            "in the channel. Options autocomplete with what is legal now."
        ),
        _(
            "• **/board**, **/hand**, **/status**, **/log** show the game; **/games** your "
            "games; **/rules** the rules; **/hint** suggests a move for your own decision "
            "(only you see it); **/replay** and **/export** replay a game of this channel; "
            "**/undo** (or **Undo** under your move, for 30 s) takes back a move that revealed "
            "nothing, if nobody moved since; **/draw** proposes a draw; **Rematch** plays "
            "again; **/leaderboard** and **/stats** show the ratings."
        ),
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------- ratings
def nth(place: int) -> str:
    """A place in a ranking: 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st in English;
    the current language's way (1., n° 1) elsewhere."""
    if i18n.current() != i18n.DEFAULT:
        return p_("a place in a ranking", "{n}th").format(n=place)
    if place % 100 in (11, 12, 13):
        return f"{place}th"
    return f"{place}{({1: 'st', 2: 'nd', 3: 'rd'}).get(place % 10, 'th')}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 game', '3 games' (``many``: the plural when it is not ``word`` + s): English
    only; a translated count is an ``n_`` message."""
    return f"{count} {word}" if count == 1 else f"{count} {many or word + 's'}"


def _games(n: int) -> str:
    return n_("{n} game", "{n} games", n).format(n=n)


def _wins(n: int) -> str:
    return n_("{n} win", "{n} wins", n).format(n=n)


def rating_words(rating: float) -> str:
    """A rating as shown (one decimal; OpenSkill's ordinal, 0 for a newcomer; never
    "-0.0")."""
    return f"{round(rating, 1) + 0.0:.1f}"


def _standing_line(s: Standing, you: bool) -> str:
    name = escape_markdown(s.name)
    who = _("**{name}** (you)").format(name=name) if you else name
    games, wins = _games(s.games), _wins(s.wins)
    return f"{s.place}. {who} — {rating_words(s.rating)} · {games}, {wins}"


def leaderboard_text(board: Leaderboard, where: str, user_id: int) -> str:
    """/leaderboard: the best ratings of one game kind ``where`` (a server's name, or
    everyone's), best first, and the asker's own line below when they are further down."""
    head = _("**{title} — leaderboard {where}**").format(title=board.title, where=where)
    if not board.standings:
        nobody = _(
            "Nobody is rated yet. A game with at least two people is rated when it "
            "ends; playing computers counts a little."
        )
        return f"{head}\n{nobody}"
    rated = n_("{n} rated player", "{n} rated players", board.total).format(n=board.total)
    lines = [f"{head} ({rated})"]
    lines += [_standing_line(s, s.user_id == user_id) for s in board.standings]
    mine = board.mine
    if mine is not None and all(s.user_id != mine.user_id for s in board.standings):
        lines += ["…", _standing_line(mine, True)]
    lines.append(_("Ratings are OpenSkill's (skill − 3 × uncertainty): a newcomer starts at 0."))
    return clip("\n".join(lines))


def _kind_lines(k: KindStats) -> list[str]:
    if k.rating is None:
        rated = _("not rated yet (a game with at least two people is rated)")
    elif k.place is not None:
        rated = _("rating **{rating}** ({place} of {players})").format(
            rating=rating_words(k.rating), place=nth(k.place), players=k.players
        )
    else:
        rated = _("rating **{rating}**").format(rating=rating_words(k.rating))
    counts = [
        _wins(k.wins),
        n_("{n} shared win", "{n} shared wins", k.shared).format(n=k.shared),
        n_("{n} draw", "{n} draws", k.draws).format(n=k.draws),
        n_("{n} loss", "{n} losses", k.losses).format(n=k.losses),
    ]
    if k.left:
        counts.append(n_("{n} left early", "{n} left early", k.left).format(n=k.left))
    lines = [f"**{k.title}** · {rated}", f"{_games(k.games)}: " + ", ".join(counts)]
    if k.favourite:
        lines.append(
            _("Favourite side: {side} ({games})").format(
                side=k.favourite, games=_games(k.favourite_games)
            )
        )
    return lines


def stats_text(stats: PlayerStats, name: str) -> str:
    """/stats: ``name``'s record in each game kind (games, wins alone and shared, draws,
    losses, games left early, favourite side, rating and place) and the hints they took,
    if any."""
    shown = escape_markdown(stats.name or name)
    if not stats.kinds:
        return _("{name} has not finished a game in a server yet.").format(name=shown)
    lines = [_("**Stats of {name}**").format(name=shown)]
    for k in stats.kinds:
        lines += _kind_lines(k)
    if stats.hints:
        lines.append(_("Hints taken: {n}").format(n=stats.hints))
    return clip("\n".join(lines))


def about() -> str:
    """/about: the bot, its source, what it stores and how data is deleted."""
    return "\n".join(
        [
            _(
                "**European War bot** {version} — "
                "European War (Jan Divecky) and World War 5 (Andrew "
                "Looney), pyramid wargames, on Discord."
            ).format(version=VERSION),
            _("Source: {source}.").format(source=_(SOURCE)),
            _(
                "**What is stored:** for each game, the server, channel and thread ids, the "
                "Discord user ids and display names of its players (and whether their DMs are "
                "closed), every action taken, the game state and the ids of its lobby and duel "
                "messages; for each finished game in a server, each player's result, side and "
                "rating after it, and per person and game their rating (/stats, /leaderboard; "
                "worked out from the games); per server, the /settings values; per person who "
                "used /pings, that choice; per player and game, how many hints (/hint) they "
                "took. Nothing else: no message content is read."
            ),
            _(
                "**Deletion:** when the bot is removed from a server, that server's games are "
                "archived at once and all its data (games, players, logs, settings) is deleted "
                "seven days later. To have your data deleted sooner, ask the bot's operator."
            ),
        ]
    )
