"""Structured choices for front ends: what a player may do now, the legal values of each
parameter, and acting from a turn command's typed options, through the game contract and
the game's presentation only (nothing here knows any game).

A front end (the Discord bot's generated slash commands and panels, the console) asks:

- :meth:`ChoiceOps.kinds_now`: the action kinds a user may take now;
- :meth:`ChoiceOps.values_now`: the legal values of one parameter given the ones chosen
  before it, each with its words (``presentation.value_label``);
- :meth:`ChoiceOps.offers`: the same for one option of a turn command (autocomplete);
- :meth:`ChoiceOps.act_with`: act from an action kind and its parameters (a button);
- :meth:`ChoiceOps.command`: act from a turn command and the options as typed.

Refusals are outcomes with ``ok`` False and a short reason: the game's own
:class:`~rules.errors.RulesError` wording, unchanged, or what was wrong with an option.
:func:`command_union` merges the turn commands of several games into one surface (the
bot registers one slash command per name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import rules
from rules import contract
from rules.contract import Game, Param, State, Value
from rules.presentation import CommandOption, CommandSpec, Presentation, Shown

from .catalogue import _
from .core import ServiceBase, ServiceError
from .outcome import Outcome

if TYPE_CHECKING:
    from .live import LiveGame

MAX_WALK = 2000
"""How many partial choices one question may visit (a bound on enumerating parameters
left out before the one asked about)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """One value a player may choose: ``word`` is what to send back (an id or a fixed
    choice's word), ``label`` how it reads, ``value`` the parameter's value."""

    value: Value
    label: str
    word: str


@dataclass(frozen=True, slots=True)
class UnionOption:
    """An option of a command as several games share it: ``required`` only when every
    game with the command requires it."""

    option: CommandOption
    required: bool


@dataclass(frozen=True, slots=True)
class UnionCommand:
    """A turn command as every game having it shares it (the first game's words);
    ``lookup``: it is a look-up in the first game that has it (it shows, it makes no
    action: :meth:`ChoiceOps.look_up`)."""

    name: str
    description: str
    options: tuple[UnionOption, ...]
    games: tuple[str, ...]
    lookup: bool = False


@dataclass(frozen=True, slots=True)
class LookedUp:
    """A look-up's answer for its asker: what the game shows, the asker's view any
    image is drawn from (a spectator's for someone not playing), the seats' names and
    the game's registry name."""

    shown: Shown
    view: Any
    names: tuple[str, ...]
    variant: str


def command_union(names: Iterable[str] | None = None) -> tuple[UnionCommand, ...]:
    """The turn commands of the games ``names`` (default: every registered game), one per
    command name, in order of first appearance. An option is the first game's; it is
    required only if every game with the command requires it."""
    specs: dict[str, list[tuple[str, CommandSpec]]] = {}
    for name in contract.game_names() if names is None else names:
        for spec in contract.game_named(name).presentation.commands():
            specs.setdefault(spec.name, []).append((name, spec))
    out = []
    for command, per_game in specs.items():
        options: dict[str, UnionOption] = {}
        for _game, spec in per_game:
            for o in spec.options:
                if o.name not in options:
                    everywhere = all(s.option(o.name) is not None for _, s in per_game)
                    options[o.name] = UnionOption(o, o.required and everywhere)
                elif not o.required:
                    options[o.name] = UnionOption(options[o.name].option, False)
        out.append(
            UnionCommand(
                command,
                per_game[0][1].description,
                tuple(options.values()),
                tuple(g for g, _spec in per_game),
                per_game[0][1].lookup,
            )
        )
    return tuple(out)


def spec_of(game: Game, command: str) -> CommandSpec | None:
    """``game``'s turn command called ``command``, if it has one."""
    return next((c for c in game.presentation.commands() if c.name == command), None)


def not_in_game(game: Game, command: str, prefix: str = "/") -> str:
    """The refusal of a turn command the table's game does not have (``prefix``: how
    the front end's commands start)."""
    words = game.presentation
    own = ", ".join(f"{prefix}{c.name}" for c in words.commands())
    return _(
        "{command} is not in this variant: this table plays {game}, "
        "whose turn commands are {commands}."
    ).format(command=f"{prefix}{command}", game=words.title, commands=own)


def unknown_value(words: Presentation, option: CommandOption, text: str) -> str:
    """The refusal of an option's value that names nothing."""
    shown = repr(text.strip()[:60])
    if option.choices:
        return _("`{option}` is one of: {choices}.").format(
            option=option.name, choices=", ".join(c.word for c in option.choices)
        )
    if option.kind == "space":
        return _(
            "There is no {space} called {name} on this board. "
            "Start typing and pick one from the list."
        ).format(space=words.space_word, name=shown)
    if option.kind == "seat":
        return _("There is no player called {name} at this table.").format(name=shown)
    if option.kind == "card":
        return _("There is no card called {name}.").format(name=shown)
    return _("{name} is not a possible `{option}`.").format(name=shown, option=option.name)


class _Table:
    """One user's side of a running game at one moment: what the questions need."""

    def __init__(self, live: LiveGame, user_id: int) -> None:
        state = live.state
        assert state is not None
        self.state: State = state
        self.game: Game = contract.game_named(live.variant)
        self.words: Presentation = self.game.presentation
        self.seat = live.seat_of(user_id)
        self.names = live.names()
        self.view = state.view_for(self.seat)
        deciding = self.seat is not None and any(d.seat == self.seat for d in state.deciders())
        self.kinds: tuple[str, ...] = (
            state.kinds(self.seat) if deciding and self.seat is not None else ()
        )

    def params(self, kind: str) -> tuple[Param, ...]:
        spec = self.game.action_kinds.get(kind)
        return spec.params if spec is not None else ()

    def param_for(self, kind: str, option: CommandOption) -> Param | None:
        """The parameter of ``kind`` that ``option`` fills."""
        by_name = {p.name: p for p in self.params(kind)}
        return next((by_name[n] for n in option.fills if n in by_name), None)

    def legal(self, kind: str, chosen: Mapping[str, Value]) -> tuple[Value, ...]:
        if self.seat is None:
            return ()
        return self.state.values(self.seat, kind, chosen)

    def value(self, option: CommandOption, param: Param, text: str) -> Value | None:
        """The value typed for ``option`` (a fixed choice's word or label, else the
        game's reading of it)."""
        if option.choices:
            low = text.strip().lower()
            return next(
                (c.value for c in option.choices if low in (c.word.lower(), c.label.lower())),
                None,
            )
        return self.words.value_of(param, text, self.view, self.names)

    def offer(self, option: CommandOption | None, param: Param, value: Value) -> Offer:
        if option is not None and option.choices:
            for c in option.choices:
                if c.value == value:
                    return Offer(value, c.label, c.word)
        label = self.words.value_label(param, value, self.view, self.names)
        return Offer(value, label, str(value))

    def walk(
        self,
        kind: str,
        fixed: Mapping[str, Value],
        stop: str | None,
        prefer: Mapping[str, Sequence[Value]],
        limit: int,
    ) -> Iterable[dict[str, Value]]:
        """Every legal way to fill ``kind``'s parameters, keeping
        ``fixed`` ones; up to parameter ``stop`` (exclusive) when given. A parameter in
        ``prefer`` takes only its first workable value, in that order."""
        budget = [MAX_WALK]
        params = self.params(kind)

        def rec(i: int, chosen: dict[str, Value]) -> Iterable[dict[str, Value]]:
            budget[0] -= 1
            if budget[0] < 0:
                return
            if i == len(params) or params[i].name == stop:
                yield dict(chosen)
                return
            p = params[i]
            legal = self.legal(kind, chosen)
            if p.name in fixed:
                if fixed[p.name] in legal:
                    yield from rec(i + 1, {**chosen, p.name: fixed[p.name]})
                return
            if p.name in prefer:
                order = [v for v in prefer[p.name] if v in legal]
                for v in order:
                    found = list(rec(i + 1, {**chosen, p.name: v}))
                    if found:
                        yield from found
                        return
                return
            for v in legal:
                yield from rec(i + 1, {**chosen, p.name: v})

        for count, done in enumerate(rec(0, {}), 1):
            yield done
            if count >= limit:
                return


def _unsaid(spec: CommandSpec, t: _Table, kind: str, missing: Sequence[Param]) -> str:
    """The refusal of a command that fits several actions, naming the options still to
    give: "Say `medium`, `small` as well: …", or "Say one of `large`, `medium`, `small`:
    …" when several options fill the one parameter left."""
    parts: list[list[str]] = []
    for p in missing:
        names = [f"`{o.name}`" for o in spec.options if not o.choices and t.param_for(kind, o) == p]
        if names:
            parts.append(names)
    command = f"/{spec.name}"
    if len(parts) == 1 and len(parts[0]) > 1:
        return _("Say one of {options}: more than one {command} fits.").format(
            options=", ".join(parts[0]), command=command
        )
    said = []
    for names in parts:
        said.append(
            names[0] if len(names) == 1 else _("one of {options}").format(options=", ".join(names))
        )
    return _("Say {options} as well: more than one {command} fits.").format(
        options=", ".join(said), command=command
    )


class ChoiceOps(ServiceBase):
    """Structured-choice queries and acting by kind or command, for
    :class:`service.GameService`."""

    if TYPE_CHECKING:

        async def act(
            self, game_id: int, user_id: int, action: Any, *, version: int | None = None
        ) -> Outcome: ...

    async def _table(self, game_id: int, user_id: int) -> _Table:
        live = await self._live(game_id, cache=False)
        if live.state is None:
            raise ServiceError(_("The game has not started yet."))
        return _Table(live, user_id)

    async def kinds_now(self, game_id: int, user_id: int) -> tuple[str, ...]:
        """The action kinds ``user_id`` may take now in game ``game_id`` (empty when the
        user does not decide now, is not seated, or the game is not running)."""
        try:
            return (await self._table(game_id, user_id)).kinds
        except ServiceError:
            return ()

    async def values_now(
        self, game_id: int, user_id: int, kind: str, param: str, chosen: Mapping[str, Value]
    ) -> tuple[Offer, ...]:
        """The legal values of ``kind``'s parameter ``param`` for ``user_id`` now, given
        the values ``chosen`` for parameters before it (those left out may be anything
        legal), each with its words; empty when none."""
        try:
            t = await self._table(game_id, user_id)
        except ServiceError:
            return ()
        found = next((p for p in t.params(kind) if p.name == param), None)
        if found is None or kind not in t.kinds:
            return ()
        return self._values(t, kind, found, None, chosen)

    @staticmethod
    def _values(
        t: _Table,
        kind: str,
        param: Param,
        option: CommandOption | None,
        chosen: Mapping[str, Value],
    ) -> tuple[Offer, ...]:
        before = []
        for p in t.params(kind):
            if p.name == param.name:
                break
            before.append(p.name)
        fixed = {k: v for k, v in chosen.items() if k in before}
        seen: dict[Value, None] = {}
        for prefix in t.walk(kind, fixed, param.name, {}, MAX_WALK):
            for v in t.legal(kind, prefix):
                seen[v] = None
        return tuple(t.offer(option, param, v) for v in seen)

    async def offers(
        self, game_id: int, user_id: int, command: str, option: str, typed: Mapping[str, str]
    ) -> tuple[Offer, ...]:
        """Autocomplete: the values of turn command ``command``'s option ``option`` that
        lead to a legal action for ``user_id`` now, given the other options as ``typed``
        (unreadable ones are ignored); empty for anyone who may not use it now."""
        try:
            t = await self._table(game_id, user_id)
        except ServiceError:
            return ()
        spec = spec_of(t.game, command)
        wanted = spec.option(option) if spec is not None else None
        if spec is None or wanted is None:
            return ()
        out: dict[Value, Offer] = {}
        for kind in (k for k in spec.kinds if k in t.kinds):
            param = t.param_for(kind, wanted)
            if param is None:
                continue
            chosen: dict[str, Value] = {}
            for name, text in typed.items():
                other = spec.option(name)
                if other is None or name == option or not text:
                    continue
                p = t.param_for(kind, other)
                v = t.value(other, p, text) if p is not None else None
                if p is not None and v is not None:
                    chosen[p.name] = v
            for o in self._values(t, kind, param, wanted, chosen):
                out.setdefault(o.value, o)
        if wanted.choices:
            return tuple(out[c.value] for c in wanted.choices if c.value in out)
        return tuple(out.values())

    async def act_with(
        self,
        game_id: int,
        user_id: int,
        kind: str,
        params: Mapping[str, Value],
        *,
        version: int | None = None,
    ) -> Outcome:
        """Act from an action ``kind`` and its ``params`` (built by the game's
        ``action_from_dict``); with ``version``, as the answer to that prompt (an old one
        is refused). Returns the action's outcome, or a refusal in the game's words."""
        try:
            live = await self._live(game_id, cache=False)
            game = contract.game_named(live.variant)
            action = game.action_from_dict({"kind": kind, **params})
        except ServiceError as exc:
            return Outcome.refused(game_id, str(exc))
        except rules.RulesError:
            return Outcome.refused(game_id, _("That choice is not valid in this game."))
        return await self.act(game_id, user_id, action, version=version)

    async def command(
        self, game_id: int, user_id: int, command: str, typed: Mapping[str, str]
    ) -> Outcome:
        """Act from turn command ``command`` with its options as ``typed`` (option name ->
        text). Options left out are filled when only one legal action fits (an option
        with fixed choices takes its first workable one). Returns the action's outcome,
        or a refusal: a command or option the game lacks, a value that names nothing,
        options that fit several actions, or the game's own reason."""
        try:
            t = await self._table(game_id, user_id)
            kind, params = self._resolve(t, command, typed)
        except ServiceError as exc:
            return Outcome.refused(game_id, str(exc))
        return await self.act_with(game_id, user_id, kind, params)

    async def look_up(
        self, game_id: int, user_id: int, command: str, typed: Mapping[str, str]
    ) -> LookedUp:
        """What look-up ``command`` (a command spec with ``lookup``) shows ``user_id``,
        from the options as typed: the game's answer from the user's view (a
        spectator's for someone not playing). Changes nothing.

        Raises:
            ServiceError: the game has not started, it has no such look-up, or an option
                names nothing (the game's own words).
        """
        t = await self._table(game_id, user_id)
        spec = spec_of(t.game, command)
        if spec is None or not spec.lookup:
            raise ServiceError(not_in_game(t.game, command))
        for name in typed:
            if spec.option(name) is None:
                raise ServiceError(
                    _("{command} has no option `{option}` in {game}.").format(
                        command=f"/{command}", option=name, game=t.words.title
                    )
                )
        try:
            shown = t.words.look_up(command, typed, t.view, t.names)
        except rules.RulesError as exc:
            raise ServiceError(str(exc)) from None
        return LookedUp(shown, t.view, tuple(t.names), t.game.name)

    @staticmethod
    def _resolve(t: _Table, command: str, typed: Mapping[str, str]) -> tuple[str, dict[str, Value]]:
        spec = spec_of(t.game, command)
        if spec is None:
            raise ServiceError(not_in_game(t.game, command))
        if spec.lookup:
            raise ServiceError(
                _("{command} shows something; it makes no move.").format(command=f"/{command}")
            )
        for name in typed:
            if spec.option(name) is None:
                raise ServiceError(
                    _("{command} has no option `{option}` in {game}.").format(
                        command=f"/{command}", option=name, game=t.words.title
                    )
                )
        open_kinds = [k for k in spec.kinds if k in t.kinds]
        if not open_kinds and spec.unavailable and t.seat is not None:
            raise ServiceError(spec.unavailable)
        kind = open_kinds[0] if open_kinds else spec.kinds[0]
        given: dict[str, Value] = {}
        by: dict[str, str] = {}
        for name, text in typed.items():
            option = spec.option(name)
            assert option is not None
            param = t.param_for(kind, option)
            if param is None:
                raise ServiceError(
                    _("{command} takes no `{option}` now.").format(
                        command=f"/{command}", option=name
                    )
                )
            value = t.value(option, param, text)
            if value is None:
                raise ServiceError(unknown_value(t.words, option, text))
            if param.name in given and given[param.name] != value:
                raise ServiceError(
                    _("Give only one of {options} now.").format(
                        options=", ".join(f"`{o}`" for o in (by[param.name], name))
                    )
                )
            given[param.name], by[param.name] = value, name
        options = {p: o for o in spec.options if (p := t.param_for(kind, o)) is not None}
        prefer = {p.name: [c.value for c in o.choices] for p, o in options.items() if o.choices}
        missing = [p for p in t.params(kind) if p.name not in given]
        if not missing:
            return kind, given
        fits = list(t.walk(kind, given, None, prefer, 2))
        if len(fits) == 1:
            return kind, fits[0]
        if fits:
            raise ServiceError(_unsaid(spec, t, kind, missing))
        for p in missing:  # nothing fits: let the game say why, if the options tell enough
            o = options.get(p)
            if o is None or not o.choices:
                raise ServiceError(
                    _(
                        "No {command} with those options is possible now: pick them from "
                        "the list as you type."
                    ).format(command=f"/{command}")
                )
            given[p.name] = o.choices[0].value
        return kind, given
