"""What every slash command does first (the command tree's ``interaction_check``).

1. The payload is checked against the command as this process knows it. Discord sends
   what the user's client knew; while a new command list propagates (minutes after a
   sync) it can name a command that no longer exists, miss a required option, or carry a
   value of the wrong type or a choice that is gone. Each is refused with a specific,
   private reason (:class:`StalePayload`) before discord.py parses it — nothing changes,
   and the log gets a warning line, not a traceback.
2. The interaction is acknowledged at once in the visibility its answer will have, read
   from the command's ``extras`` (``ANSWER_PUBLIC`` for actions, ``ANSWER_DIRECT`` for
   commands answered instantly from memory; anything else is private). See
   :mod:`bot.reply`.

Autocomplete passes straight through (it answers with choices, never late).

Before any of that, every interaction (a command, autocomplete, a button, a select, a
modal) is handled in its person's language: :func:`speak_their_language` wraps discord.py's
parsing of ``INTERACTION_CREATE``, which starts the task that handles it, in
``i18n.use(interaction.locale)`` (a task keeps the context it was started in), and tells
the service the language the person's client speaks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as T

from rules import i18n

from .catalogue import N_, _
from .errors import OUT_OF_DATE, StalePayload
from .metrics import Metrics
from .reply import Reply

log = logging.getLogger("bot")

ANSWER_PUBLIC = {"answer": "public"}
"""``extras`` of a command whose answer is public on success (a private refusal)."""
ANSWER_DIRECT = {"answer": "direct"}
"""``extras`` of a command answered at once, without touching the database."""

WHAT = {
    T.string: N_("text"),
    T.integer: N_("a whole number"),
    T.boolean: N_("true or false"),
    T.user: N_("a member"),
    T.channel: N_("a channel"),
    T.role: N_("a role"),
    T.mentionable: N_("a member or a role"),
    T.number: N_("a number"),
    T.attachment: N_("a file"),
}
SNOWFLAKE_TYPES = (T.user, T.channel, T.role, T.mentionable, T.attachment)


def speak_their_language(state: Any, seen: Callable[[int, str], None]) -> None:
    """Handle every interaction discord.py's connection ``state`` receives inside
    ``i18n.use`` of its locale (the handling tasks it starts inherit that language), and
    tell ``seen(user id, locale)`` first."""
    parse: Callable[[dict[str, Any]], None] = state.parsers["INTERACTION_CREATE"]

    def parse_in_their_language(data: dict[str, Any]) -> None:
        locale = data.get("locale")
        user = (data.get("member") or {}).get("user") or data.get("user") or {}
        if locale and user.get("id"):
            seen(int(user["id"]), str(locale))
        with i18n.use(locale):
            parse(data)

    state.parsers["INTERACTION_CREATE"] = parse_in_their_language


async def command_entry(
    tree: app_commands.CommandTree[Any], interaction: discord.Interaction, metrics: Metrics
) -> bool:
    """The check of ``tree``: refuse a stale payload, else acknowledge (the answer counted
    in ``metrics``); always True (a refusal is raised, so the one error handler answers
    it)."""
    if interaction.type != discord.InteractionType.application_command:
        return True
    data: Any = interaction.data or {}
    command = find_command(tree, interaction, data.get("name", ""))
    if command is None:
        raise StalePayload(_(OUT_OF_DATE))
    leaf, options = _leaf(command, data.get("options") or [])
    check_options(leaf, options)
    await Reply.of(interaction, metrics).acknowledge(leaf.extras.get("answer", "private"))
    return True


def find_command(
    tree: app_commands.CommandTree[Any],
    interaction: discord.Interaction,
    name: str,
) -> app_commands.Command[Any, ..., Any] | app_commands.Group | None:
    """The command ``name`` as ``tree`` has it (the guild's copy, else global)."""
    found = None
    if interaction.guild_id is not None:
        found = tree.get_command(name, guild=discord.Object(interaction.guild_id))
    found = found or tree.get_command(name)
    return found if isinstance(found, app_commands.Command | app_commands.Group) else None


def _leaf(
    command: Any,
    options: list[dict[str, Any]],
) -> tuple[app_commands.Command[Any, ..., Any], list[dict[str, Any]]]:
    """Follow subcommand options down to the command that runs, and its options."""
    while True:
        sub = next((o for o in options if o.get("type") in (1, 2)), None)
        if sub is None:
            break
        child = (
            command.get_command(sub.get("name", ""))
            if isinstance(command, app_commands.Group)
            else None
        )
        if child is None:
            raise StalePayload(_(OUT_OF_DATE))
        command, options = child, sub.get("options") or []
    if not isinstance(command, app_commands.Command):
        raise StalePayload(_(OUT_OF_DATE))
    return command, options


def check_options(
    command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]
) -> None:
    """Raise :class:`StalePayload` if ``options`` do not fit ``command``'s parameters."""
    params = {p.display_name: p for p in command.parameters}
    given = {o.get("name"): o for o in options}
    for name, option in given.items():
        param = params.get(str(name))
        if param is None:
            raise StalePayload(_(OUT_OF_DATE))
        problem = _problem(param, option, command.name)
        if problem:
            raise StalePayload(problem)
    if any(p.required and p.display_name not in given for p in params.values()):
        raise StalePayload(_(OUT_OF_DATE))


def _problem(param: app_commands.Parameter, option: dict[str, Any], command: str) -> str | None:
    """What is wrong with one option's value of /``command``, in words (None if
    nothing)."""
    value: Any = option.get("value")  # JSON from the gateway
    kind = param.type
    named = {"option": param.display_name, "command": command, "value": repr(value)[:40]}
    if option.get("type") != kind.value or not _has_type(kind, value):
        expected = _(WHAT.get(kind, N_("another kind of value")))
        return _(
            "The option `{option}` of /{command} needs {expected}{bounds}, not {value}. "
            "Your command list may be out of date — try again in a minute."
        ).format(expected=expected, bounds=_bounds(param), **named)
    if param.choices:
        if all(c.value != value for c in param.choices):
            names = ", ".join(i18n.translate_any(c.name, i18n.current()) for c in param.choices)
            return _(
                "The option `{option}` of /{command} has no choice {value} any more; "
                "pick one of: {names}."
            ).format(names=names, **named)
        return None
    if kind in (T.integer, T.number) and not _in_range(param, value):
        return _("The option `{option}` of /{command} must be{bounds} (not {value}).").format(
            bounds=_bounds(param), **named
        )
    if kind == T.string and not _in_range(param, len(value)):
        return _(
            "The option `{option}` of /{command} must be{bounds} characters long (not {value})."
        ).format(bounds=_bounds(param), **named)
    return None


def _has_type(kind: T, value: Any) -> bool:
    if kind == T.string:
        return isinstance(value, str)
    if kind == T.integer:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == T.number:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == T.boolean:
        return isinstance(value, bool)
    if kind in SNOWFLAKE_TYPES:
        return isinstance(value, str | int) and str(value).isdigit()
    return True


def _in_range(param: app_commands.Parameter, number: float) -> bool:
    low, high = param.min_value, param.max_value
    return (low is None or number >= low) and (high is None or number <= high)


def _bounds(param: app_commands.Parameter) -> str:
    """The range a value must be in, with its leading space ('' for none)."""
    low, high = param.min_value, param.max_value
    if low is not None and high is not None:
        return _(" from {low} to {high}").format(low=f"{low:g}", high=f"{high:g}")
    if low is not None:
        return _(" of at least {low}").format(low=f"{low:g}")
    if high is not None:
        return _(" of at most {high}").format(high=f"{high:g}")
    return ""
