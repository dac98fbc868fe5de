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
            0.0913,  # home2
            0.2990,  # home3
            3.5096,  # near
            0.1103,  # turns
            3.1261,  # threat
            0.0224,  # pips
            0.2138,  # top
            0.0280,  # count
            0.2791,  # stops
            0.0554,  # tempo
            -0.7657,  # falling
            0.5892,  # enemy_falling
        )
    ),
    "european_war/2": Weights.from_coefficients(
        (
            -0.0147,  # home2
            0.2721,  # home3
            3.6644,  # near
            -0.2140,  # turns
            3.2039,  # threat
            -0.1238,  # pips
            0.5081,  # top
            -0.1569,  # count
            0.3538,  # stops
            0.6470,  # tempo
            -1.5719,  # falling
            1.5719,  # enemy_falling
        )
    ),
    "world_war_5": Weights.from_coefficients(
        (
            0.1442,  # home2
            0.1665,  # home3
            3.5244,  # near
            0.1378,  # turns
            2.8681,  # threat
            0.2803,  # pips
            0.3500,  # top
            0.0600,  # count
            0.2000,  # stops
            0.1974,  # tempo
            -0.8453,  # falling
            3.0000,  # enemy_falling
        )
    ),
}

FITTED_ON: dict[str, tuple[int, int, float, float]] = {
    "european_war": (174, 19813, 3.9647, 1.3321),
    "european_war/2": (595, 7732, 1.3755, 0.6139),
    "world_war_5": (140, 3877, 2.2306, 1.1362),
}

FITTED_BY: dict[str, str] = {
    "european_war": (
        ".venv/bin/python tools/fit_weights.py --games 20 --steps 300 --pull 0.002 --seed 10000 "
        "--only european_war,european_war/2,world_war_5"
    ),
    "european_war/2": (
        ".venv/bin/python tools/fit_weights.py --games 20 --steps 300 --pull 0.002 --seed 10000 "
        "--only european_war,european_war/2,world_war_5"
    ),
    "world_war_5": (
        ".venv/bin/python tools/fit_weights.py --games 20 --steps 300 --pull 0.002 --seed 10000 "
        "--only european_war,european_war/2,world_war_5"
    ),
}
