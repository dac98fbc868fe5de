"""Europe at War: speed of the engine and the computer players, and balance figures from
bot playouts.

Run by hand (it takes a while; on a shared machine, under ``nice``):

    python -m benchmarks.europe_at_war [--games 40] [--players 2 3 5] [--options '{}']

Prints, for each table size, each as median / p90 / p99 of CPU time (a playout also as
its median CPU time and wall time), against the aims: a full 12-round bot playout
(5 players: <= 3 s), legal-action listing (p90 <= 20 ms), a battle's resolution
(<= 5 ms), the upkeep matching (<= 30 ms), a mid-game JSON round trip (<= 5 ms) and a bot
decision (<= 200 ms); then the balance of the bot games: win shares per nation, the share
of the neutral land held after each round, the round the land grab ends (fewer than 10%
of the neutral territories left unheld), and battles per turn.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ai.europe_at_war import EaPlayer
from benchmarks.stats import percentile, summary
from rules.europe_at_war import economy
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState

GAME = EaGame()
clock = time.thread_time
"""Single operations are timed in CPU time (the aims are for one core, and the machine
may be shared); a whole playout in CPU time and wall time."""
GRAB_OVER = 0.1
"""The land grab is over when less than this share of the starting neutral land is left."""


@dataclass
class Timings:
    """Every measurement of a batch of games."""

    playouts: list[float] = field(default_factory=list)
    playout_cpu: list[float] = field(default_factory=list)
    listing: list[float] = field(default_factory=list)
    decision: list[float] = field(default_factory=list)
    battle: list[float] = field(default_factory=list)
    upkeep: list[float] = field(default_factory=list)
    round_trip: list[float] = field(default_factory=list)
    winners: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)
    held: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    """Round -> the share of the starting neutral land held at its end, one per game."""
    grab_ends: list[int | None] = field(default_factory=list)
    battles: int = 0
    turns: int = 0
    games: int = 0


def neutral(g: EaState) -> int:
    """Territories nobody holds."""
    return len(g.map.territories) - len(g.control)


def bot_game(players: int, seed: int, options: Options, t: Timings) -> None:
    """One game played by the computer players through the contract, timed."""
    bot = EaPlayer()
    wall, cpu = time.perf_counter(), time.process_time()
    g, _ = GAME.new_game([None] * players, seed, options)
    start_neutral = neutral(g)
    grab_end: int | None = None
    last_round = 0
    steps = 0
    while not g.over:
        d = g.deciders()[0]
        t0 = clock()
        legal = g.legal_actions(d.seat)
        t1 = clock()
        action = bot.choose(g.view_for(d.seat), legal, "normal", seed * 1_000_003 + steps)
        t2 = clock()
        t.listing.append(t1 - t0)
        t.decision.append(t2 - t1)
        if d.kind == "upkeep":
            economy.supply(g, d.seat)
            t.upkeep.append(clock() - t2)
            t2 = clock()
        events = g.apply(d.seat, action)
        t3 = clock()
        if any(e.kind == "battle_result" for e in events):
            t.battle.append(t3 - t2)
        t.battles += sum(1 for e in events if e.kind == "battle")
        t.turns += sum(1 for e in events if e.kind == "turn")
        if g.round != last_round or g.over:
            if last_round:
                left = neutral(g) / start_neutral
                t.held[last_round].append(1 - left)
                if grab_end is None and left < GRAB_OVER:
                    grab_end = last_round
            last_round = g.round
            if g.round == options.rounds // 2:
                t.round_trip += round_trips(g)
        steps += 1
    t.playouts.append(time.perf_counter() - wall)
    t.playout_cpu.append(time.process_time() - cpu)
    for s in g.winners:
        t.winners[g.nations[s]] += 1
    t.played.update(g.nations)
    t.grab_ends.append(grab_end)
    t.games += 1


def round_trips(g: EaState, times: int = 20) -> list[float]:
    """Time the state's JSON round trip (to text and back, validated)."""
    out = []
    for _ in range(times):
        t0 = clock()
        EaState.from_dict(json.loads(json.dumps(g.to_dict())))
        out.append(clock() - t0)
    return out


def report(players: int, options: Options, t: Timings) -> None:
    """Print one table size's figures."""
    print(f"Europe at War, {players} players, {options.rounds} rounds, {t.games} bot games")
    cpu, cpu90 = statistics.median(t.playout_cpu), percentile(t.playout_cpu, 90)
    aim = "  (aim <= 3 s)" if players == 5 else ""
    print(f"  full bot playout:    CPU median {cpu:.3f} s, p90 {cpu90:.3f} s{aim}")
    print(f"                       wall {summary(t.playouts, 's', 1.0)}")
    print(f"  legal listing:       {summary(t.listing)}  (aim p90 <= 20 ms)")
    print(f"  battle resolution:   {summary(t.battle)}  (aim <= 5 ms)")
    print(f"  upkeep matching:     {summary(t.upkeep)}  (aim <= 30 ms)")
    print(f"  JSON round trip:     {summary(t.round_trip)}  (aim <= 5 ms)")
    print(f"  bot decision:        {summary(t.decision)}, max {max(t.decision) * 1000:.1f} ms")
    shares = ", ".join(
        f"{nation} {100 * t.winners[nation] / t.played[nation]:.0f}%"
        for nation in ("france", "britain", "prussia", "austria", "russia")
        if t.played[nation]
    )
    print(f"  win shares:          {shares} (of the games it played; a shared win counts)")
    held = " ".join(f"{r}:{100 * statistics.median(v):.0f}%" for r, v in sorted(t.held.items()))
    print(f"  neutral land held:   {held} (median by round)")
    ended = [r for r in t.grab_ends if r is not None]
    print(
        f"  land grab ends:      round {statistics.median(ended) if ended else '-'} "
        f"(median of {len(ended)}); still going at the end in {len(t.grab_ends) - len(ended)}"
    )
    per_turn = t.battles / max(1, t.turns)
    print(f"  battles per turn:    {per_turn:.2f} ({t.battles} in {t.turns} turns)")


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[5])
    parser.add_argument("--options", default="{}", help="the game's options as JSON")
    args = parser.parse_args()
    options = Options.from_dict(json.loads(args.options))
    for players in args.players:
        t = Timings()
        for seed in range(args.games):
            bot_game(players, seed, options, t)
        report(players, options, t)


if __name__ == "__main__":
    main()
