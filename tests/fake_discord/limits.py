"""Discord's documented limits, enforced on what the bot sends, and the checks Discord's
client applies to what a user types into a slash command (discord.py trusts those)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.fake_discord.models import ApiError, FakeChannel, FakeRole, FakeUser, InvalidInvocation

_MAX = "BASE_TYPE_MAX_LENGTH"
ATTACHMENT_LIMIT = 10 * 1024 * 1024
"""The largest file a bot may attach in a server without boosts (bytes): told to the bot
in every interaction (``attachment_size_limit``), and a larger one is refused with 413
Request entity too large (40005)."""


def _too_long(path: str, limit: int) -> ApiError:
    return ApiError.invalid_form(path, f"Must be {limit} or fewer in length.", _MAX)


def _check_len(value: Any, limit: int, path: str) -> None:
    if value is not None and len(value) > limit:
        raise _too_long(path, limit)


def check_files(files: Sequence[Any], limit: int = ATTACHMENT_LIMIT) -> None:
    """Raise :class:`ApiError` (413, 40005) if a file is larger than ``limit`` bytes."""
    if any(len(f.data) > limit for f in files):
        raise ApiError(413, 40005, "Request entity too large")


def check_message(payload: Mapping[str, Any], n_files: int, *, allow_empty: bool = False) -> None:
    """Raise :class:`ApiError` (400) if a message create/edit payload breaks a limit."""
    _check_len(payload.get("content"), 2000, "content")
    check_embeds(payload.get("embeds") or [])
    check_components(payload.get("components") or [], v2=bool((payload.get("flags") or 0) & 32768))
    if n_files > 10:
        raise _too_long("files", 10)
    has_body = any(payload.get(k) for k in ("content", "embeds", "components", "sticker_ids"))
    if not (allow_empty or has_body or n_files or payload.get("attachments")):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_embeds(embeds: list[dict]) -> None:
    """Max 10 embeds; per-field limits; 6000 characters in total."""
    _check_len(embeds, 10, "embeds")
    total = 0
    for i, e in enumerate(embeds):
        texts = {
            "title": (e.get("title"), 256),
            "description": (e.get("description"), 4096),
            "footer.text": (e.get("footer", {}).get("text"), 2048),
            "author.name": (e.get("author", {}).get("name"), 256),
        }
        _check_len(e.get("fields"), 25, f"embeds.{i}.fields")
        for j, f in enumerate(e.get("fields", [])):
            texts[f"fields.{j}.name"] = (f.get("name"), 256)
            texts[f"fields.{j}.value"] = (f.get("value"), 1024)
        for path, (text, limit) in texts.items():
            _check_len(text, limit, f"embeds.{i}.{path}")
            total += len(text or "")
    if total > 6000:
        raise ApiError.invalid_form("embeds", "Embed size exceeds maximum size of 6000")


def _walk(components: list[dict]) -> list[dict]:
    out: list[dict] = []
    for c in components:
        out.append(c)
        out += _walk(c.get("components", []) + [c[k] for k in ("component", "accessory") if k in c])
    return out


def check_components(rows: list[dict], *, v2: bool = False) -> None:
    """Action rows (5 max, 5 buttons or 1 select each), select options (1-25, labels and
    values, values unique, a placeholder, how many may be picked), ids and labels."""
    if not v2:
        _check_len(rows, 5, "components")
        for i, row in enumerate(rows):
            if row.get("type") != 1:
                raise ApiError.invalid_form(f"components.{i}", "Top-level must be action rows")
            kids = row.get("components", [])
            selects = [c for c in kids if c.get("type") in (3, 5, 6, 7, 8)]
            if not kids or (selects and len(kids) > 1) or len(kids) > 5:
                raise ApiError.invalid_form(
                    f"components.{i}.components", "Row needs 1-5 buttons or exactly one select"
                )
    elif len(_walk(rows)) > 40:
        raise _too_long("components", 40)
    seen: set[str] = set()
    for c in _walk(rows):
        cid = c.get("custom_id")
        if cid is not None:
            _check_len(cid, 100, "components.custom_id")
            if cid in seen:
                raise ApiError.invalid_form("components", f"Duplicate custom_id {cid!r}")
            seen.add(cid)
        if c.get("type") == 2:
            _check_len(c.get("label"), 80, "components.label")
            if (c.get("style") == 5) != ("url" in c) or (c.get("style") not in (5, 6)) != bool(cid):
                raise ApiError.invalid_form("components", "Link buttons need a url, others an id")
        if c.get("type") == 3:
            options = c.get("options", [])
            if not options:
                raise ApiError.invalid_form("components.options", "Select needs options")
            _check_len(options, 25, "components.options")
            _check_len(c.get("placeholder"), 150, "components.placeholder")
            low, high = c.get("min_values", 1), c.get("max_values", 1)
            if not 0 <= low <= high <= min(25, len(options)):
                raise ApiError.invalid_form(
                    "components.max_values", "min_values and max_values must fit the options"
                )
            for o in options:
                if not o.get("label"):
                    raise ApiError.invalid_form(
                        "components.options.label", "Must be between 1 and 100 in length."
                    )
                _check_len(o.get("label"), 100, "components.options.label")
                _check_len(o.get("value"), 100, "components.options.value")
            values = [o.get("value") for o in options]
            if len(values) != len(set(values)):
                raise ApiError.invalid_form(
                    "components.options", "Select option values must be unique"
                )


def check_choices(choices: list[dict]) -> None:
    """Autocomplete results: at most 25, names 1-100 characters, string values <= 100."""
    _check_len(choices, 25, "data.choices")
    for i, ch in enumerate(choices):
        if not 1 <= len(ch.get("name", "")) <= 100:
            raise ApiError.invalid_form(f"data.choices.{i}.name", "Must be 1-100 in length.")
        if isinstance(ch.get("value"), str):
            _check_len(ch["value"], 100, f"data.choices.{i}.value")


def check_modal(data: Mapping[str, Any]) -> None:
    """Modal: title <= 45, 1-5 top-level components, custom_id <= 100, labels <= 45."""
    if not 1 <= len(data.get("title") or "") <= 45:
        raise ApiError.invalid_form("data.title", "Must be between 1 and 45 in length.")
    _check_len(data.get("custom_id"), 100, "data.custom_id")
    if not 1 <= len(data.get("components") or []) <= 5:
        raise ApiError.invalid_form("data.components", "Must be between 1 and 5 in length.")
    for c in _walk(data["components"]):
        _check_len(c.get("label"), 45, "data.components.label")
        _check_len(c.get("custom_id"), 100, "data.components.custom_id")


_NAME = re.compile(r"^[-_\w]{1,32}$")


DISCORD_LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
"""The locales Discord knows (the keys of a command's ``*_localizations``)."""


def _check_localizations(node: dict, key: str, path: str, low: int, high: int) -> None:
    """A ``*_localizations`` map as Discord checks it: known locales, each text of
    ``low``-``high`` characters (a name's also a valid command name)."""
    found = node.get(key)
    if found is None:
        return
    if not isinstance(found, dict):
        raise ApiError.invalid_form(f"{path}.{key}", "Must be an object.")
    for locale, text in found.items():
        where = f"{path}.{key}.{locale}"
        if locale not in DISCORD_LOCALES:
            raise ApiError.invalid_form(where, "Invalid Locale", "LOCALE_INVALID")
        if not isinstance(text, str) or not low <= len(text) <= high:
            raise ApiError.invalid_form(where, f"Must be between {low} and {high} in length.")
        if key == "name_localizations" and "choices" not in path and not _NAME.match(text):
            raise ApiError.invalid_form(
                where, "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME"
            )


def check_commands(commands: list[dict]) -> None:
    """The parts of Discord's command validation that discord.py does not do itself."""
    _check_len(commands, 100, "commands")
    names: set[tuple[str, int]] = set()
    for i, cmd in enumerate(commands):
        key = (cmd["name"], cmd.get("type", 1))
        if key in names:
            raise ApiError.invalid_form(f"{i}.name", "Application command names must be unique")
        names.add(key)
        if cmd.get("type", 1) == 1:
            _check_option_list(cmd, str(i))


def _check_option_list(node: dict, path: str) -> None:
    if not _NAME.match(node["name"]) or node["name"] != node["name"].lower():
        raise ApiError.invalid_form(
            f"{path}.name", "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME"
        )
    if not 1 <= len(node.get("description", "")) <= 100:
        raise ApiError.invalid_form(f"{path}.description", "Must be between 1 and 100 in length.")
    _check_localizations(node, "name_localizations", path, 1, 32)
    _check_localizations(node, "description_localizations", path, 1, 100)
    options = node.get("options", [])
    _check_len(options, 25, f"{path}.options")
    optional_seen = False
    for j, opt in enumerate(options):
        _check_len(opt.get("choices"), 25, f"{path}.options.{j}.choices")
        for k, choice in enumerate(opt.get("choices") or []):
            where = f"{path}.options.{j}.choices.{k}"
            if not 1 <= len(choice.get("name", "")) <= 100:
                raise ApiError.invalid_form(f"{where}.name", "Must be between 1 and 100 in length.")
            _check_localizations(choice, "name_localizations", where, 1, 100)
        if opt["type"] in (1, 2):
            _check_option_list(opt, f"{path}.options.{j}")
            continue
        if opt.get("required") and optional_seen:
            raise ApiError.invalid_form(
                f"{path}.options.{j}", "Required options must be placed before non-required options"
            )
        optional_seen |= not opt.get("required")


def resolve_subcommand(cmd: dict, subcommand: str | None) -> list[dict]:
    """Walk ``"group sub"`` down the schema; return the leaf's option schema."""
    options, where = cmd.get("options", []), f"/{cmd['name']}"
    has_subs = any(o["type"] in (1, 2) for o in options)
    path = subcommand.split() if subcommand else []
    if has_subs and not path:
        raise InvalidInvocation(f"{where} needs a subcommand")
    for part in path:
        node = next((o for o in options if o["name"] == part and o["type"] in (1, 2)), None)
        if node is None:
            raise InvalidInvocation(f"{where} has no subcommand {part!r}")
        options, where = node.get("options", []), f"{where} {part}"
    if path and any(o["type"] in (1, 2) for o in options):
        raise InvalidInvocation(f"{where} is a group: name one of its subcommands")
    return options


# what each option type (by its number) accepts
OPTION_VALUE_TYPES: dict[int, type | tuple[type, ...]] = {
    3: str,
    4: int,
    5: bool,
    10: (int, float),
    6: FakeUser,
    7: FakeChannel,
    8: FakeRole,
    9: (FakeUser, FakeRole),
}


def _is_a(value: object, kind: type | tuple[type, ...]) -> bool:
    return isinstance(value, kind)


def check_option_value(opt: dict, value: Any) -> None:
    """Raise :class:`InvalidInvocation` if a user could not enter ``value`` for ``opt``."""
    t, name = opt["type"], opt["name"]
    expected = OPTION_VALUE_TYPES.get(t)
    if expected is None:
        raise InvalidInvocation(f"option {name!r}: type {t} is not supported by the fake")
    if not _is_a(value, expected) or (t in (4, 10) and isinstance(value, bool)):
        raise InvalidInvocation(f"option {name!r} expects {expected}, got {value!r}")
    choices = [c["value"] for c in opt.get("choices", [])]
    if choices and value not in choices:
        raise InvalidInvocation(f"option {name!r}: {value!r} is not one of the choices {choices}")
    if t in (4, 10):
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise InvalidInvocation(f"option {name!r}: {value!r} is outside [{lo}, {hi}]")
    if t == 3 and not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
        raise InvalidInvocation(f"option {name!r}: length of {value!r} is out of range")
    if t == 7 and opt.get("channel_types") and value.type not in opt["channel_types"]:
        raise InvalidInvocation(f"option {name!r}: channel type {value.type} not allowed")
