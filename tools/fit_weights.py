"""Learn the hard level's evaluation weights from self-play (run by hand; slow).

For each set of weights of :data:`TABLES` — a variant's games at 2, 3 and 4 seats, or
its two-player games alone (``variant/2``, which the hard level uses when two play) —
plays seeded games between normal players, records every seat's
:data:`ai.pyramids.evaluate.FEATURES` at the start of each turn, and fits the weights of a
conditional logit — each seat's chance to be the winner is the softmax of its weighted
features, as the evaluation has it — to who won (a shared win counts 1/k for each of its k
winners; drawn games teach nothing and are left out), by gradient descent with a pull
towards the hand-set weights. Writes ``ai/pyramids/learned.py``, which the hard level uses::

    .venv/bin/python tools/fit_weights.py --workers 2
    .venv/bin/python tools/fit_weights.py --only european_war/2   # refit one set

Everything is seeded: the same options give the same file (the games are a function of
their seeds, the fit is deterministic).
"""

from __future__ import annotations

import argparse
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from math import exp, log
from pathlib import Path

import ai.pyramids
from ai.pyramids.evaluate import DEFAULT_WEIGHTS, FEATURES, Weights, seat_features
from ai.pyramids.learned import FITTED_BY, FITTED_ON, LEARNED
from rules import pyramids

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "ai" / "pyramids" / "learned.py"
TABLES: dict[str, tuple[str, tuple[tuple[int, int], ...]]] = {
    "european_war": ("european_war", ((4, 6), (3, 2), (2, 1))),
    "european_war/2": ("european_war", ((2, 30),)),
    "world_war_5": ("world_war_5", ((4, 4), (3, 2), (2, 1))),
}
"""Per set of weights (a variant, or ``variant/2`` for its two-player games): the
variant, and its tables as (players, games per unit of ``--games``)."""

Sample = tuple[list[list[float]], list[float]]
"""One position: the features of each seat still in, and its share of the win."""


def play(job: tuple[str, int, int]) -> list[Sample]:
    """The samples of one seeded game between normal players (none if it is drawn)."""
    variant, players, seed = job
    game, _ = pyramids.new_game(
        variant, [None] * players, seed, pyramids.Options(round_limit=200), arranged=True
    )
    positions: list[list[list[float] | None]] = []
    step = 0
    turn = -1
    while not game.over:
        if game.phase == "turn" and game.turn != turn:
            turn = game.turn
            positions.append(seat_features(game, None, DEFAULT_WEIGHTS))
        decision = game.deciders()[0]
        view = pyramids.view_for(game, decision.seat)
        game.apply(decision.seat, ai.pyramids.choose(view, "normal", seed * 7919 + step))
        step += 1
    if not game.winners:
        return []
    out: list[Sample] = []
    for feats in positions:
        seats = [s for s, f in enumerate(feats) if f is not None]
        share = [1 / len(game.winners) if s in game.winners else 0.0 for s in seats]
        if sum(share) > 0:
            out.append(([feats[s] for s in seats], share))  # type: ignore[misc]  # not None
    return out


def loss_and_gradient(
    samples: list[Sample], w: list[float], prior: list[float], pull: float
) -> tuple[float, list[float]]:
    """The mean negative log-likelihood (plus the pull) and its gradient."""
    k = len(w)
    grad = [0.0] * k
    total = 0.0
    for feats, share in samples:
        scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
        top = max(scores)
        ex = [exp(x - top) for x in scores]
        z = sum(ex)
        probs = [e / z for e in ex]
        for f, p, y in zip(feats, probs, share, strict=True):
            if y:
                total -= y * log(max(p, 1e-12))
            for j in range(k):
                grad[j] += (p - y) * f[j]
    n = len(samples)
    total /= n
    grad = [g / n for g in grad]
    for j in range(k):
        total += pull * (w[j] - prior[j]) ** 2
        grad[j] += 2 * pull * (w[j] - prior[j])
    return total, grad


def fit(samples: list[Sample], steps: int, pull: float) -> tuple[list[float], float, float]:
    """Gradient descent (Adam) from the hand-set weights; returns the weights, the loss
    before and after."""
    prior = list(DEFAULT_WEIGHTS.coefficients())
    w = prior[:]
    m = [0.0] * len(w)
    v = [0.0] * len(w)
    first, _ = loss_and_gradient(samples, w, prior, pull)
    rate, b1, b2 = 0.02, 0.9, 0.999
    for t in range(1, steps + 1):
        _, grad = loss_and_gradient(samples, w, prior, pull)
        for j, g in enumerate(grad):
            m[j] = b1 * m[j] + (1 - b1) * g
            v[j] = b2 * v[j] + (1 - b2) * g * g
            w[j] -= rate * (m[j] / (1 - b1**t)) / ((v[j] / (1 - b2**t)) ** 0.5 + 1e-8)
    last, _ = loss_and_gradient(samples, w, prior, pull)
    return w, first, last


def render(fitted: dict[str, tuple[Weights, int, int, float, float]], by: dict[str, str]) -> str:
    """The text of ``ai/pyramids/learned.py``: each set of weights of ``fitted`` with the
    command that fitted it (``by``)."""
    lines = [
        '"""The hard level\'s evaluation weights, learnt from self-play by',
        "``tools/fit_weights.py`` (generated: do not edit; run the tool again, with ``--only``",
        "for the sets to refit).",
        "",
        "Per set (a variant, or ``variant/2`` for its two-player games): the weights; the",
        "decided games, the positions fitted, and the mean log-loss on the positions of the",
        "games held out (every fifth), with the hand-set weights and with these; and the",
        'command that fitted them."""',
        "",
        "from __future__ import annotations",
        "",
        "from .evaluate import Weights",
        "",
        "LEARNED: dict[str, Weights] = {",
    ]
    for key, (w, _g, _n, _a, _b) in fitted.items():
        lines.append(f'    "{key}": Weights.from_coefficients(')
        lines.append("        (")
        for name, c in zip(FEATURES, w.coefficients(), strict=True):
            lines.append(f"            {c:.4f},  # {name}")
        lines.append("        )")
        lines.append("    ),")
    lines.append("}")
    lines.append("")
    lines.append("FITTED_ON: dict[str, tuple[int, int, float, float]] = {")
    for key, (_w, games, n, before, after) in fitted.items():
        lines.append(f'    "{key}": ({games}, {n}, {before:.4f}, {after:.4f}),')
    lines.append("}")
    lines.append("")
    lines.append("FITTED_BY: dict[str, str] = {")
    for key in fitted:
        lines.extend(_string_item(key, by[key]))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _string_item(key: str, text: str, width: int = 100) -> list[str]:
    """The lines of a dict item ``"key": "text",`` as ``ruff format`` writes it: on one
    line if it fits, else the string in parentheses, split at spaces where too long."""
    line = f'    "{key}": "{text}",'
    if len(line) <= width:
        return [line]
    if len(text) + 10 <= width:
        return [f'    "{key}": (', f'        "{text}"', "    ),"]
    parts = textwrap.wrap(text, width - 12, break_on_hyphens=False)
    quoted = [f'        "{p} "' for p in parts[:-1]] + [f'        "{parts[-1]}"']
    return [f'    "{key}": (', *quoted, "    ),"]


def fit_set(
    key: str, args: argparse.Namespace, start: float
) -> tuple[Weights, int, int, float, float]:
    """Play the games of one set of :data:`TABLES` and fit its weights."""
    variant, tables = TABLES[key]
    jobs = [
        (variant, players, args.seed + 1000 * players + i)
        for players, per in tables
        for i in range(per * args.games)
    ]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(play, jobs))
    decided = [g for g in games if g]
    held = decided[::5]  # every fifth decided game checks the fit, unseen
    samples = [s for g in decided if g not in held for s in g]
    checks = [s for g in held for s in g]
    w, before, after = fit(samples, args.steps, args.pull)
    prior = list(DEFAULT_WEIGHTS.coefficients())
    check_before = loss_and_gradient(checks, prior, prior, 0.0)[0]
    check_after = loss_and_gradient(checks, w, prior, 0.0)[0]
    print(
        f"{key}: {len(jobs)} games, {len(decided)} decided, {len(samples)} positions "
        f"fitted (log-loss {before:.4f} -> {after:.4f}), {len(checks)} held out "
        f"(log-loss {check_before:.4f} -> {check_after:.4f}) ({time.time() - start:.0f} s)",
        flush=True,
    )
    weights = Weights.from_coefficients(tuple(w))
    return weights, len(decided), len(samples), check_before, check_after


def main(argv: list[str] | None = None) -> None:
    """Play the games, fit each variant's weights and write the module."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="units of games (see TABLES)")
    parser.add_argument("--steps", type=int, default=300, help="gradient steps")
    parser.add_argument("--pull", type=float, default=0.002, help="pull to hand-set weights")
    parser.add_argument("--seed", type=int, default=10_000, help="seed of the first game")
    parser.add_argument("--workers", type=int, default=2, help="parallel processes")
    parser.add_argument(
        "--only",
        default=",".join(TABLES),
        help=f"comma-separated sets to fit, from: {', '.join(TABLES)}; the others are kept",
    )
    args = parser.parse_args(argv)
    only = [k for k in args.only.split(",") if k]
    unknown = [k for k in only if k not in TABLES]
    if unknown:
        parser.error(f"unknown set {', '.join(unknown)}; choose from {', '.join(TABLES)}")
    start = time.time()
    command = (
        f".venv/bin/python tools/fit_weights.py --games {args.games} --steps {args.steps} "
        f"--pull {args.pull} --seed {args.seed} --only {','.join(only)}"
    )
    fitted: dict[str, tuple[Weights, int, int, float, float]] = {}
    by: dict[str, str] = {}
    for key in TABLES:
        if key in only:
            fitted[key], by[key] = fit_set(key, args, start), command
        elif key in LEARNED:
            fitted[key], by[key] = (LEARNED[key], *FITTED_ON[key]), FITTED_BY[key]
    OUT.write_text(render(fitted, by))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
