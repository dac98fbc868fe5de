"""A game's presentation spec: its words, options and rule book, free of any transport.

Discord and the console show a game only through its :class:`Presentation` (and its
images, which the renderer's own registry supplies): how to call its sides and spaces,
the words for its actions, events, prompts and results, how each kind of decision is
spoken of while it is awaited (:class:`DecisionWords`), how the channel follows a contest
in one message (:class:`Contest`), the options a host may set, the rule book behind
``/rules``, and the turn commands players type (:class:`CommandSpec`), from which the
bot's slash commands and the console are made.
Every method that takes a view uses only what that view
shows, so a spectator's view gives words fit for the channel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .catalogue import _
from .contract import Param, Value
from .events import Event


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a host may set: its name (a key of the game's options), ``kind``
    (``flag``, ``number`` or ``word``), a one-line summary, and its legal values (the
    ``choices`` of a word, the ``low``/``high`` bounds of a number).

    How a lobby's Options panel offers it: ``steps`` are the values of a number a host
    picks from there (none: a number is not on the panel), ``labels`` how each of the
    ``choices`` of a word, or each of the ``steps`` of a number, reads there (none: the
    value itself), and ``panel`` False keeps the option off the panel altogether (it is
    then set only as a server's default, or where a front end asks for it by name)."""

    name: str
    kind: str
    summary: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    steps: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()
    panel: bool = True

    def label(self, value: object) -> str:
        """How ``value`` of this option reads (its label if it has one)."""
        values: tuple[object, ...] = self.choices if self.kind == "word" else self.steps
        if self.kind == "flag":
            return _("yes") if value else _("no")
        if value in values and len(self.labels) == len(values):
            return self.labels[values.index(value)]
        return str(value)


@dataclass(frozen=True, slots=True)
class OptionChoice:
    """A fixed choice of a command option: the ``word`` a player sends, its ``label``,
    and the parameter ``value`` it stands for."""

    word: str
    label: str
    value: Value


@dataclass(frozen=True, slots=True)
class CommandOption:
    """One option of a turn command.

    ``fills`` names the parameter it sets: the first name in it that the chosen action
    kind has (so /place's ``large`` sets ``large`` of one kind and ``field`` of another).
    ``kind`` is that parameter's :class:`~rules.contract.Param` kind, which says how a
    front end offers its values. With ``choices`` the option is a fixed list (offered in
    that order; left out, the first choice that makes a legal action is taken); without,
    its values are the legal ones now, and left out it must follow from the others.
    """

    name: str
    description: str
    fills: tuple[str, ...]
    kind: str
    required: bool = True
    choices: tuple[OptionChoice, ...] = ()


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One turn command: its ``name`` (no slash), a one-line ``description``, the action
    ``kinds`` it makes (the first one the player may take now is used), its options,
    and ``unavailable``: the refusal when the player may take none of its kinds now
    (empty: the game's own refusal of the first kind is given).

    With ``lookup`` it is a look-up instead: it makes no action (``kinds`` empty) and
    :meth:`Presentation.look_up` answers it, privately, at any time, to a player or a
    spectator; its options are read as typed (a fixed choice's word, or text)."""

    name: str
    description: str
    kinds: tuple[str, ...]
    options: tuple[CommandOption, ...] = ()
    unavailable: str = ""
    lookup: bool = False

    def option(self, name: str) -> CommandOption | None:
        """The option called ``name``, if the command has it."""
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True, slots=True)
class Shown:
    """What a look-up command shows its asker, privately: ``lines`` of words, and
    ``image``, the name of one of the game's extra images (``GameImages.extras``) drawn
    from the asker's view (``None``: words only)."""

    lines: tuple[str, ...]
    image: str | None = None


@dataclass(frozen=True, slots=True)
class TallyGroup:
    """One type on a counts panel: its ``label``, the choices it stands for (the
    decision's legal actions of that type, in the order they are taken: counting ``n``
    takes the first ``n``), and how many the panel starts at (``suggested``).

    ``cost`` is what each one counted adds to the tally's total (a chit's price; 1 when
    the total counts choices). With ``whole``, counting ``n`` takes the one action
    ``actions[n - 1]`` (an amount: RP left in a city) instead of the first ``n``. With
    places (:attr:`Tally.places`), ``placed[p]`` holds the group's actions at place
    ``p`` (empty where it cannot go) and ``actions`` is not used."""

    label: str
    actions: tuple[Any, ...]
    suggested: int = 0
    cost: int = 1
    whole: bool = False
    placed: tuple[tuple[Any, ...], ...] = ()

    def at(self, place: int) -> tuple[Any, ...]:
        """The group's actions at ``place`` (its ``actions`` when it has no places)."""
        if not self.placed:
            return self.actions
        return self.placed[place] if 0 <= place < len(self.placed) else ()

    def taken(self, n: int, place: int = 0) -> tuple[Any, ...]:
        """The actions counting ``n`` of this group stands for, at ``place``."""
        actions = self.at(place)
        if self.whole:
            return (actions[n - 1],) if n else ()
        return actions[:n]


BOUNDS = ("exactly", "at most", "at least")
"""How a tally's total binds the counts: the panel's sum must equal it, stay at or under
it, or reach it."""


@dataclass(frozen=True, slots=True)
class Tally:
    """A decision answered with a count per type rather than one pick at a time (a
    battle's casualties, chits to buy, units to disband): the counts of ``groups``,
    each weighed by its ``cost``, must sum to ``total`` (``bound``: exactly, at most or
    at least it); ``noun`` names what is counted ("casualties", "RP"). The panel starts
    at the game's suggestion (each group's ``suggested``), so a player who agrees
    confirms in one click.

    ``places`` (labels, with ``place_word`` naming one, "city") is a choice the whole
    panel shares, starting at ``place``: where the counted choices go. ``finish`` is the
    action that ends the decision, taken after the counted ones on Confirm unless they
    opened new choices (a bonus draw); ``None``: the counted choices end it."""

    total: int
    noun: str
    groups: tuple[TallyGroup, ...]
    bound: str = "exactly"
    finish: Any = None
    places: tuple[str, ...] = ()
    place: int = 0
    place_word: str = ""


@dataclass(frozen=True, slots=True)
class RuleSection:
    """One section of the rule book: its title and its rulings by number."""

    title: str
    rulings: Mapping[str, str]

    def text(self) -> str:
        """The section as Markdown: the title, then each ruling with its number in bold."""
        lines = [f"**{self.title}**"]
        lines += [f"**{number}** {body}" for number, body in self.rulings.items()]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class DecisionWords:
    """How front ends speak of one kind of decision.

    ``name`` is what it is called when its decider is pointed to it ("the duel").

    ``waiting`` is the channel's line while it is awaited, as a template a front end
    fills: ``{who}`` is the decider (a call by name for a person when ``call``, else the
    name), or with ``together`` every decider of the kind at once, comma-separated (a
    window all answer); ``{until}`` is the ``until`` template, its ``{time}`` the
    deadline as the front end shows a time, or nothing without a deadline. ``computer``
    is a computer decider's line instead (same fields), if it reads otherwise. Empty
    ``waiting``: no line.

    ``ping``: a person deciding this is called to act at once (a chat server's ping),
    not only named.
    """

    name: str
    waiting: str = ""
    until: str = ""
    together: bool = False
    computer: str = ""
    call: bool = True
    ping: bool = False

    def line(self, who: Sequence[str], time: str | None, computer: bool = False) -> str:
        """The waiting line for the deciders ``who`` (as the front end names them), with
        the deadline ``time`` (None: none); ``computer``: a computer decides."""
        until = self.until.format(time=time) if time else ""
        template = self.computer if computer and self.computer else self.waiting
        return template.format(who=", ".join(who), until=until)


class Contest(Protocol):
    """A contest the channel follows in one message of its own, edited at each step,
    rather than a message per step (the pyramid games: an attack's diplomacy window and
    duel). Views and events are the channel's (the spectator's view, public events)."""

    def under_way(self, view: Any) -> bool:
        """True while ``view`` shows a contest under way."""
        ...

    def step(self, events: Sequence[Event]) -> bool:
        """True when one action's ``events`` only took the contest under way a step
        further (a card played, a window answered): its message is edited."""
        ...

    def result(self, events: Sequence[Event]) -> Event | None:
        """The event among ``events`` that ended a contest (shown with the board), or
        ``None``."""
        ...

    def lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Where the contest under way stands (the cards played so far), shown below its
        running log."""
        ...


class Presentation(Protocol):
    """The words of one game. ``names[seat]`` is how each player is called."""

    @property
    def title(self) -> str:
        """The game's name for people ("European War")."""
        ...

    @property
    def side_word(self) -> str:
        """What a side is called ("power", "continent")."""
        ...

    @property
    def space_word(self) -> str:
        """What a place on the board is called ("field", "territory")."""
        ...

    def options(self) -> tuple[OptionSpec, ...]:
        """The options a host may set, in the order to show them."""
        ...

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """A table's options (JSON, as the game's ``options_to_dict`` gives them) in a
        few words each, for a lobby message ("diplomacy window 30 s"); an option at a
        value not worth mentioning gives none."""
        ...

    def help_text(self) -> str | None:
        """How to play the game on a chat server, in Markdown under 2000 characters
        (its turn commands by name, with a slash), or ``None``: a front end then makes
        one from :attr:`title` and :meth:`commands`."""
        ...

    def side_name(self, side: str) -> str:
        """A side's name for people ("Central Powers (Germany and Austria-Hungary)")."""
        ...

    def find_side(self, text: str) -> str | None:
        """The side a player means by ``text`` (its id, its name, or a short form such as
        "russia"), or ``None`` if none or several match."""
        ...

    def computer_name(self, side: str) -> str:
        """A computer player's display name at that side ("Russia (computer)")."""
        ...

    def describe(self, event: Event, view: Any, names: Sequence[str]) -> str | None:
        """One sentence for ``event`` (``None``: bookkeeping without words). A private
        event is worded for its one reader."""
        ...

    def action_label(self, action: Any, view: Any, names: Sequence[str]) -> str:
        """A short label for one of the game's actions: a button, a select option, a
        console line."""
        ...

    def value_label(self, param: Param, value: Value, view: Any, names: Sequence[str]) -> str:
        """How one parameter value reads (a space's name, a card, a player)."""
        ...

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        """The question a decision of ``kind`` asks the viewer of ``view``."""
        ...

    def offered(self, kind: str, legal: Sequence[Any]) -> tuple[Any, ...]:
        """What a prompt offers: the legal actions, plus any the rules say must be
        offered whatever the player holds (refused by ``apply`` if not held)."""
        ...

    def status_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Public lines about the position beyond the board (a battle under way)."""
        ...

    def summary_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """``/status``: the position in a few public lines (turn, supplies, decks)."""
        ...

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """What only the viewer of ``view`` knows (its hand): never for a channel."""
        ...

    def hand_changed(self, before: Any, after: Any) -> bool:
        """True when the viewer's own holding (its hand) differs between two of its views,
        ``before`` and ``after`` an action: a front end shows it again then."""
        ...

    def board_changed(self, before: Any, after: Any, events: Sequence[Event]) -> bool:
        """True when the channel should see the board again after a change that took the
        spectator's view from ``before`` to ``after`` with public ``events``."""
        ...

    def result_line(self, view: Any, names: Sequence[str]) -> str | None:
        """The end of a finished game in one line, or ``None`` while it goes on."""
        ...

    def timeout_note(self, kind: str, name: str) -> str | None:
        """A public line when ``name``'s decision of ``kind`` timed out and the seat's
        computer player chose (see :class:`~rules.contract.OnTimeout`), or ``None``."""
        ...

    def rulebook(self) -> tuple[RuleSection, ...]:
        """The rule book's sections, in order."""
        ...

    def commands(self) -> tuple[CommandSpec, ...]:
        """The turn commands a player types (slash commands, console words), in order."""
        ...

    def look_up(
        self, command: str, typed: Mapping[str, str], view: Any, names: Sequence[str]
    ) -> Shown:
        """What look-up ``command`` (a :class:`CommandSpec` with ``lookup``) shows the
        viewer of ``view`` (a spectator's view for someone not playing), given its
        options as typed.

        Raises:
            RulesError: the game has no such look-up, or an option names nothing (the
                message says which, for the asker).
        """
        ...

    def panel_decisions(self) -> Mapping[str, str]:
        """The decision kinds answered on a private panel, each with how its choices are
        shown: ``buttons`` (a select when there are too many), ``select``, or ``counts``
        (a count per type with + and −, from :meth:`tally`; one pick at a time on a
        select where it gives none). The other
        decisions (turns) are answered with the turn commands, or on a turn panel made
        from the structured choices (which names a kind with parameters after the
        command that makes it, and asks each parameter with its option's description)."""
        ...

    def tally(
        self, kind: str, legal: Sequence[Any], view: Any, names: Sequence[str]
    ) -> Tally | None:
        """A decision of ``kind`` shown as ``counts`` (:meth:`panel_decisions`): its
        ``legal`` actions grouped by type, how many to take in all, and the suggestion
        the panel starts at; ``None`` when it is not answered by counts now."""
        ...

    def decisions(self) -> Mapping[str, DecisionWords]:
        """The words of its decision kinds, in the order a channel lists who is awaited."""
        ...

    def contest(self) -> Contest | None:
        """How the channel follows the game's contests, or ``None``: it has none (each
        step is a message of its own)."""
        ...

    def choice_tone(self, kind: str) -> str:
        """How a panel shows a choice of action ``kind``: ``primary``, ``secondary`` (a
        quiet choice, such as letting something pass) or ``danger`` (stopping something)."""
        ...

    def value_of(self, param: Param, text: str, view: Any, names: Sequence[str]) -> Value | None:
        """The value of ``param`` a player means by typed ``text`` (its id, or how
        :meth:`value_label` reads), legal now or not; ``None`` if there is no such value."""
        ...

    def reader(self) -> LineReader | None:
        """The game's own reader of typed lines and its words for a text screen (a
        console), or ``None``: its turn commands are read from :meth:`commands` alone."""
        ...


@dataclass(frozen=True, slots=True)
class Typed:
    """What a text front end knows when it reads one line typed by one player."""

    board: Any
    """The game's board, if the front end has it (``None``: the game finds it in ``view``)."""
    variant: str
    """The game's registry name."""
    names: Sequence[str]
    """Display names by seat."""
    powers: Sequence[str] = ()
    """Each seat's side id."""
    seat: int | None = None
    hand: Sequence[int] = ()
    """What the player holds, if the game deals something (its card numbers)."""
    prompt_kind: str | None = None
    """The kind of the player's open decision, or ``None`` when the player need not decide."""
    choices: Sequence[Any] = ()
    """The open decision's choices (the legal actions)."""
    view: Any = None
    """The player's view."""
    numbers: Sequence[int] = ()
    """The number the player picks each of ``choices`` by (:meth:`LineReader.numbers`);
    empty: 1, 2, … in order."""

    def numbered(self, number: int) -> Any:
        """The choice the player picks by ``number``.

        Raises:
            Unreadable: there is nothing to choose, or no choice has that number (the
                message says which numbers there are).
        """
        if not self.choices:
            raise Unreadable(_("There is nothing to choose right now."))
        numbers = list(self.numbers) or list(range(1, len(self.choices) + 1))
        if number in numbers:
            return self.choices[numbers.index(number)]
        if numbers == list(range(1, len(numbers) + 1)):
            raise Unreadable(_("Choose a number from 1 to {n}.").format(n=len(numbers)))
        shown = ", ".join(str(n) for n in numbers[:-1])
        raise Unreadable(
            _("Choose one of the numbers shown: {numbers} or {last}.").format(
                numbers=shown, last=numbers[-1]
            )
        )


class Unreadable(ValueError):
    """A typed line a game's :class:`LineReader` cannot read; the message says why, for
    the player."""


class LineReader(Protocol):
    """A game's forgiving reading of typed lines, and its words for a text screen.

    A game whose turn commands and answers read well from :meth:`Presentation.commands`
    alone needs none; one with forgiving names (a unique start of a field's name, several
    names in a row, a rank standing for a card) gives one from
    :meth:`Presentation.reader`.
    """

    @property
    def tagline(self) -> str:
        """A few words after the game's title when a player picks a game ("dice")."""
        ...

    def words(self) -> Mapping[str, tuple[str, ...]]:
        """Its command words beyond the turn commands (the words that answer its
        decisions), and aliases of any of its words, each canonical word with its aliases."""
        ...

    def refusal(self, word: str) -> str | None:
        """Why ``word`` (another game's command word, or a front end's own word that
        means nothing in this game) is not played here, in this game's words; ``None``:
        the usual refusal (for a front end's own word: it is played)."""
        ...

    def read(self, word: str, rest: Sequence[str], typed: Typed) -> Any | None:
        """The action meant by command ``word`` followed by the words ``rest``, or ``None``
        when the turn command is read from its spec.

        Raises:
            Unreadable: the words name nothing, or several things the choices cannot tell
                apart.
        """
        ...

    def completions(self, word: str, typed: Typed) -> list[str] | None:
        """What may follow command ``word`` (one typeable word each), or ``None``: the
        front end offers the spec's values."""
        ...

    def help_lines(self) -> list[str]:
        """Help on its words beyond the turn commands (``word ARGS   what it does``)."""
        ...

    def help_notes(self) -> list[str]:
        """Closing notes of the help (how names may be typed)."""
        ...

    def prompt_lines(
        self, kind: str, text: str, view: Any, names: Sequence[str], seat: int, hand_due: bool
    ) -> list[str]:
        """What a text screen shows for a decision of ``kind`` asking ``text`` of
        ``seat`` (``hand_due``: its holding changed since last shown), before its choices."""
        ...

    def numbers(self, kind: str, view: Any, choices: Sequence[Any]) -> list[int]:
        """The number a player picks each of ``choices`` by (a decision of ``kind``,
        offered to the viewer of ``view``): distinct, from 1, and the same for an answer
        in every prompt of one decision, so numbers may be skipped (a duel's cards keep
        theirs as cards are played)."""
        ...

    def board_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The whole position as text (every space and what is on it)."""
        ...

    def hand_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """What the viewer holds and knows, as text (the ``hand`` command)."""
        ...

    def confirm(self, action: Any, view: Any, seat: int) -> str | None:
        """A question to ask before sending ``action`` for ``seat`` (one it may regret,
        judged on the public ``view``), or ``None``."""
        ...

    def note(self, action: Any, typed: Typed) -> str | None:
        """A line to show before sending ``action`` for the player whose line ``typed``
        describes, when it does something the player may not expect (a card standing in
        for another), or ``None``."""
        ...
