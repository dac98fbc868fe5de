"""The process's logging: one handler on the root logger, plain or JSON, and no card of
any hand in any record at any level.

Formats (``LOG_FORMAT``):

- ``text``: ``[time] [LEVEL   ] logger: message``; coloured only when the stream is a
  terminal (and ``NO_COLOR`` is unset), so files, pipes and Docker logs stay plain.
- ``json``: one object per line with ``time`` (UTC, ISO 8601), ``level``, ``logger``,
  ``message`` and, when there is one, ``exception`` (the formatted traceback).

Hands travel in DMs, so discord.py's DEBUG lines would show them: request and response
bodies (``discord.http``), every received gateway event (``discord.gateway``; a button
press carries the message it was on) and webhook calls. :class:`RedactPayloads` sits on
those loggers themselves, so every handler (ours, a test's, an error tracker's) gets the
record without its payload: method, route, status and event type stay; bodies become
their size, and interaction and webhook tokens in URLs are masked. aiosqlite's DEBUG
lines (each call with its SQL parameters: a game's snapshot holds every hand) keep only
the name of the call. As a last net, both
formatters replace anything shaped like a card name (``10♥``, also JSON-escaped as
``10\\u2665``) with ``[card]``.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

PAYLOAD_LOGGERS = (
    "discord.http",
    "discord.gateway",
    "discord.webhook.async_",
    "discord.webhook.sync",
    "discord.client",
    "discord.state",
    "aiosqlite",
)
"""Loggers whose records may carry request, response or event bodies (discord.py) or
SQL parameters such as a game's snapshot with every hand (aiosqlite at DEBUG)."""

CARD_TEXT = re.compile(r"(?<![\w\\])(?:10|[2-9JQKA])(?:[♣♦♥♠]|\\u266[0356])")
TOKEN_IN_URL = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?\s'\"]+")
TEXT_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_COLOURS = {
    logging.DEBUG: "\x1b[40;1m",
    logging.INFO: "\x1b[34;1m",
    logging.WARNING: "\x1b[33;1m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
_RESET = "\x1b[0m"


def scrub(text: str) -> str:
    """``text`` with every card-shaped name replaced by ``[card]``."""
    return CARD_TEXT.sub("[card]", text)


def _summary(value: Any) -> Any:
    """A log argument without its content: bodies become their size, URLs lose tokens."""
    if value is None or isinstance(value, int | float | bool):
        return value
    if isinstance(value, functools.partial):  # aiosqlite: a call with its SQL parameters
        return f"<{getattr(value.func, '__qualname__', 'a call')}(…)>"
    if isinstance(value, dict):
        keys = ("op", "t", "s") if "op" in value else ()
        shown = " ".join(f"{k}={value[k]}" for k in keys if value.get(k) is not None)
        return f"<{shown or 'payload'}, {len(value)} key(s) not logged>"
    if isinstance(value, list | tuple):
        return f"<{len(value)} item(s) not logged>"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes not logged>"
    if isinstance(value, str):
        stripped = value.lstrip()
        if stripped[:1] in ("{", "[") or len(value) > 300:
            return f"<{len(value)} characters not logged>"
        return TOKEN_IN_URL.sub(r"\1***", value)
    text = str(value)  # a URL object, an enum, a route…
    if type(value).__name__ in ("FormData", "MultipartWriter") or len(text) > 300:
        return f"<{type(value).__name__} not logged>"
    return TOKEN_IN_URL.sub(r"\1***", text)


class RedactPayloads(logging.Filter):
    """Replaces the arguments of a record with :func:`_summary` of each (never drops a
    record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, dict):  # log("%s", payload) keeps the mapping itself as args
            record.args = (
                {k: _summary(v) for k, v in args.items()}
                if "%(" in str(record.msg)
                else (_summary(args),)
            )
        elif args:
            record.args = tuple(_summary(a) for a in args)
        elif not isinstance(record.msg, str) or record.msg.lstrip()[:1] in ("{", "["):
            record.msg = _summary(record.msg)
        return True


class TextFormatter(logging.Formatter):
    """``[time] [LEVEL   ] logger: message``, colour on request, card names scrubbed."""

    def __init__(self, colour: bool = False) -> None:
        super().__init__(TEXT_FORMAT, DATE_FORMAT, style="{")
        self.colour = colour

    def format(self, record: logging.LogRecord) -> str:
        text = scrub(super().format(record))
        if not self.colour:
            return text
        colour = _COLOURS.get(record.levelno, "")
        head, sep, rest = text.partition("] ")
        return f"{head}{sep}{colour}{rest}{_RESET}" if sep else text


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message (+ exception)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            out["exception"] = scrub(record.exc_text)
        if record.stack_info:
            out["stack"] = scrub(self.formatStack(record.stack_info))
        return json.dumps(out, ensure_ascii=False)


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never with ``NO_COLOR`` set (https://no-color.org)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


def redact_discord() -> None:
    """Put :class:`RedactPayloads` on discord.py's payload loggers (once)."""
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactPayloads) for f in logger.filters):
            logger.addFilter(RedactPayloads())


def configure(
    level: str = "INFO", fmt: str = "text", stream: TextIO | None = None
) -> logging.Handler:
    """Log everything at ``level`` and above (discord.py's records included) to ``stream``
    (default stderr) in format ``fmt`` (``text`` or ``json``); replaces a handler this
    function installed before. Returns the handler."""
    stream = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(stream)
    handler.set_name("bot.logs")
    handler.setFormatter(
        JsonFormatter() if fmt == "json" else TextFormatter(colour=wants_colour(stream))
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "bot.logs"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    redact_discord()
    return handler
