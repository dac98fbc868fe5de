"""Building an action step by step, as a panel offers it: the kind first, then each of
its parameters from the values legal given the ones chosen before, then the whole action
in words to confirm. Made from the game contract's structured choices and the game's
presentation only, so every game gets it.

A front end keeps where a player stands in its panel's components (the kind and the
values so far, with the prompt's version) and asks :meth:`StepOps.step_now` at each
click: the next question and its offers, or a refusal when the panel is out of date.
A value too long to carry can be sent back by its place among the offers
(:class:`Nth`), valid only at the version it was offered at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.contract import Game, Param, Value
from rules.errors import RulesError
from rules.presentation import CommandOption

from .catalogue import N_, _
from .choices import Offer, _Table
from .core import OLD_BUTTON, ServiceBase, ServiceError, StalePrompt, player_seat
from .live import LiveGame

CHOOSE_KIND = N_("Choose what to do:")
"""The question of the first step."""


@dataclass(frozen=True, slots=True)
class Nth:
    """A parameter's value given by its place among the legal values offered at its
    step (for a value too long for a panel to carry): valid only at the version of the
    game it was offered at."""

    index: int


@dataclass(frozen=True, slots=True)
class Step:
    """Where a player building an action stands, and what is asked now.

    ``kind`` is the chosen action kind (None: it is asked now, ``offers`` are the kinds,
    each offer's ``value`` a kind's name); ``chosen`` the values of its first parameters,
    in order, with their words (``values``: by parameter name); ``forced`` says which of
    them was the only legal value, taken without asking; ``places`` where each stood
    among its step's offers. Then either ``param`` is asked, with ``question`` and
    ``offers``, or (``param`` None, a kind chosen) the action is complete and ``label``
    words it, to confirm. ``kind_label`` names the chosen kind; ``version`` is the
    prompt's version the panel answers, ``variant`` the game's registry name."""

    version: int
    variant: str
    kind: str | None
    kind_label: str
    chosen: tuple[Offer, ...]
    values: Mapping[str, Value]
    forced: tuple[bool, ...]
    places: tuple[int, ...]
    param: Param | None
    question: str
    offers: tuple[Offer, ...]
    label: str = ""

    @property
    def complete(self) -> bool:
        """Every parameter is chosen: the action is ready to confirm."""
        return self.kind is not None and self.param is None


def kind_label(game: Game, kind: str, label_of: Callable[[str], str | None]) -> str:
    """How a panel names action ``kind``: a kind without parameters by its action's own
    label (``label_of(kind)``), else by the turn command that makes it ("Invade"), else
    by its name."""
    spec = game.action_kinds.get(kind)
    if spec is not None and not spec.params:
        own = label_of(kind)
        if own:
            return own
    command = next((c for c in game.presentation.commands() if kind in c.kinds), None)
    name = command.name if command is not None else kind
    return name.replace("_", " ").capitalize()


def kind_offers(game: Game, actions: Iterable[Any], labels: Iterable[str]) -> tuple[Offer, ...]:
    """The kinds of ``actions`` as a panel's first step offers them, in the order of the
    game's action kinds (so a kind keeps its place from turn to turn; the pyramid games
    list their figures first), each with its :func:`kind_label` (``labels``: the
    actions' own)."""
    own: dict[str, str] = {}
    for action, label in zip(actions, labels, strict=False):
        own.setdefault(action.kind, label)
    order = {k: i for i, k in enumerate(game.action_kinds)}
    kinds = sorted(own, key=lambda k: order.get(k, len(order)))
    return tuple(Offer(k, kind_label(game, k, own.get), k) for k in kinds)


def first_step(game: Game, version: int, actions: Iterable[Any], labels: Iterable[str]) -> Step:
    """The first step of a panel answering a prompt made at ``version`` whose choices are
    ``actions`` (worded ``labels``): the kinds to choose from (:func:`kind_offers`)."""
    offers = kind_offers(game, actions, labels)
    return Step(version, game.name, None, "", (), {}, (), (), None, _(CHOOSE_KIND), offers)


def _option_for(t: _Table, kind: str, param: Param) -> CommandOption | None:
    """The turn command option that fills ``kind``'s ``param`` (its words)."""
    for command in t.words.commands():
        if kind not in command.kinds:
            continue
        for option in command.options:
            if t.param_for(kind, option) == param:
                return option
    return None


def _question(t: _Table, kind: str, param: Param) -> str:
    """What a step asks: the filling option's description, else the parameter in words."""
    option = _option_for(t, kind, param)
    if option is not None and option.description:
        return option.description.rstrip(".") + ":"
    if param.kind == "space":
        return _("Which {space}?").format(space=t.words.space_word)
    if param.kind == "seat":
        return _("Which player?")
    if param.kind == "card":
        return _("Which card?")
    if param.kind == "flag":
        return _("{name}: yes or no?").format(name=param.name.replace("_", " ").capitalize())
    return _("Choose the {name}:").format(name=param.name.replace("_", " "))


class StepOps(ServiceBase):
    """Panel steps of :class:`service.GameService`."""

    async def step_now(
        self,
        game_id: int,
        user_id: int,
        version: int,
        kind: str | None = None,
        chosen: Sequence[Value | Nth] = (),
        *,
        fill: bool = True,
    ) -> Step:
        """Where ``user_id`` stands in building an action on a panel made at the game's
        ``version``: ``kind`` and the values ``chosen`` for its first parameters (each
        must be legal given the ones before it). With ``fill``, a parameter with one
        legal value left is taken as chosen (marked ``forced``) instead of asked.

        Raises:
            ServiceError: the game is not running, the user holds no seat or has nothing
                to decide, a kind or value not legal at the prompt's version (a forged
                one: the game's own reason), or (:class:`StalePrompt`) the panel is out
                of date: the seat acted or a decision opened since ``version``.
        """
        live = await self._live(game_id, cache=False)
        seat = self._deciding(live, user_id)
        if not self._current(live, seat, version):
            raise StalePrompt(_(OLD_BUTTON))
        if any(isinstance(c, Nth) for c in chosen) and live.version != version:
            raise StalePrompt(_(OLD_BUTTON))
        t = _Table(live, user_id)
        if kind is None:
            if chosen:
                raise StalePrompt(_(OLD_BUTTON))
            assert t.seat is not None
            legal = t.state.legal_actions(t.seat)
            labels = [t.words.action_label(a, t.view, t.names) for a in legal]
            return first_step(t.game, version, legal, labels)
        if kind not in t.kinds:  # at the prompt's version: a forged kind
            raise ServiceError(_why(t, kind, {}))
        return _walk(t, version, kind, chosen, fill)

    @staticmethod
    def _deciding(live: LiveGame, user_id: int) -> int:
        """``user_id``'s seat, if it has a decision open now.

        Raises:
            ServiceError: the game is not running, the user is not seated or has nothing
                to decide.
        """
        seat = player_seat(live, user_id)
        assert live.state is not None  # a running game's
        if not any(d.seat == seat for d in live.state.deciders()):
            raise ServiceError(_("You have nothing to decide now: it is someone else's move."))
        return seat


def _walk(t: _Table, version: int, kind: str, chosen: Sequence[Value | Nth], fill: bool) -> Step:
    """The step of ``kind`` after ``chosen`` (see :meth:`StepOps.step_now`)."""
    params = t.params(kind)
    if len(chosen) > len(params):
        raise StalePrompt(_(OLD_BUTTON))
    values: dict[str, Value] = {}
    said: list[Offer] = []
    forced: list[bool] = []
    places: list[int] = []

    def take(param: Param, legal: tuple[Value, ...], value: Value) -> None:
        values[param.name] = value
        said.append(t.offer(_option_for(t, kind, param), param, value))
        forced.append(len(legal) == 1)
        places.append(legal.index(value))

    for param, given in zip(params, chosen, strict=False):
        legal = t.legal(kind, values)
        if isinstance(given, Nth):
            if not 0 <= given.index < len(legal):
                raise StalePrompt(_(OLD_BUTTON))
            given = legal[given.index]
        if given not in legal:  # at the prompt's version: a forged value
            rest = {
                p.name: v
                for p, v in zip(params[len(values) + 1 :], chosen[len(values) + 1 :], strict=False)
                if not isinstance(v, Nth)
            }
            raise ServiceError(_why(t, kind, {**values, param.name: given}, rest))
        take(param, legal, given)
    asked: Param | None = None
    offers: tuple[Offer, ...] = ()
    for param in params[len(chosen) :]:
        legal = t.legal(kind, values)
        if not legal:
            raise StalePrompt(_(OLD_BUTTON))
        if fill and len(legal) == 1:
            take(param, legal, legal[0])
            continue
        option = _option_for(t, kind, param)
        asked, offers = param, tuple(t.offer(option, param, v) for v in legal)
        break
    name = kind_label(t.game, kind, lambda k: _own_label(t, k))
    question, label = "", ""
    if asked is not None:
        question = _question(t, kind, asked)
    else:
        action = t.game.action_from_dict({"kind": kind, **values})
        label = t.words.action_label(action, t.view, t.names)
    return Step(
        version,
        t.game.name,
        kind,
        name,
        tuple(said),
        values,
        tuple(forced),
        tuple(places),
        asked,
        question,
        offers,
        label,
    )


def _why(
    t: _Table, kind: str, given: Mapping[str, Value], rest: Mapping[str, Value] | None = None
) -> str:
    """Why the game refuses ``kind`` with the values ``given`` (the last of them not
    legal) and ``rest`` (the values sent for the parameters after them): its own reason
    for the action they make, each parameter left filled with the first value the game
    offers (after the values given, else after a legal one in the last one's place); a
    general refusal when no such action can be made."""
    seat = t.seat
    if seat is None:
        return _("That choice is not valid in this game.")
    names = list(given)
    before = {n: given[n] for n in names[:-1]}
    filled: dict[str, Value] = dict(given)
    if names:
        legal = t.legal(kind, before)
        other = {**before, names[-1]: legal[0]} if legal else None
        for p in t.params(kind)[len(names) :]:
            if rest and p.name in rest:
                filled[p.name] = rest[p.name]
                continue
            nxt = t.legal(kind, filled)
            if not nxt and other is not None:
                nxt = t.legal(kind, other)
            if not nxt:
                break
            filled[p.name] = nxt[0]
            if other is not None:
                other[p.name] = nxt[0]
    try:
        action = t.game.action_from_dict({"kind": kind, **filled})
    except (RulesError, KeyError, TypeError, ValueError):  # no action of the game's
        return _("That choice is not valid in this game.")
    try:
        t.state.copy().apply(seat, action)
    except RulesError as exc:
        return str(exc)
    return _("That choice is not valid in this game.")


def _own_label(t: _Table, kind: str) -> str | None:
    """The label of ``kind``'s action without parameters, if it is one."""
    try:
        action = t.game.action_from_dict({"kind": kind})
    except RulesError:  # a kind that needs its parameters
        return None
    return t.words.action_label(action, t.view, t.names)
