"""``python -m bot``: run the Discord bot, or offer the terminal console without a token.

Stopping: SIGTERM (``docker stop``) or SIGINT (Ctrl+C) at any moment, start-up included,
cancels what the bot is doing and closes it (queued writes committed, messages in flight
given a bounded time, see :meth:`bot.client.GameBot.close`); the process exits 0 within
about 2 s. Whatever is stuck, the process ends :data:`STOP_DEADLINE` seconds after the
signal: it logs the tasks still running (where each waits, one line each) and exits 0
anyway — what the bot owes is already in the database (owed announcements, the outbox),
and a write not yet committed was never confirmed to anyone. A second signal exits at
once (128 + the signal's number).

Exit codes: 0 stopped, 1 Discord refused the token, 2 a malformed setting, 78 (EX_CONFIG)
no token and no terminal to offer the console on.
"""

from __future__ import annotations

import os
import signal
import sys


def _stop_before_start(signum: int, frame: object) -> None:
    """A stop before the event loop runs: nothing is open yet, so exit 0 at once. Not by
    raising SystemExit: an exception from a signal handler is lost when the signal lands
    while a finalizer runs (``Exception ignored in ...``), and start-up would go on."""
    os._exit(0)


if __name__ == "__main__":  # from the first moment: importing discord.py takes a while
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, _stop_before_start)

import asyncio
import contextlib
import logging
import threading
import time
import traceback
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

from service.config import ConfigError

from . import logs
from .config import Settings, load_settings

EX_CONFIG = 78
NO_TOKEN = (
    "No DISCORD_TOKEN is set (in the environment or in .env), so the Discord bot cannot start."
)
NO_TOKEN_NO_TERMINAL = (
    "No DISCORD_TOKEN is set (in the environment or in .env) and there "
    "is no terminal for the console: set DISCORD_TOKEN to run the bot."
)
CONSOLE_HINT = "To play in this terminal against computer players, run: python -m console"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
STOP_DEADLINE = 1.8
"""Seconds from the first stop signal to the end of the process, whatever is stuck (the
bot's own close takes ~1.4 s at most, see :data:`bot.client.CLOSE_BUDGET`)."""
UNWIND = 0.3
"""Seconds a stop insists on cancelling the start-up or the gateway loop before the bot
closes anyway (which ends the gateway loop too)."""

log = logging.getLogger("bot")


def configure_logging(level: str, fmt: str = "text") -> None:
    """Log to stderr at ``level`` in ``fmt`` (see :mod:`bot.logs`)."""
    logs.configure(level, fmt)
    # the bot has no voice features: discord.py's start-up warnings about them are noise
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


def offer_console() -> int:
    """Without a token: offer the console when someone is at the terminal; without a
    terminal (a container, a service manager) say so in one line and fail."""
    if not sys.stdin.isatty():
        print(NO_TOKEN_NO_TERMINAL, file=sys.stderr)
        return EX_CONFIG
    print(NO_TOKEN)
    try:
        answer = input("Play a game in this terminal instead? [Y/n] ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        print()
        return 0
    if answer not in ("", "y", "yes"):
        print(CONSOLE_HINT)
        return 0
    try:  # the one import of the console (tests/test_layers.py): only without a token
        from console.main import main as play_in_terminal
    except ImportError:
        print("The terminal console is not available in this installation.")
        return 1
    return int(play_in_terminal([]) or 0)


async def run(settings: Settings) -> None:
    """Run the bot until it is stopped. What it runs on is opened here and handed to it
    (:mod:`bot.resources`: the store, checked (and an SQLite file owned) before Discord is
    contacted, the service, the images, the metrics, the leases), and closed after it, in
    reverse."""
    from .client import GameBot
    from .endpoints import point_discord_at
    from .preflight import open_checked
    from .resources import open_resources

    store = await open_checked(settings)
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    async with (
        open_resources(settings, store=store) as resources,
        GameBot(settings, resources) as bot,
    ):
        await until_stopped(bot.start(settings.discord_token or ""))


async def until_stopped(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` (logging in, the start of play, the gateway loop) in a task of its own
    until it ends or the caller is cancelled; a cancellation of the caller always ends
    this call, and cancels ``main`` — again, if it went on — for up to :data:`UNWIND`
    seconds.

    The stop must not rest on ``main`` honouring one cancellation: discord.py's
    ``connect`` waits for the gateway's handshake with ``asyncio.wait_for``, which on
    Python 3.11 returns the websocket and drops the cancellation when it lands as the
    handshake completes — the bot would go on running and never close.

    Raises:
        Exception: whatever ``main`` raised (e.g. ``discord.LoginFailure``).
    """
    task = asyncio.ensure_future(main)
    try:
        await asyncio.shield(task)
    finally:
        if not task.done():
            await _cancel_insistently(task, UNWIND)


async def _cancel_insistently(task: asyncio.Task[Any], within: float) -> None:
    loop = asyncio.get_running_loop()
    until = loop.time() + within
    while not task.done() and loop.time() < until:
        task.cancel()
        await asyncio.wait({task}, timeout=min(0.05, max(0.0, until - loop.time())))
    if not task.done():
        log.debug("the start-up or the gateway loop ignored the stop; closing anyway")
    task.add_done_callback(_ended_while_stopping)


def _ended_while_stopping(task: asyncio.Task[Any]) -> None:
    """What the start-up or the gateway loop raised once a stop began is no fault (e.g.
    the connection the close ended): noted, not logged as an unretrieved error."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("ended while stopping: %r", task.exception())


class _Stopper:
    """The signal handler: the first signal cancels the main task (whose ``async with``
    closes the bot) and gives the process :data:`STOP_DEADLINE` seconds to end; a second
    one exits at once."""

    def __init__(
        self,
        task: asyncio.Task[Any],
        deadline: float = STOP_DEADLINE,
        cleanup: Callable[[], None] = lambda: None,
    ) -> None:
        self.task = task
        self.deadline = deadline
        self.cleanup = cleanup
        self.signal: int | None = None

    def __call__(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if self.signal is None:
            self.signal = signum
            log.info("%s received: stopping (send it again to exit at once)", name)
            _exit_after(self.deadline, self.task.get_loop(), self.cleanup)
            self.task.cancel()
            return
        log.warning("second %s: exiting now, without finishing the stop", name)
        _exit_now(128 + signum)


def _exit_now(code: int) -> None:
    """Flush what was logged and printed, then end the process without waiting for
    anything (threads included)."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _exit_after(
    deadline: float, loop: asyncio.AbstractEventLoop, cleanup: Callable[[], None]
) -> None:
    """In ``deadline`` seconds, unless the process has ended by then: log what is still
    running, run ``cleanup`` and exit 0. A thread of its own, so a blocked event loop,
    or a join at the interpreter's exit, cannot hold it up."""

    def overdue() -> None:
        # even if logging is stuck (a blocked thread holding its lock), the process ends
        last = threading.Timer(0.5, os._exit, (0,))
        last.daemon = True
        last.start()
        lines = still_running(loop)
        log.warning(
            "stopping took over %.1f s: exiting anyway (what the bot owes is kept for the "
            "next start); %d still running:",
            deadline,
            len(lines),
        )
        for line in lines:
            log.warning("still running: %s", line)
        try:
            cleanup()
        except Exception:
            log.exception("cleaning up before the exit failed")
        _exit_now(0)

    timer = threading.Timer(deadline, overdue)
    timer.daemon = True
    timer.name = "bot-stop-deadline"
    timer.start()


def still_running(loop: asyncio.AbstractEventLoop) -> list[str]:
    """One line per task of ``loop`` not done and per thread (the main one, and any that
    would hold up the exit): where each is waiting, outermost first. Code locations
    only, never a value (no hand can be read from them)."""
    lines = []
    try:
        tasks = sorted(asyncio.all_tasks(loop), key=lambda t: t.get_name())
    except RuntimeError:  # the loop's task set kept changing under this thread
        tasks = []
    for task in tasks:
        lines.append(f"task {task.get_name()}: {_awaiting(task.get_coro())}")
    frames = sys._current_frames()
    for thread in threading.enumerate():
        if thread is threading.current_thread() or thread.ident not in frames:
            continue
        if thread is threading.main_thread() or not thread.daemon:
            stack = traceback.extract_stack(frames[thread.ident])[-8:]
            where = " > ".join(f"{_short(f.filename)}:{f.lineno} {f.name}" for f in stack)
            lines.append(f"thread {thread.name}: {where}")
    return lines


def _awaiting(coro: Any) -> str:
    """A coroutine's chain of awaits, ``file:line function`` each."""
    parts = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        frame = frame or getattr(coro, "ag_frame", None)
        if frame is None:
            break
        parts.append(f"{_short(frame.f_code.co_filename)}:{frame.f_lineno} {frame.f_code.co_name}")
        coro = (
            getattr(coro, "cr_await", None)
            or getattr(coro, "gi_yieldfrom", None)
            or getattr(coro, "ag_await", None)
        )
    return " > ".join(parts) or "(not started)"


def _short(filename: str) -> str:
    return "/".join(filename.replace(os.sep, "/").split("/")[-2:])


def run_until_signalled(
    main: Coroutine[Any, Any, None], cleanup: Callable[[], None] = lambda: None
) -> None:
    """Run ``main`` on a new event loop until it ends or SIGINT/SIGTERM stops it; a
    stop that overruns :data:`STOP_DEADLINE` runs ``cleanup`` and exits the process.

    Unlike ``asyncio.run``, the end does not wait for worker threads still drawing or
    reading (their results are no longer wanted): the default executor is shut down
    without waiting, and :func:`main` exits the process if such threads linger.

    Raises:
        Exception: whatever ``main`` raised (a stop by signal is a normal end).
    """
    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor(thread_name_prefix="bot-worker")
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    task = loop.create_task(main)
    stopper = _Stopper(task, cleanup=cleanup)
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stopper, sig)
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        if stopper.signal is None:
            raise
    finally:
        try:
            _cancel_leftovers(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
            executor.shutdown(wait=False, cancel_futures=True)
        finally:
            for sig in STOP_SIGNALS:
                loop.remove_signal_handler(sig)
            asyncio.set_event_loop(None)
            loop.close()


def _cancel_leftovers(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel the tasks still running (answers still being sent after the stop's budget)
    and give them one short moment to unwind."""
    tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for t in tasks:
        t.cancel()
    if tasks:
        loop.run_until_complete(asyncio.wait(tasks, timeout=0.1))


def _lingering_threads() -> list[threading.Thread]:
    return [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread() and not t.daemon and t.is_alive()
    ]


def _forget_health(settings: Settings) -> None:
    """A stop cut short: the health file goes with the process all the same."""
    if settings.health_file is not None:
        from . import health

        health.remove(settings.health_file)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        # the console has its own Ctrl+C handling: give it Python's usual signals back
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        return offer_console()
    configure_logging(settings.log_level, settings.log_format)
    from .preflight import StartupError

    try:
        run_until_signalled(run(settings), cleanup=lambda: _forget_health(settings))
    except StartupError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: check it in the developer portal.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:  # a signal before the loop's handlers were in place
        pass
    log.info("stopped")
    until = time.monotonic() + 0.1
    for thread in _lingering_threads():  # idle pool threads end at once, busy ones don't
        thread.join(timeout=max(0.0, until - time.monotonic()))
    stuck = _lingering_threads()
    if stuck:  # a drawing or a database thread the stop cut short: not worth waiting for
        log.debug(
            "not waiting for %d worker thread(s): %s", len(stuck), ", ".join(t.name for t in stuck)
        )
        _exit_now(0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
