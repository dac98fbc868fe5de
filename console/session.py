"""The console's session: one game at one keyboard over the game service.

The service's event loop rests while the terminal is read (nothing moves while you
think) and runs between your lines until the computers are done; every computer move is
printed as it comes. Hot-seat play hides private lines until their owner is at the
keyboard.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import rules
from render import images_for
from rules import contract, i18n
from service import GameService, GameStatus, Outcome, Prompt, ServiceError, rulebook
from service.models import GameSettings
from service.store import NewSeat

from .catalogue import _
from .commands import commands_of
from .parse import (
    Command,
    Context,
    ParseError,
    command_words,
    completions,
    parse,
    reader_of,
    slug,
)
from .terminal import confirm, interactive, open_viewer, read_line, say
from .text import help_text, numbered, plain, result_text, status_word, turn_hint

T = TypeVar("T")

log = logging.getLogger("console")

HOST_ID = 1
"""The pseudo user id of the console's first person (the host); others are 2, 3, …"""
STUCK_AFTER = 60.0
"""Seconds without any move after which the console stops waiting for computers."""


@dataclass
class Plan:
    """Who plays what: the game the console is about to open."""

    variant: str
    humans: list[str]
    levels: list[str]
    seed: int
    power: str | None = None

    @property
    def total(self) -> int:
        """Number of seats."""
        return len(self.humans) + len(self.levels)


@dataclass
class Seat:
    """A seat as the console shows it."""

    name: str
    power: str
    user_id: int | None


@dataclass
class Session:
    """One console run: the service, the game at this keyboard and what is on screen."""

    runner: asyncio.Runner
    service: GameService
    out_dir: Path | None
    open_images: bool = False
    resume_hint: Callable[[int], str] = lambda game_id: f"european-war --resume {game_id}"
    """The shell command that resumes a game (by id), printed when the player quits."""
    database: str = ""
    """Where the games are kept (for messages)."""
    game_id: int = 0
    seed: int = 0
    humans: dict[int, str] = field(default_factory=dict)
    """user id -> name of the people at this keyboard."""
    seats: list[Seat] = field(default_factory=list)
    variant: str = ""
    """The registry name of the game at this keyboard (set by :meth:`adopt`)."""
    holder: int | None = None
    """The person at the keyboard now (hot-seat: whose turn it is to look)."""
    pending: deque[Outcome] = field(default_factory=deque)
    unseen: dict[int, list[str]] = field(default_factory=dict)
    hand_dirty: set[int] = field(default_factory=set)
    board_dirty: bool = False
    board_events: list[rules.Event] = field(default_factory=list)
    board_every_turn: bool = False
    """Write a board at every turn (``--watch``), not only before a person's turn."""
    shown: tuple[Any, ...] | None = None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    # ------------------------------------------------------------------ plumbing
    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run one coroutine on the session's event loop (which rests in between)."""
        return self.runner.run(coro)

    async def listen(self, outcome: Outcome) -> None:
        """Service listener: computer moves and timeouts of our game, queued in order."""
        if outcome.game_id == self.game_id:
            self.pending.append(outcome)
            self.arrived.set()

    @property
    def names(self) -> list[str]:
        """Display names by engine seat."""
        return [s.name for s in self.seats]

    @property
    def hotseat(self) -> bool:
        """True when several people share this keyboard."""
        return len(self.humans) > 1

    # ------------------------------------------------------------------ opening
    async def open_game(self, plan: Plan, channel_id: int) -> Outcome:
        """Open a table in ``channel_id`` through the store (a console game has no time
        limits, which the service's lobby cannot set), seat everyone through the service
        and start. Returns the start outcome (refused with the reason on failure). The
        game speaks the console's language now."""
        store = self.service.store
        game = contract.game_named(plan.variant)
        offered = {o.name for o in game.presentation.options()}
        wanted = {"five_players": plan.total > 4, "diplomacy_seconds": 600 if plan.humans else 30}
        options = game.options_from_dict({k: v for k, v in wanted.items() if k in offered})
        limits = {t.limit for t in game.timings.values() if t.limit != "turn" and not t.option}
        settings = GameSettings(
            language=i18n.current(),
            max_players=plan.total,
            options=game.options_to_dict(options),
            turn_timeout=None,
            timeouts=dict.fromkeys(limits),
            reminder_lead=0,
        )
        settings.check(plan.variant)
        now = time.time()
        host = NewSeat(HOST_ID, None, plan.humans[0], plan.power, now) if plan.humans else None
        gid = await store.create_lobby(
            guild_id=None,
            channel_id=channel_id,
            host_id=HOST_ID,
            variant=plan.variant,
            settings=settings,
            host_seat=host,
            expiry=None,
            max_games=None,
            now=now,
        )
        for i, name in enumerate(plan.humans[1:], start=HOST_ID + 1):
            out = await self.service.join(gid, i, name)
            if not out.ok:
                return out
        for level in plan.levels:
            out = await self.service.add_computer(gid, HOST_ID, level)
            if not out.ok:
                return out
        self.game_id, self.seed = gid, plan.seed
        return await self.service.start_game(gid, HOST_ID, seed=plan.seed)

    async def adopt(self, game_id: int) -> GameStatus:
        """Take over ``game_id`` (new or resumed): its seats, people and seed; a resumed
        game's computers carry on where they were stopped. What its people read alone is
        written in the console's language from now on (what the table shows stays in the
        game's, fixed when it opened)."""
        self.game_id = game_id
        await self.service.load(game_id)
        st = await self.service.status(game_id)
        rec = await self.service.store.load_game(game_id)
        if rec is not None and rec.creation:
            self.seed = int(rec.creation.get("seed", 0))
        self.variant = st.variant
        self.refresh(st)
        self.humans = {s.user_id: s.name for s in st.seats if s.user_id is not None}
        for user_id in self.humans:  # what each reads alone: the console's language
            self.service.note_locale(user_id, i18n.current())
        return st

    def refresh(self, st: GameStatus) -> None:
        """Seats and names from a status (they change when someone resigns)."""
        seats = sorted(st.seats, key=lambda s: s.seat if s.seat is not None else 99)
        self.seats = [Seat(s.name, s.power or "", s.user_id) for s in seats]
        self.humans = {
            s.user_id: s.name for s in seats if s.user_id is not None and s.user_id in self.humans
        }

    # ------------------------------------------------------------------ output
    def show(self, outcome: Outcome) -> None:
        """Print an outcome: public lines, then what the person at the keyboard may see."""
        for line in outcome.public_lines:
            say(plain(line))
        for uid, note in outcome.private.items():
            if uid not in self.humans:
                continue
            self.unseen.setdefault(uid, []).extend(note.lines)
            if note.hand_changed:
                self.hand_dirty.add(uid)
        self.release_private()
        if outcome.board_due:
            self.board_dirty = True
            self.board_events = list(outcome.board_events)
            if (
                self.board_every_turn
                and outcome.spectator_view is not None
                and any(e.kind == "turn_start" for e in outcome.events)
            ):
                self.write_board(outcome.spectator_view, f"{outcome.version:04d}")

    def release_private(self) -> None:
        """Print private lines for whoever may read them now (one person: always;
        hot-seat: only the person at the keyboard)."""
        for uid in list(self.unseen):
            if self.hotseat and uid != self.holder:
                continue
            for line in self.unseen.pop(uid):
                if self.hotseat:
                    shown = _("  (only {name}) {line}")
                    say(shown.format(name=self.humans.get(uid, "?"), line=plain(line)))
                else:
                    say(_("  (only you) {line}").format(line=plain(line)))

    def flush(self) -> None:
        """Print every queued computer move or timeout."""
        while self.pending:
            self.show(self.pending.popleft())

    def write_board(self, view: Any, tag: str) -> Path | None:
        """Write the board image (``game<id>-<tag>.png`` and ``game<id>-latest.png``),
        print its path and show it when ``--open`` asked for that."""
        if self.out_dir is None or view is None:
            return None
        images = images_for(self.variant)
        if images is None:  # a game without images: words only
            self.board_dirty = False
            return None
        events, self.board_events, self.board_dirty = self.board_events, [], False
        try:
            data = images.board(view, self.names, events)
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / f"game{self.game_id}-{tag}.png"
            path.write_bytes(data)
            (self.out_dir / f"game{self.game_id}-latest.png").write_bytes(data)
        except Exception as exc:  # an image must never stop a game
            log.exception("board image failed")
            say(
                _(
                    "(The board image could not be written: {error}. `board` shows it as text.)"
                ).format(error=exc)
            )
            return None
        say(_("Board: {path}").format(path=path))
        if self.open_images and not open_viewer(path):
            self.open_images = False
            say(_("(No image viewer found; open the file yourself.)"))
        return path

    # ------------------------------------------------------------------ waiting
    async def settle(self) -> GameStatus:
        """Let the computers play (printing each move as it comes) until a person here
        must decide, the game ends, or nothing happens for :data:`STUCK_AFTER`."""
        gid = self.game_id
        while True:
            self.arrived.clear()
            self.flush()
            idle = asyncio.ensure_future(self.service.idle(gid))
            news = asyncio.ensure_future(self.arrived.wait())
            done, _pending = await asyncio.wait(
                {idle, news}, timeout=STUCK_AFTER, return_when=asyncio.FIRST_COMPLETED
            )
            idle.cancel()
            news.cancel()
            if not done:
                return await self.service.status(gid)
            if idle not in done:
                continue
            self.flush()
            st = await self.service.status(gid)
            self.refresh(st)
            if st.status != "running" or any(d.user_id in self.humans for d in st.decisions):
                return st
            # quiet, but computers still have answers timed ahead (EW-15): wait for them
            try:
                await asyncio.wait_for(self.arrived.wait(), STUCK_AFTER)
            except TimeoutError:
                return st

    async def next_prompt(self) -> Prompt | None:
        """The open question for a person here: the keyboard holder's first."""
        prompts = [p for p in await self.service.prompts(self.game_id) if p.user_id in self.humans]
        prompts.sort(key=lambda p: (p.user_id != self.holder, p.seat, p.kind))
        return prompts[0] if prompts else None

    # ------------------------------------------------------------------ playing
    def play(self) -> int:
        """The read-act-print loop until the game ends or the player quits. Returns the
        exit status (0)."""
        while True:
            st = self.run(self.settle())
            if st.status != "running":
                return self.finish(st)
            if self.board_dirty:
                self.write_board(st.view, f"{st.version:04d}")
            if not self.humans:
                say(_("Nobody at this keyboard plays any more; the computers finish the game."))
                self.service.computer_pacing = 0
                self.service.computer_answer_delay = (0.0, 0.0)
                continue
            prompt = self.run(self.next_prompt())
            user = prompt.user_id if prompt is not None else (self.holder or min(self.humans))
            assert user is not None
            try:
                if self.hotseat and user != self.holder and not self.pass_keyboard(user):
                    continue  # the one who just moved took it back
                self.holder = user
                if prompt is None:
                    waiting = ", ".join(sorted({d.name for d in st.decisions}))
                    say(
                        _("Waiting for {names}. Press Enter to look again, or quit.").format(
                            names=waiting
                        )
                        if waiting
                        else _("Waiting for nobody. Press Enter to look again, or quit.")
                    )
                elif len(prompt.choices) == 1 and self.answer_alone(prompt, user):
                    continue
                elif self.shown != (prompt.version, prompt.seat, prompt.kind):
                    self.show_prompt(prompt)
                line = read_line(f"{self.humans[user]}> ")
            except (EOFError, KeyboardInterrupt):
                line = "quit"
                say()
            if self.handle(line, user, prompt) == "quit":
                say(
                    _("Game #{id} is saved. Continue it with: {command}").format(
                        id=self.game_id, command=self.resume_hint(self.game_id)
                    )
                )
                return 0

    def answer_alone(self, prompt: Prompt, user: int) -> bool:
        """A question with one answer answers itself, saying what it chose. Returns
        whether it was answered (if refused, the player is asked after all)."""
        self.show_prompt(prompt, choices=False)
        say(_("Only one answer is possible: {answer}.").format(answer=prompt.labels[0]))
        out = self.run(
            self.service.act(self.game_id, user, prompt.choices[0], version=prompt.version)
        )
        self.report(out)
        if not out.ok:
            self.shown = None
        return out.ok

    def pass_keyboard(self, user: int) -> bool:
        """Hot-seat: hide the screen and wait until only ``user`` is looking. The one
        who holds it may type ``undo`` instead, to take their move back: False then (the
        keyboard stays; whether the undo was refused or not, the caller looks again)."""
        if interactive():
            sys.stdout.write("\033[2J\033[H")
        else:
            say("-" * 60)
        name = self.humans[user]
        line = read_line(
            _("Pass the keyboard to {name}. Press Enter when only {name} is looking.").format(
                name=name
            )
            + " "
        )
        last = self.holder
        if last is not None and command_words().get(line.strip().lower()) == "undo":
            self.report(self.run(self.service.undo(self.game_id, last)))
            return False
        self.holder = user
        self.shown = None
        self.hand_dirty.add(user)
        self.release_private()
        return True

    def show_prompt(self, prompt: Prompt, choices: bool = True) -> None:
        """The question, the hand, and (unless not ``choices``) the numbered choices or,
        on a turn, a hint of what it allows."""
        self.shown = (prompt.version, prompt.seat, prompt.kind)
        uv = self.run(self.service.view(self.game_id, prompt.user_id))
        view = uv.view
        game = contract.game_named(self.variant)
        words = game.presentation
        reader = words.reader()
        if reader is None:
            say(plain(prompt.text))
            for line in words.private_lines(view, self.names):
                say(plain(line))
        else:
            due = prompt.user_id in self.hand_dirty
            lines = reader.prompt_lines(
                prompt.kind, prompt.text, view, self.names, prompt.seat, due
            )
            for line in lines:
                say(plain(line))
        self.hand_dirty.discard(prompt.user_id or 0)
        if not choices:
            return
        if prompt.kind not in words.panel_decisions():
            say(turn_hint(prompt, game))
            return
        for line in numbered(prompt.labels, self.numbers(prompt, view)):
            say(line)
        if reader is None:
            say(_("Answer with a number (help lists the commands)."))
        else:
            say(_("Answer with a number or the command words (help lists them)."))

    def numbers(self, prompt: Prompt, view: Any) -> list[int]:
        """The number each of ``prompt``'s choices is picked by: the game's, which keep
        an answer's number in every prompt of one decision (its reader's), else 1, 2, …"""
        reader = contract.game_named(self.variant).presentation.reader()
        if reader is None:
            return list(range(1, len(prompt.choices) + 1))
        return reader.numbers(prompt.kind, view, prompt.choices)

    def context(self, user: int, prompt: Prompt | None) -> Context:
        """What the parser may know for ``user``."""
        uv = self.run(self.service.view(self.game_id, user))
        return Context(
            board=None,
            variant=self.variant,
            names=self.names,
            powers=[s.power for s in self.seats],
            seat=uv.seat,
            hand=getattr(uv.view, "hand", None) or (),
            prompt_kind=prompt.kind if prompt else None,
            choices=prompt.choices if prompt else (),
            view=uv.view,
            numbers=self.numbers(prompt, uv.view) if prompt else (),
        )

    def handle(self, line: str, user: int, prompt: Prompt | None) -> str:
        """Carry out one typed line. Returns ``quit`` to end the session, else ``""``."""
        ctx = self.context(user, prompt)
        try:
            cmd = parse(line, ctx)
        except ParseError as exc:
            say(f"✗ {exc}")
            return ""
        if cmd.action is not None:
            return self.act(cmd, user, prompt, ctx)
        if cmd.options is not None:
            return self.command(cmd.name, cmd.options, user)
        return self.query(cmd, user, prompt, ctx)

    def command(self, name: str, options: Mapping[str, str], user: int) -> str:
        """A turn command read from its game's spec: the service reads the options and
        acts; print the refusal or what happened. A look-up prints what it shows (its
        image written as a PNG)."""
        spec = commands_of(contract.game_named(self.variant)).get(name)
        if spec is not None and spec.lookup:
            return self.look_up(name, options, user)
        out = self.run(self.service.command(self.game_id, user, name, options))
        if not out.ok:
            say(f"✗ {plain(out.error or _('Refused.'))}")
            return ""
        self.show(out)
        return ""

    def look_up(self, name: str, options: Mapping[str, str], user: int) -> str:
        """Print what look-up ``name`` shows ``user``; write its image, if any."""
        try:
            looked = self.run(self.service.look_up(self.game_id, user, name, options))
        except ServiceError as exc:
            say(f"✗ {plain(str(exc))}")
            return ""
        for line in looked.shown.lines:
            say(plain(line))
        image = looked.shown.image
        images = images_for(self.variant)
        if image is None or images is None or self.out_dir is None:
            return ""
        data = images.extra(image, looked.view, list(looked.names))
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"game{self.game_id}-{image}.png"
        path.write_bytes(data)
        say(_("Image: {path}").format(path=path))
        if self.open_images and not open_viewer(path):
            self.open_images = False
        return ""

    def act(self, cmd: Command, user: int, prompt: Prompt | None, ctx: Context) -> str:
        """Send a game action; print the refusal or what happened."""
        action = cmd.action
        assert action is not None
        question = self.regret(action, ctx)
        if question is not None and not confirm(question):
            say(_("Nothing done."))
            return ""
        reader = reader_of(self.variant)
        note = reader.note(action, ctx) if reader is not None else None
        if note:
            say(f"({note})")
        version = prompt.version if prompt is not None and action in prompt.choices else None
        out = self.run(self.service.act(self.game_id, user, action, version=version))
        if not out.ok:
            say(f"✗ {plain(out.error or _('Refused.'))}")
            return ""
        self.show(out)
        return ""

    def regret(self, action: Any, ctx: Context) -> str | None:
        """The game's question before an action the player may regret, if any."""
        reader = reader_of(self.variant)
        if ctx.seat is None or reader is None:
            return None
        st = self.run(self.service.status(self.game_id))
        return reader.confirm(action, st.view, ctx.seat)

    def query(self, cmd: Command, user: int, prompt: Prompt | None, ctx: Context) -> str:
        """Console commands that are not game actions."""
        gid = self.game_id
        name = cmd.name
        if name == "":
            self.shown = None
        elif name == "help":
            say(help_text(self.variant))
        elif name == "choices":
            if prompt is None:
                say(_("You have no open question right now."))
            else:
                say("\n".join(numbered(prompt.labels, ctx.numbers)))
        elif name == "hand":
            self.show_hand(user, ctx)
        elif name == "hint":
            try:
                advice = self.run(self.service.hint(gid, user))
            except ServiceError as exc:
                say(f"✗ {exc}")
            else:
                say("\n".join(plain(line) for line in advice.lines()))
        elif name == "board":
            st = self.run(self.service.status(gid))
            reader = reader_of(self.variant)
            if st.view is not None and reader is None:
                words = contract.game_named(self.variant).presentation
                for line in words.summary_lines(st.view, self.names):
                    say(plain(line))
            elif st.view is not None and reader is not None:
                say("\n".join(reader.board_lines(st.view, self.names)))
            if st.view is not None and images_for(self.variant) is not None:
                self.board_dirty = True
                self.write_board(st.view, f"{st.version:04d}")
        elif name == "status":
            st = self.run(self.service.status(gid))
            say("\n".join(plain(line) for line in st.lines))
        elif name == "log":
            count = int(cmd.arg) if cmd.arg.strip().isdigit() else 10
            for line in self.run(self.service.log(gid, count, user)):
                say(plain(line))
        elif name == "rules":
            say(plain(rulebook.lookup(cmd.arg.strip() or None, self.variant)))
        elif name == "draw":
            question = self.draw_question(gid, user)
            if question is None or confirm(question):
                self.report(self.run(self.service.agree_draw(gid, user)))
        elif name == "undo":
            self.report(self.run(self.service.undo(gid, user)))
        elif name == "resign":
            if confirm(_("Resign and hand your seat to a computer for the rest of the game?")):
                out = self.run(self.service.resign(gid, user))
                self.report(out)
                if out.ok:
                    self.humans.pop(user, None)
                    self.holder = None
        elif name == "quit":
            return "quit"
        return ""

    def draw_question(self, gid: int, user: int) -> str | None:
        """What ``draw`` asks before ``user``'s vote counts (None: the service refuses it
        and says why). Computer players are never asked: alone with them, the vote ends
        the game at once."""
        st = self.run(self.service.status(gid))
        people = [s for s in st.seats if s.user_id is not None and s.seat is not None]
        game = contract.game_named(st.variant)
        if st.status != "running" or game.agreed_draw() is None:
            return None
        if not any(s.user_id == user for s in people):
            return None
        yes = sum(1 for s in people if s.agrees_draw and s.user_id != user)
        if yes == len(people) - 1 and len(people) == 1:
            return _("End the game in a draw now (computer players are not asked)?")
        if yes == len(people) - 1:
            return _("End the game in a draw now?")
        return _(
            "Agree to a draw? The game ends so once every person at the table agrees "
            "({agreed} of {people} so far)."
        ).format(agreed=yes, people=len(people))

    def report(self, out: Outcome) -> None:
        """Print an outcome, or its refusal."""
        if out.ok:
            self.show(out)
        else:
            say(f"✗ {plain(out.error or _('Refused.'))}")

    def show_hand(self, user: int, ctx: Context) -> None:
        """``hand``: the cards in words, what espionage showed, and the hand image."""
        uv = self.run(self.service.view(self.game_id, user))
        reader = reader_of(self.variant)
        if reader is None:
            words = contract.game_named(self.variant).presentation
            lines = words.private_lines(uv.view, self.names)
            say("\n".join(plain(line) for line in lines) or _("You hold nothing secret."))
        else:
            say("\n".join(reader.hand_lines(uv.view, self.names)))
        images = images_for(self.variant)
        holding = images.holding(uv.view) if images is not None else None
        if self.out_dir is None or images is None or not holding:
            return
        path = self.out_dir / f"game{self.game_id}-hand-{slug(self.humans.get(user, 'you'))}.png"
        try:
            title = _("{name}'s hand").format(name=self.humans.get(user, ""))
            data = images.private(holding, title=title)
            if data is None:  # the game shows it in words only
                return
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except Exception:  # an image must never stop a game
            log.exception("hand image failed")
            return
        say(_("Hand image: {path}").format(path=path))

    def finish(self, st: GameStatus) -> int:
        """The game is over: say how it ended, leave the last board."""
        if st.view is not None and self.board_dirty:
            self.write_board(st.view, "final")
        if st.status == "finished":
            say(
                _("Game #{id} is over. {result}").format(
                    id=self.game_id, result=result_text(st.result, self.names)
                )
            )
        else:
            say(_("Game #{id} is {status}.").format(id=self.game_id, status=status_word(st.status)))
        return 0

    # ------------------------------------------------------------------ completion
    def install_completion(self) -> None:
        """Tab completion of commands, fields, players and cards (when readline exists
        and a person types at a terminal)."""
        if not interactive():
            return
        try:
            import readline
        except ImportError:
            return

        def complete(text: str, state: int) -> str | None:
            try:
                user = self.holder or min(self.humans or {HOST_ID: ""})
                ctx = self.context(user, None)
                options = completions(
                    readline.get_line_buffer()[: readline.get_endidx()], text, ctx
                )
            except Exception:
                return None
            return options[state] if state < len(options) else None

        readline.set_completer_delims(" \t\n")
        readline.set_completer(complete)
        doc = getattr(readline, "__doc__", "") or ""
        readline.parse_and_bind("bind ^I rl_complete" if "libedit" in doc else "tab: complete")
