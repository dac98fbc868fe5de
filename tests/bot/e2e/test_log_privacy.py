"""A whole game with every logger at DEBUG: no card of any hand in any log line, whether
read through the bot's own handlers (text and JSON) or through any other handler on the
root logger (the redaction sits on discord.py's and aiosqlite's loggers themselves)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs
from rules.pyramids.cards import card_name
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy

NAMES = [card_name(c) for c in range(52)]
FORMS = sorted({*NAMES, *(json.dumps(n)[1:-1] for n in NAMES)}, key=len, reverse=True)
"""Each card as the bot writes it (``10♥``) and as a JSON body carries it (``10\\u2665``)."""
PHRASES = ("Your hand (", "Your cards:")
"""How hand lines and hand-image alt text begin."""


class Capture(logging.Handler):
    """Every record, formatted by the standard library's plain formatter."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []
        self.names: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))
        self.names.append(record.name)


@pytest.fixture
def debug_logs() -> Iterator[tuple[Capture, io.StringIO, io.StringIO]]:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    text, lines = io.StringIO(), io.StringIO()
    logs.configure("DEBUG", "text", text)
    json_handler = logging.StreamHandler(lines)
    json_handler.setFormatter(logs.JsonFormatter())
    raw = Capture()
    root.addHandler(json_handler)
    root.addHandler(raw)
    try:
        yield raw, text, lines
    finally:
        for h in list(root.handlers):
            if h not in saved[0]:
                root.removeHandler(h)
        root.setLevel(saved[1])


def leaks(text: str) -> list[str]:
    """Card names and hand phrases found in ``text``."""
    return [f for f in (*FORMS, *PHRASES) if f in text]


async def test_a_whole_game_at_debug_logs_no_card(
    world: World, debug_logs: tuple[Capture, io.StringIO, io.StringIO]
) -> None:
    raw, text, lines = debug_logs
    gid = await world.open_table()
    status = await world.play_to_end(gid, Policy(), 150)
    assert status.status == "finished"

    # the game did send hands over the wire: an unredacted DEBUG line would have shown them
    dms = {world.fake.dm_channel(u).id for u in world.users.values()}
    bodies = [
        json.dumps(r.json)
        for r in world.fake.requests
        if r.json is not None and any(f"/channels/{c}/" in r.path for c in dms)
    ]
    assert sum(bool(leaks(b)) for b in bodies) > 10, "hands went out by DM"
    # and discord.py logged its requests, responses and gateway events meanwhile
    assert raw.names.count("discord.http") > 100 and raw.names.count("discord.gateway") > 20
    assert len(raw.lines) > 500

    for where, output in (
        ("a plain handler", "\n".join(raw.lines)),
        ("the text log", text.getvalue()),
        ("the JSON log", lines.getvalue()),
    ):
        found = leaks(output)
        assert not found, (
            f"{where} shows {found[:5]}: "
            + next(line for line in output.splitlines() if leaks(line))[:400]
        )
    for line in lines.getvalue().splitlines():
        json.loads(line)  # one JSON object per line
