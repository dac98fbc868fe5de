"""The hard level's evaluation weights, learnt from self-play by
``tools/fit_weights.py`` (generated: do not edit; run the tool again, with ``--only``
for the sets to refit).

Per set (a variant, or ``variant/2`` for its two-player games): the weights; the
decided games, the positions fitted, and the mean log-loss on the positions of the
games held out (every fifth), with the hand-set weights and with these; and the
command that fitted them."""

from __future__ import annotations

from .evaluate import Weights

LEARNED: dict[str, Weights] = {
    "european_war": Weights.from_coefficients(
        (
            -0.2163,  # home2
            -0.0388,  # home3
            4.1497,  # near
            0.0902,  # turns
            2.2745,  # threat
            0.0718,  # pips
            0.1354,  # top
            0.0604,  # count
            -0.0683,  # stops
            0.1103,  # tempo
            -1.3098,  # falling
            0.6300,  # enemy_falling
        )
    ),
    "european_war/2": Weights.from_coefficients(
        (
            -0.9128,  # home2
            -0.6304,  # home3
            4.0167,  # near
            -0.3057,  # turns
            2.6712,  # threat
            0.1947,  # pips
            0.7707,  # top
            0.0043,  # count
            0.2205,  # stops
            0.7643,  # tempo
            -1.8255,  # falling
            1.8255,  # enemy_falling
        )
    ),
    "world_war_5": Weights.from_coefficients(
        (
            0.0270,  # home2
            -0.0818,  # home3
            4.1961,  # near
            0.2585,  # turns
            2.7052,  # threat
            0.1362,  # pips
            0.3500,  # top
            0.0600,  # count
            0.2000,  # stops
            0.1899,  # tempo
            -1.2222,  # falling
            3.0000,  # enemy_falling
        )
    ),
}

FITTED_ON: dict[str, tuple[int, int, float, float]] = {
    "european_war": (111, 14977, 2.1160, 1.4144),
    "european_war/2": (600, 7467, 0.7621, 0.5484),
    "world_war_5": (140, 4791, 1.4056, 1.1673),
}

FITTED_BY: dict[str, str] = {
    "european_war": (
        ".venv/bin/python tools/fit_weights.py --games 20 --steps 300 --pull 0.002 --seed 10000"
    ),
    "european_war/2": (
        ".venv/bin/python tools/fit_weights.py --games 20 --steps 300 --pull 0.002 --seed 10000 "
        "--only european_war/2"
    ),
    "world_war_5": (
        ".venv/bin/python tools/fit_weights.py --games 20 --steps 300 --pull 0.002 --seed 10000"
    ),
}
