"""Every command's synced schema against PRODUCT.md's list (names are a contract; options
may gain more, never lose these), and when commands are synced."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.sync import COMMANDS_HASH_KEY
from service.store import open_store
from tests.bot.e2e.harness import World, make_world

PRODUCT = Path(__file__).resolve().parents[4] / "shared" / "design" / "PRODUCT.md"

# PRODUCT.md, "Commands": name -> (required options, optional options)
CONTRACT: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "newgame": ((), ("variant", "players", "turn_timeout", "thread")),
    "join": ((), ("power",)),
    "leave": ((), ()),
    "addbot": ((), ("power", "level")),
    "start": ((), ()),
    "cancel": ((), ()),
    "resign": ((), ()),
    "replace": (("seat", "with"), ()),
    "pause": ((), ()),
    "resume": ((), ()),
    "settings": ((), ()),
    "place": ((), ()),
    "conscript": (("field",), ()),
    "move": (("from", "to"), ()),
    "invade": (("from", "to"), ()),
    "arm": ((), ()),
    "sabotage": (("target",), ()),
    "spy": (("player",), ()),
    "pass": ((), ()),
    "grow": ((), ()),
    "build": ((), ()),
    "board": ((), ()),
    "hand": ((), ()),
    "status": ((), ()),
    "log": ((), ("n",)),
    "rules": ((), ("topic",)),
    "help": ((), ()),
    "about": ((), ()),
}
# Where this bot departs from the letter of the list, on purpose: /replace's `with` is
# optional (left empty, the seat goes to a computer player, which a user option cannot
# name).
OPTIONAL_BY_CHOICE = {("replace", "with")}


def product_commands(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """Commands as PRODUCT.md writes them: `/name req [opt: …]`."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    section = text.split("## Commands", 1)[1].split("## Interaction flows", 1)[0]
    for raw in re.findall(r"`(/[a-z_]+[^`]*)`", section):
        name, _, rest = raw[1:].partition(" ")
        optional = re.findall(r"\[([a-z_]+)[^\]]*\]", rest)
        required = re.sub(r"\[[^\]]*\]", "", rest).split()
        out.setdefault(name, (required, optional))
    return out


def test_contract_matches_product_md() -> None:
    if not PRODUCT.is_file():
        pytest.skip("PRODUCT.md is not beside this checkout")
    listed = product_commands(PRODUCT.read_text(encoding="utf-8"))
    assert set(listed) == set(CONTRACT)
    for name, (req, opt) in listed.items():
        assert (tuple(req), tuple(opt)) == CONTRACT[name], name


async def test_synced_schema_has_every_command_and_option(world: World) -> None:
    synced = {c["name"]: c for c in world.fake.commands[None]}
    assert set(CONTRACT) <= set(synced)
    for name, (required, optional) in CONTRACT.items():
        cmd = synced[name]
        assert 1 <= len(cmd["description"]) <= 100, name
        options = {o["name"]: o for o in cmd.get("options", [])}
        for opt in required:
            assert opt in options, (name, opt)
            assert options[opt].get("required") or (name, opt) in OPTIONAL_BY_CHOICE, (name, opt)
        for opt in optional:
            assert opt in options and not options[opt].get("required"), (name, opt)
        for opt in options.values():
            assert 1 <= len(opt["description"]) <= 100, (name, opt["name"])
    # option details a user relies on
    newgame = {o["name"]: o for o in synced["newgame"]["options"]}
    assert newgame["players"]["min_value"] == 2 and newgame["players"]["max_value"] == 5
    assert [c["name"] for c in newgame["variant"]["choices"]] == [
        "european-war",
        "world-war-5",
        "europe-at-war",
    ]
    for name in ("conscript", "move", "invade", "sabotage", "spy", "grow", "build", "place"):
        assert all(
            o.get("autocomplete")
            for o in synced[name]["options"]
            if o["type"] == 3 and "choices" not in o
        ), name
    assert int(synced["settings"]["default_member_permissions"]) == 1 << 5  # manage guild
    game_commands = set(CONTRACT) - {"rules", "help", "about"}
    for name in game_commands:
        assert synced[name].get("contexts") == [0], name


async def test_commands_sync_only_when_changed(fake_discord, tmp_path) -> None:
    world = await make_world(fake_discord, tmp_path)
    puts = fake_discord.requests_to("PUT", "/applications/*/commands")
    assert len(puts) == 1, "the first start syncs globally"
    await world.stop()
    await world.start()
    assert len(fake_discord.requests_to("PUT", "/applications/*/commands")) == 1, (
        "an unchanged command set is not synced again"
    )
    await world.stop()
    store = await open_store(tmp_path / "games.db")  # a different command set was synced
    await store.set_meta(COMMANDS_HASH_KEY, "0:stale")
    await store.close()
    await world.start()
    assert len(fake_discord.requests_to("PUT", "/applications/*/commands")) == 2
    await world.stop()
    await world.start(dev_guild_id=world.guild.id)
    guild_puts = fake_discord.requests_to(
        "PUT", f"/applications/*/guilds/{world.guild.id}/commands"
    )
    assert len(guild_puts) == 1
    assert {c["name"] for c in fake_discord.commands[world.guild.id]} >= set(CONTRACT)
    await world.stop()
