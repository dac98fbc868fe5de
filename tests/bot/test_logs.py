"""The log formats (plain text, colour only on a terminal, JSON lines) and the redaction
of payloads and card names."""

from __future__ import annotations

import functools
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs
from rules.pyramids.cards import card_name


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for h in list(root.handlers):
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)


def test_plain_text_when_the_stream_is_not_a_terminal(restore_logging: None) -> None:
    out = io.StringIO()
    logs.configure("INFO", "text", out)
    logging.getLogger("bot.test").warning("game %s started", 7)
    logging.getLogger("bot.test").debug("below the level")
    line = out.getvalue()
    assert "\x1b[" not in line
    assert line.endswith("] [WARNING ] bot.test: game 7 started\n")
    assert "below the level" not in line


def test_colour_only_on_a_terminal_and_never_with_no_color(
    restore_logging: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    tty = Terminal()
    logs.configure("INFO", "text", tty)
    logging.getLogger("bot.test").info("hello")
    assert "\x1b[34;1m" in tty.getvalue() and tty.getvalue().rstrip().endswith("\x1b[0m")
    monkeypatch.setenv("NO_COLOR", "1")
    tty = Terminal()
    logs.configure("INFO", "text", tty)
    logging.getLogger("bot.test").info("hello")
    assert "\x1b[" not in tty.getvalue()


def test_configure_twice_keeps_one_handler(restore_logging: None) -> None:
    first, second = io.StringIO(), io.StringIO()
    logs.configure("INFO", "text", first)
    logs.configure("INFO", "json", second)
    logging.getLogger("bot.test").info("once")
    assert first.getvalue() == "" and second.getvalue().count("\n") == 1


def test_json_lines_have_time_level_logger_message_and_exception(restore_logging: None) -> None:
    out = io.StringIO()
    logs.configure("DEBUG", "json", out)
    log = logging.getLogger("bot.test")
    log.info("line one\nline two")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("it failed")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2, "one object per line, newlines escaped"
    first, second = (json.loads(x) for x in lines)
    assert set(first) == {"time", "level", "logger", "message"}
    assert first["level"] == "INFO" and first["logger"] == "bot.test"
    assert first["message"] == "line one\nline two"
    assert first["time"].endswith("Z") and "T" in first["time"]
    assert second["level"] == "ERROR" and second["message"] == "it failed"
    assert "Traceback" in second["exception"] and "ValueError: boom" in second["exception"]


def _record(name: str, msg: str, *args: object) -> logging.LogRecord:
    record = logging.LogRecord(name, logging.DEBUG, __file__, 1, msg, args, None)
    logs.RedactPayloads().filter(record)
    return record


def test_discord_http_bodies_are_replaced_by_their_size() -> None:
    body = json.dumps({"content": "Your hand (2): 10♥, K♠"})  # escaped like discord.py's
    rec = _record(
        "discord.http",
        "%s %s with %s has returned %s",
        "POST",
        "http://x/api/v10/channels/1/messages",
        body,
        200,
    )
    text = rec.getMessage()
    assert text == (
        f"POST http://x/api/v10/channels/1/messages with <{len(body)} "
        "characters not logged> has returned 200"
    )
    rec = _record("discord.http", "%s %s has received %s", "GET", "http://x/a", {"content": "A♣"})
    assert "A♣" not in rec.getMessage() and "not logged" in rec.getMessage()


def test_gateway_events_keep_their_type_only() -> None:
    event = {
        "op": 0,
        "t": "INTERACTION_CREATE",
        "s": 12,
        "d": {"message": {"content": "Your hand (1): 7♦"}},
    }
    rec = _record("discord.gateway", "For Shard ID %s: WebSocket Event: %s", None, event)
    assert rec.getMessage() == (
        "For Shard ID None: WebSocket Event: <op=0 t=INTERACTION_CREATE s=12, 4 key(s) not logged>"
    )
    rec = _record("discord.gateway", "Received %s", event)  # a lone mapping argument
    assert "7♦" not in rec.getMessage()


def test_interaction_and_webhook_tokens_are_masked() -> None:
    rec = _record(
        "discord.http",
        "%s %s",
        "POST",
        "http://x/api/v10/interactions/123/aW50ZXJhY3Rpb24/callback",
    )
    assert rec.getMessage() == "POST http://x/api/v10/interactions/123/***/callback"
    rec = _record(
        "discord.webhook.async_",
        "Webhook ID %s with %s %s has returned %s",
        9,
        "PATCH",
        "http://x/api/v10/webhooks/9/tok.en-_1/messages/@original",
        200,
    )
    assert "tok.en" not in rec.getMessage() and "/webhooks/9/***/messages" in rec.getMessage()


def test_aiosqlite_calls_lose_their_parameters() -> None:
    call = functools.partial(print, "UPDATE games SET state = ?", ('{"hands": [[3, 40]]}',))
    rec = _record("aiosqlite", "executing %s", call)
    assert rec.getMessage() == "executing <print(…)>"


def test_every_card_name_is_scrubbed_plain_and_json_escaped() -> None:
    for card in range(52):
        name = card_name(card)
        escaped = json.dumps(name)[1:-1]
        assert escaped != name
        text = logs.scrub(f"hand: {name}, {escaped}; game 10 at 2♯")
        assert name not in text and escaped not in text, text
        assert text.count("[card]") == 2 and "game 10 at 2♯" in text


def test_the_formatters_scrub_cards_even_from_other_loggers(restore_logging: None) -> None:
    out = io.StringIO()
    logs.configure("INFO", "json", out)
    try:
        raise RuntimeError("not your card: Q♥")
    except RuntimeError:
        logging.getLogger("some.library").exception("holding 9♣")
    record = json.loads(out.getvalue())
    assert record["message"] == "holding [card]"
    assert "Q♥" not in record["exception"] and "[card]" in record["exception"]
