"""Imports point down only (ARCHITECTURE.md): rules/ is standard library only; ai/ sees
rules/; render/ sees rules/ and Pillow; service/ sees rules/, ai/ (the computer players it
seats), aiosqlite and asyncpg (the two stores' drivers) and openskill (the ratings); bot/
and console/ sit on top of them, side by side, and never import each other — with one
edge on purpose: the bot's launcher offers the console when no Discord token is set. Lazy
imports inside functions count too: every import statement in a file is checked, wherever
it stands."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "rules": {"rules"},
    "ai": {"ai", "rules"},
    "render": {"render", "rules", "PIL"},
    "service": {"service", "rules", "ai", "aiosqlite", "asyncpg", "openskill"},
    "console": {"console", "service", "rules", "render", "ai"},
    "bot": {
        *("bot", "service", "rules", "render", "ai"),
        # Discord and its transport; Pillow (a placeholder for an image that failed) and
        # zlib-ng and ISA-L (deflating in the drawing processes); prometheus-client serves
        # the metrics; aiosqlite and asyncpg: the start-up check of the database, an SQLite
        # file or a PostgreSQL server (bot/preflight.py)
        *("discord", "aiohttp", "yarl", "PIL", "zlib_ng", "isal", "prometheus_client"),
        *("aiosqlite", "asyncpg"),
    },
}
SIDE_EDGES = {("bot/__main__.py", "console.main")}
"""The one import between the two front ends: ``python -m bot`` (and the
``european-war-bot`` script) without a token offers to play in the terminal instead
(README's play command)."""


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_layer_imports(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in imports_of(path):
            top = module.split(".")[0]
            if (str(path.relative_to(ROOT)), module) in SIDE_EDGES:
                continue
            if top not in sys.stdlib_module_names and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import discord\nfrom PIL import Image\nimport json\n")
    tops = {m.split(".")[0] for _, m in imports_of(sample)}
    assert {t for t in tops if t not in sys.stdlib_module_names} == {"discord", "PIL"}


def test_only_the_factory_and_the_bot_s_preflight_name_the_sqlite_store() -> None:
    """Everything else reaches a store through ``service.store``'s protocol, so another
    implementation drops in: ``open_store`` picks it, and the bot's preflight checks and
    owns the SQLite file before anything talks to Discord."""
    allowed = {"service/store.py", "bot/preflight.py"}
    naming = set()
    for package in ("service", "bot", "console"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom):
                    names = [node.module or "", *(a.name for a in node.names)]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                if any(n.split(".")[-1] == "sqlite_store" for n in names):
                    naming.add(str(path.relative_to(ROOT)))
    assert naming == allowed


def game_words() -> set[str]:
    """What names a game: every registered game's registry name and title, Claim the
    Line's (registered here for the check), and the packages games live in."""
    import rules
    from tests.games import claim_line

    words = {"pyramids", "claim_line"}
    ours = claim_line.NAME not in rules.game_names()
    if ours:
        rules.register(claim_line.ClaimGame())
    try:
        for name in rules.game_names():
            words |= {name, rules.game_named(name).presentation.title}
    finally:
        if ours:
            rules.unregister(claim_line.NAME)
    return words


PRODUCT_STRINGS = (
    "European War bot",  # the product's brand (the bot's name, /about)
    "european_war.db",  # the default database file's name, kept for existing installs
    'PREFIX = "european_war"',  # the metrics prefix operators' dashboards already use
    # /about's credits: the designers of the games the product was made for
    "European War (Jan Divecky) and World War 5 (Andrew",
)
"""Strings that name the product, not a game (they read like a game's name only because
the product took its name from its first game). The ``european-war`` console command is
the product's name too, and reads as no game's registry name or title."""

PRODUCT_STRINGS_IN = {
    "service": ("european_war.db",),
    "bot": PRODUCT_STRINGS,
    "console": ("european_war.db",),
}
"""Which of them each platform package may say."""


@pytest.mark.parametrize("package", sorted(PRODUCT_STRINGS_IN))
def test_the_platform_names_no_game(package: str) -> None:
    """The service, the bot and the console reach games only through the contract, the
    presentation spec and the registries: no line names a game or its package."""
    words = game_words()
    assert {"european_war", "world_war_5", "European War", "World War 5"} <= words
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            text = line.lower()
            for product in PRODUCT_STRINGS_IN[package]:
                text = text.replace(product.lower(), "")
            found = sorted(w for w in words if w.lower() in text)
            if found:
                bad.append(f"{path.relative_to(ROOT)}:{number} names {', '.join(found)}")
    assert not bad, "\n".join(bad)


def test_the_bot_s_parts_hold_the_bot_they_were_given() -> None:
    """Cogs, views and helpers are handed the bot (or what they need of it): nothing in
    ``bot/`` reaches it through an interaction's ``client`` (the command tree reads its
    own ``self.client``, the bot it was made for)."""
    bad = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "client":
                if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} reads .client")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and any(isinstance(a, ast.Constant) and a.value == "client" for a in node.args)
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} reads client by getattr")
    assert not bad, "\n".join(bad)
