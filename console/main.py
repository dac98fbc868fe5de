"""The local console: play any registered game in a terminal, no Discord needed.

::

    python -m console                     # a few questions, then you play
    european-war --computers 3 --level hard   # you against three hard computers
    european-war --hotseat --players 3        # three people at one keyboard
    european-war --resume                     # list the unfinished console games, pick one
    european-war --resume 3                   # continue console game #3
    european-war --watch 2 --fast             # computers play two games (a smoke test)
    european-war --replay 3                   # game #3 step by step, and its animation
    european-war --lang cs                    # in Czech (else LC_ALL / LC_MESSAGES / LANG)

It drives the same :class:`~service.GameService` and SQLite store as the Discord bot:
a console game is an ordinary game row in a pseudo channel of its own (no server, see
:mod:`console.games`), its people are the pseudo users 1, 2, … and every action is saved
as it is made, so ``quit`` loses nothing. Computers decide through the service exactly as
in Discord. Each front end's service hosts only its own games (:func:`console_games` here,
the games of servers in the bot), so a bot started on the same file leaves console games
alone.

The terminal is read on the main thread while the service's event loop is stopped, so
nothing moves while you think (a console game has no time limits; its diplomacy window is
the longest allowed) and output never interleaves with your typing. After each of your
actions the loop runs until the computers are done and it is someone's turn at this
keyboard again.

The whole run speaks one language (:func:`language`): the console's own words, the
game's and the service's, and the boards it writes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import hashlib
import logging
import os
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from render import images_for
from render.replay import Frame, animate
from rules import contract, i18n
from service import GameService, ServiceError, computer
from service.config import ConfigError, database_path
from service.models import COMPUTER_LEVELS
from service.store import open_store

from .catalogue import _, n_, p_
from .games import (
    CONSOLE_CHANNEL_ID,
    WATCH_CHANNEL_ID,
    Unfinished,
    console_games,
    console_records,
    free_channel,
    is_console_channel,
    launcher,
    resume_command,
    unfinished,
)
from .session import HOST_ID, Plan, Session
from .terminal import ask, interactive, open_viewer, say, yes_words
from .text import level_name, plain, status_word

__all__ = [
    "CONSOLE_CHANNEL_ID",
    "WATCH_CHANNEL_ID",
    "console_games",
    "is_console_channel",
    "main",
]

PACING = 0.7
"""Seconds before each computer move (0 with ``--fast``)."""
ANSWER_DELAY = (0.3, 1.2)
"""Computers' delay before answering a diplomacy window (EW-15)."""


class UsageError(ValueError):
    """Options that do not fit together; the message says why."""


class Quit(Exception):
    """The player quit before a game began."""


def variant_names() -> dict[str, str]:
    """Every way to name a registered game on the command line -> its registry name: the
    name itself, with hyphens, and its initials (``big_game``, ``big-game``,
    ``bg``)."""
    out: dict[str, str] = {}
    for name in contract.game_names():
        initials = "".join(part[:1] if part.isalpha() else part for part in name.split("_"))
        for key in (name, name.replace("_", "-"), initials):
            out.setdefault(key, name)
    return out


def default_variant() -> str:
    """The game played when none is named: the first one registered."""
    return contract.game_names()[0]


def titles() -> list[str]:
    """The registered games' titles, in registration order."""
    return [contract.game_named(n).presentation.title for n in contract.game_names()]


# ---------------------------------------------------------------------- the language
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment's locale variables, the one that decides messages' language first
(POSIX: the first one set wins, even ``C``)."""


def language(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of a run: ``--lang`` if given (checked later by the parser), else the
    environment's locale (:data:`LANGUAGE_VARIABLES`) if the product speaks it, else
    English."""
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang")
    with contextlib.suppress(argparse.ArgumentError):  # the parser says what is wrong
        given, _rest = early.parse_known_args(list(argv))
        if given.lang:
            return i18n.choose(given.lang)
    for name in LANGUAGE_VARIABLES:
        if environ.get(name):
            return i18n.choose(environ[name])
    return i18n.DEFAULT


# ---------------------------------------------------------------------- the plan
class _Formatter(argparse.HelpFormatter):
    """argparse's help with its usage line's word in the reader's language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, saying its errors in the reader's language (argparse's own
    account of what is wrong stays English)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(
            2, _("{program}: error: {message}").format(program=self.prog, message=message) + "\n"
        )


def whole_number(text: str) -> int:
    """An option's number, as typed.

    Raises:
        argparse.ArgumentTypeError: not a whole number.
    """
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value} is not a whole number").format(value=repr(text))
        ) from None


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m console`` / ``european-war`` (its help in the
    current language)."""
    p = _Parser(
        prog="european-war",
        description=_(
            "Play {games} in the terminal, against computer players or with friends at one "
            "keyboard. Same rules, storage and board images as the Discord bot."
        ).format(games=_(" or ").join(titles())),
        formatter_class=_Formatter,
        add_help=False,
    )
    o = p.add_argument_group(_("options"))
    o.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))
    names = [n.replace("_", "-") for n in contract.game_names()]
    o.add_argument(
        "--variant",
        help=_("{first} (default) or {others}").format(
            first=names[0], others=_(" or ").join(names[1:])
        ),
    )
    o.add_argument("--players", type=whole_number, help=_("seats at the table (2-5)"))
    o.add_argument("--computers", type=whole_number, help=_("how many of them are computers"))
    o.add_argument(
        "--level", help=_("computer level: easy, normal or hard (or one per computer: easy,hard)")
    )
    o.add_argument(
        "--hotseat", action="store_true", help=_("several people take turns at this keyboard")
    )
    o.add_argument("--name", help=_("your name (hot-seat: the names, comma separated)"))
    o.add_argument("--power", help=_("the power (or continent) you want, e.g. russia"))
    o.add_argument(
        "--seed", type=whole_number, help=_("deal and computer choices repeat for a seed")
    )
    o.add_argument(
        "--resume",
        nargs="?",
        type=whole_number,
        const=0,
        metavar="ID",
        help=_("continue unfinished console game ID (without ID: list them and choose)"),
    )
    o.add_argument(
        "--db",
        type=Path,
        help=_("the SQLite file (default: DATABASE_URL, i.e. data/european_war.db)"),
    )
    o.add_argument(
        "--out",
        type=Path,
        default=Path("data/boards"),
        help=_("where board images go (default data/boards)"),
    )
    boards = o.add_mutually_exclusive_group()
    boards.add_argument(
        "--boards",
        action="store_true",
        help=_("write board images (the default when you play; with --watch, one every turn)"),
    )
    boards.add_argument("--no-boards", action="store_true", help=_("write no board images"))
    o.add_argument(
        "--open", action="store_true", help=_("show each board image with the system viewer")
    )
    o.add_argument(
        "--watch",
        type=whole_number,
        metavar="N",
        help=_("computers play N games against each other (a smoke test)"),
    )
    o.add_argument("--fast", action="store_true", help=_("no pause before computer moves"))
    o.add_argument(
        "--replay",
        type=whole_number,
        metavar="ID",
        help=_(
            "print game ID of the database (finished or running, console or Discord) "
            "step by step as its channel saw it, and write its animation to --out "
            "(replay-ID.gif; not with --no-boards)"
        ),
    )
    o.add_argument(
        "--lang",
        choices=i18n.LOCALES,
        help=_(
            "the language to play in: {languages} (default: the environment's LC_ALL, "
            "LC_MESSAGES or LANG, else en)"
        ).format(languages=", ".join(f"{code} ({i18n.NAMES[code]})" for code in i18n.LOCALES)),
    )
    return p


GAME_FLAGS = ("variant", "players", "computers", "level", "hotseat", "name", "power", "seed")


def variant_of(text: str | None) -> str:
    """``european-war`` / ``world-war-5`` (and short forms) to the engine's id.

    Raises:
        UsageError: another name.
    """
    if text is None:
        return default_variant()
    found = variant_names().get(text.strip().lower())
    if found is None:
        known = _(" or ").join(n.replace("_", "-") for n in contract.game_names())
        raise UsageError(
            _("Unknown variant {name}: use {known}.").format(name=repr(text), known=known)
        )
    return found


def default_name() -> str:
    """The login name, capitalised, or ``Player`` (in the reader's language)."""
    with contextlib.suppress(Exception):
        name = getpass.getuser().strip()
        if name and name != "root":
            return name[:1].upper() + name[1:]
    return _("Player")


def player_name(number: int) -> str:
    """The name of the ``number``-th person at the keyboard who gave none."""
    return _("Player {number}").format(number=number)


def plan_from_args(args: argparse.Namespace) -> Plan:
    """The game the flags describe (defaults: you against two normal computers).

    Raises:
        UsageError: numbers that do not add up, an unknown level or variant.
    """
    variant = variant_of(args.variant)
    levels = [x.strip().lower() for x in (args.level or "normal").split(",") if x.strip()]
    for level in levels:
        if level not in COMPUTER_LEVELS:
            raise UsageError(
                _("Unknown level {level}: use easy, normal or hard.").format(level=repr(level))
            )
    names = [n.strip() for n in (args.name or "").split(",") if n.strip()]
    listed = len(levels) if args.level and "," in args.level else None
    if args.hotseat:
        computers = args.computers if args.computers is not None else (listed or 0)
        people = (args.players - computers) if args.players else max(2, len(names))
        if people < 1:
            raise UsageError(_("--players must leave a seat for at least one person."))
        names += [player_name(i) for i in range(len(names) + 1, people + 1)]
        names = names[:people]
    else:
        if args.computers is not None:
            computers = args.computers
            if args.players is not None and args.players != computers + 1:
                raise UsageError(
                    _(
                        "Without --hotseat you play alone against the computers, "
                        "so --players is --computers + 1 (or use --hotseat)."
                    )
                )
        elif args.players is not None:
            computers = args.players - 1
        else:
            computers = listed or 2
        names = names[:1] or [default_name()]
    if listed is not None and listed != computers:
        raise UsageError(
            n_(
                "--level lists {levels} levels for {n} computer.",
                "--level lists {levels} levels for {n} computers.",
                computers,
            ).format(levels=listed, n=computers)
        )
    levels = levels if listed is not None else levels[:1] * computers
    plan = Plan(
        variant,
        names,
        levels,
        args.seed if args.seed is not None else secrets.randbits(31),
        args.power,
    )
    check_plan(plan)
    return plan


def most_players(variant: str) -> int:
    """The most seats the game takes, with every option that may add seats set."""
    game = contract.game_named(variant)
    flags = {o.name: True for o in game.presentation.options() if o.kind == "flag"}
    return game.max_players(game.options_from_dict(flags))


def check_plan(plan: Plan) -> None:
    """Refuse a table the game cannot seat, and resolve the wanted side to its id.

    Raises:
        UsageError: too few or too many seats, an unknown side.
    """
    game = contract.game_named(plan.variant)
    words = game.presentation
    most = most_players(plan.variant)
    if not game.min_players <= plan.total <= most:
        raise UsageError(
            _("{game} is for {low} to {high} players (you asked for {total}).").format(
                game=words.title, low=game.min_players, high=most, total=plan.total
            )
        )
    if plan.power:
        found = words.find_side(plan.power)
        if found is None:
            sides = game.sides(game.options_from_dict({}))
            raise UsageError(
                _("Unknown {side_word} {name}; choose one of {sides}.").format(
                    side_word=words.side_word,
                    name=repr(plan.power),
                    sides=", ".join(words.side_name(s) for s in sides),
                )
            )
        plan.power = found


def plan_by_questions(args: argparse.Namespace) -> Plan:
    """Ask a newcomer what to play; Enter takes the suggested answer each time."""
    say(_("Let's set up a game (press Enter to take the answer in brackets)."))
    games = contract.game_names()
    offers = []
    for number, name in enumerate(games, start=1):
        words = contract.game_named(name).presentation
        reader = words.reader()
        tagline = f" ({reader.tagline})" if reader is not None and reader.tagline else ""
        offers.append(f"{number}) {words.title}{tagline}")
    v = ask(
        _("Which game? {offers}").format(offers="  ".join(offers)),
        "1",
        lambda a: a.isdigit() and 1 <= int(a) <= len(games),
    )
    variant = games[int(v) - 1]
    most = most_players(variant)
    who = ask(
        _("Who plays? 1) you against computers  2) several people at this keyboard"),
        "1",
        lambda a: a in ("1", "2"),
    )
    if who == "1":
        people = []
        high = min(4, most - 1)
        count = int(
            ask(
                _("How many computer players ({low}-{high})?").format(low=1, high=high),
                "2",
                lambda a: a.isdigit() and 1 <= int(a) <= high,
            )
        )
    else:
        n = int(
            ask(
                _("How many people ({low}-{high})?").format(low=2, high=most),
                "2",
                lambda a: a.isdigit() and 2 <= int(a) <= most,
            )
        )
        people = [
            ask(
                _("Name of player {number}?").format(number=i),
                player_name(i),
                lambda a: 0 < len(a) <= 40,
            )
            for i in range(1, n + 1)
        ]
        count = int(
            ask(
                _("And computer players ({low}-{high})?").format(low=0, high=most - n),
                "0",
                lambda a: a.isdigit() and 0 <= int(a) <= most - n,
            )
        )
    level = "normal"
    if count:
        levels = {name: name for name in COMPUTER_LEVELS}
        levels |= {level_name(name).lower(): name for name in COMPUTER_LEVELS}
        level = levels[
            ask(
                _("Computer level: easy, normal or hard?"),
                level_name("normal"),
                lambda a: a.lower() in levels,
            ).lower()
        ]
    if not people:
        people = [ask(_("Your name?"), default_name(), lambda a: 0 < len(a) <= 40)]
    plan = Plan(
        variant,
        people,
        [level] * count,
        args.seed if args.seed is not None else secrets.randbits(31),
        args.power,
    )
    check_plan(plan)
    return plan


def repeatable_chooser(inner: computer.Chooser, base: Callable[[], int]) -> computer.Chooser:
    """Wrap the service's chooser so a computer's seed comes from the game's seed and what
    it sees, not from the database's game id: with ``--seed`` a game repeats in any
    database, given the same moves at the keyboard."""

    def choose(game: str, view: Any, legal: Sequence[Any], level: str, seed: int) -> Any:
        digest = hashlib.blake2b(f"{base()}|{view!r}".encode(), digest_size=8).digest()
        return inner(game, view, legal, level, int.from_bytes(digest, "big"))

    return choose


# ---------------------------------------------------------------------- runs
async def show_replay(
    service: GameService, game_id: int, out_dir: Path | None, open_image: bool
) -> int:
    """``--replay ID``: print the game step by step as its channel saw it and write its
    animation (the one ``/replay`` posts, under Discord's limit) into ``out_dir``.
    Returns 0, or 1 when it cannot be replayed (the reason printed)."""
    try:
        replay = await service.replay(game_id)
    except ServiceError as exc:
        print(f"european-war: {exc}", file=sys.stderr)
        return 1
    for line in replay.text().splitlines():
        say(plain(line))
    if out_dir is None or images_for(replay.variant) is None:
        return 0
    frames = [Frame(s.view, s.events, s.title, s.caption) for s in replay.steps]
    animation = await asyncio.to_thread(animate, replay.variant, frames, replay.names)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"replay-{game_id}.gif"
    path.write_bytes(animation.data)
    if animation.sampled:
        say(
            _("Replay: {path} ({shown} of {steps} steps)").format(
                path=path, shown=animation.shown, steps=animation.steps
            )
        )
    else:
        say(_("Replay: {path}").format(path=path))
    if open_image and not open_viewer(path):
        say(_("(No image viewer found; open the file yourself.)"))
    return 0


def watch(session: Session, args: argparse.Namespace) -> int:
    """``--watch N``: computers play N games, printing every move (and with
    ``--boards`` writing the board every turn). Returns 0 when every game finished."""
    levels = [x.strip().lower() for x in (args.level or "normal").split(",") if x.strip()]
    count = args.players or args.computers or (len(levels) if len(levels) > 1 else 4)
    if len(levels) == 1:
        levels *= count
    variant = variant_of(args.variant)
    base = args.seed if args.seed is not None else secrets.randbits(31)
    finished = 0
    session.board_every_turn = True
    for i in range(args.watch):
        plan = Plan(variant, [], levels[:count], base + i)
        check_plan(plan)
        stale = session.run(session.service.store.active_game_in_channel(WATCH_CHANNEL_ID))
        if stale is not None:
            session.run(session.service.cancel(stale, HOST_ID))
        say(
            n_(
                "=== Game {number} of {games}: {game}, {n} computer ({levels}), seed {seed} ===",
                "=== Game {number} of {games}: {game}, {n} computers ({levels}), seed {seed} ===",
                count,
            ).format(
                number=i + 1,
                games=args.watch,
                game=contract.game_named(variant).presentation.title,
                n=count,
                levels=", ".join(level_name(level) for level in levels[:count]),
                seed=plan.seed,
            )
        )
        out = session.run(session.open_game(plan, WATCH_CHANNEL_ID))
        if not out.ok:
            say(f"✗ {out.error}")
            return 1
        session.run(session.adopt(session.game_id))
        session.show(out)
        st = session.run(session.settle())
        if st.status == "running":
            say(_("Game #{id} stopped moving; it is left unfinished.").format(id=session.game_id))
            continue
        session.finish(st)
        finished += st.status == "finished"
    say(
        n_(
            "Watched {n} game(s); {finished} finished.",
            "Watched {n} game(s); {finished} finished.",
            args.watch,
        ).format(n=args.watch, finished=finished)
    )
    return 0 if finished == args.watch else 1


def start_or_resume(session: Session, args: argparse.Namespace) -> int | None:
    """Find or open the game to play; None when there is nothing to play (an error
    was printed), else the game id.

    ``--resume ID`` takes that game; ``--resume`` lists the unfinished console games and
    asks which (one answers itself); without it, flags describe a new game and no flags
    offer the unfinished ones first. Other unfinished games stay as they are."""
    service = session.service
    records = session.run(console_records(service.store))
    for rec in [r for r in records if r.status == "lobby"]:  # left half-opened by a crash
        session.run(service.cancel(rec.id, HOST_ID))
    records = [r for r in records if r.status != "lobby"]
    waiting = session.run(unfinished(service.store, records))
    flags = any(getattr(args, f) not in (None, False) for f in GAME_FLAGS)
    chosen: int | None = None
    if args.resume:
        if args.resume not in {u.game_id for u in waiting}:
            say(session.run(not_resumable(session, args.resume, [u.game_id for u in waiting])))
            return None
        chosen = args.resume
    elif args.resume is not None:
        if not waiting:
            say(_("There is no unfinished console game to resume; start one without --resume."))
            return None
        chosen = choose_game(waiting, offer_new=False)
    elif waiting and not flags:
        chosen = choose_game(waiting, offer_new=True)
    elif waiting:
        ids = ", ".join(f"#{u.game_id}" for u in waiting)
        say(
            _(
                "(Your unfinished console games stay as they are: {ids}; --resume lists them.)"
            ).format(ids=ids)
        )
    if chosen is not None:
        return resume(session, chosen)
    plan = plan_by_questions(args) if not flags and interactive() else plan_from_args(args)
    out = session.run(session.open_game(plan, free_channel(records)))
    if not out.ok:
        say(f"✗ {out.error}")
        return None
    session.run(session.adopt(session.game_id))
    say(
        _("Game #{id}: {game}, seed {seed}. Type help for the commands.").format(
            id=session.game_id,
            game=contract.game_named(plan.variant).presentation.title,
            seed=plan.seed,
        )
    )
    session.show(out)
    return session.game_id


def choose_game(waiting: list[Unfinished], offer_new: bool) -> int | None:
    """List the unfinished games and ask which to resume (the most recently played by
    default; one alone, asked for by ``--resume``, answers itself). With ``offer_new``,
    ``new`` (or no) starts a new game instead: returns None."""
    latest = waiting[0].game_id
    if len(waiting) == 1 and not offer_new:
        say(_("Your unfinished console game: {game}").format(game=waiting[0].line()))
        return latest
    say(
        _("Your unfinished console games:")
        if len(waiting) > 1
        else _("Your unfinished console game:")
    )
    for game in waiting:
        say(f"  {game.line()}")
    ids = {str(u.game_id) for u in waiting}
    question = (
        _("Resume which game (its number), or new for a new game?")
        if offer_new
        else _("Resume which game (its number)?")
    )
    yes = yes_words()
    words = (p_("answer", "new"), p_("answer", "n"), p_("answer", "no"))
    new = {"new", "n", "no"} | {word.lower() for word in words}
    leave = {"quit", "q", "exit"}

    def valid(answer: str) -> bool:
        a = answer.strip().lower().lstrip("#")
        return a in ids or a in yes or a in leave or (offer_new and a in new)

    answer = ask(question, str(latest), valid).strip().lower().lstrip("#")
    if answer in leave:
        raise Quit
    if answer in new:
        return None
    return latest if answer in yes else int(answer)


async def not_resumable(session: Session, game_id: int, waiting: list[int]) -> str:
    """Why ``--resume game_id`` cannot resume it, and what can be resumed."""
    rec = await session.service.store.load_game(game_id)
    db = session.database
    if rec is None:
        why = _("There is no game #{id} in {database}.").format(id=game_id, database=db)
    elif not console_games(rec.guild_id, rec.channel_id):
        why = _("Game #{id} is a Discord game: it is played in its channel, not here.").format(
            id=game_id
        )
    elif rec.channel_id == WATCH_CHANNEL_ID:
        why = _("Game #{id} was a --watch game of computers; nobody resumes it.").format(id=game_id)
    else:
        why = _("Game #{id} is {status}: there is nothing left to play.").format(
            id=game_id, status=status_word(rec.status)
        )
    if waiting:
        ids = ", ".join(f"#{g}" for g in sorted(waiting))
        return _("{why} Unfinished console games: {ids} (--resume alone lists them).").format(
            why=why, ids=ids
        )
    return _("{why} There is no unfinished console game; start one without --resume.").format(
        why=why
    )


def resume(session: Session, game_id: int) -> int:
    """Take over ``game_id`` and show where it stands."""
    st = session.run(session.adopt(game_id))
    say(
        _("Resuming game #{id} ({game}): {seats}.").format(
            id=game_id,
            game=contract.game_named(st.variant).presentation.title,
            seats=", ".join(s.name for s in session.seats),
        )
    )
    viewer = session.holder or min(session.humans or {HOST_ID: ""})
    for line in session.run(session.service.log(game_id, 6, viewer)):
        say(plain(line))
    session.board_dirty = True
    return game_id


def main(argv: list[str] | None = None) -> int:
    """Run the console (``python -m console``, ``european-war``) in its language
    (:func:`language`). Returns the exit status: 0 after a finished or saved game, 1 when
    there was nothing to play, 2 for bad options."""
    argv = sys.argv[1:] if argv is None else argv
    with i18n.use(language(argv, os.environ)):
        return run(argv)


def run(argv: list[str]) -> int:
    """The console's run, in the language set around it (see :func:`main`)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        db = args.db or database_path()
        if args.watch is not None and args.watch < 1:
            raise UsageError(_("--watch needs a number of games, at least 1."))
        if (
            not args.watch
            and args.resume is None
            and any(getattr(args, f) not in (None, False) for f in GAME_FLAGS)
        ):
            plan_from_args(args)  # check the flags before touching the database
    except (ConfigError, UsageError) as exc:
        print(f"european-war: {exc}", file=sys.stderr)
        return 2
    launch = launcher()
    out_dir = None if args.no_boards or (args.watch and not args.boards) else args.out
    if args.replay is not None:
        return replay_main(db, args.replay, out_dir, args.open)

    def hint(game_id: int) -> str:
        return resume_command(game_id, Path(db), out_dir, launch)

    with asyncio.Runner() as runner:
        try:
            store = runner.run(open_store(db))
        except Exception as exc:  # a path we cannot write, a newer schema, a broken file
            why = _("cannot open the game database {database}: {error}")
            print(f"european-war: {why.format(database=db, error=exc)}", file=sys.stderr)
            return 2
        service = GameService(
            store,
            hosts=console_games,
            computer_pacing=0 if args.fast else PACING,
            computer_answer_delay=(0.0, 0.0) if args.fast else ANSWER_DELAY,
        )
        session = Session(
            runner,
            service,
            out_dir,
            open_images=args.open,
            resume_hint=hint,
            database=str(db),
        )
        service.chooser = repeatable_chooser(service.chooser, lambda: session.seed)
        service.add_listener(session.listen)
        try:
            if args.watch:
                return watch(session, args)
            gid = start_or_resume(session, args)
            if gid is None:
                return 1
            session.install_completion()
            return session.play()
        except KeyboardInterrupt:
            if session.game_id and not args.watch:
                say(
                    "\n"
                    + _("Stopped. Continue with: {command}").format(command=hint(session.game_id))
                )
            else:
                say("\n" + _("Stopped."))
            return 130
        except EOFError:
            say(_("(The input ended before a game began.)"))
            return 1
        except Quit:
            return 0
        except UsageError as exc:
            print(f"european-war: {exc}", file=sys.stderr)
            return 2
        finally:
            runner.run(service.close())


def replay_main(db: Path, game_id: int, out_dir: Path | None, open_image: bool) -> int:
    """``--replay ID`` on the database ``db`` (nothing in it changes)."""

    if not db.is_file():
        why = _("there is no game database {database}").format(database=db)
        print(f"european-war: {why}", file=sys.stderr)
        return 2

    async def run() -> int:
        try:
            store = await open_store(db)
        except Exception as exc:  # a path we cannot read, a newer schema, a broken file
            why = _("cannot open the game database {database}: {error}")
            print(f"european-war: {why.format(database=db, error=exc)}", file=sys.stderr)
            return 2
        service = GameService(store, hosts=console_games)
        try:
            return await show_replay(service, game_id, out_dir, open_image)
        finally:
            await service.close()

    return asyncio.run(run())


if __name__ == "__main__":
    raise SystemExit(main())
