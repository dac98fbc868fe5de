"""This package's words in the reader's language (:mod:`rules.i18n`)."""

from rules.i18n import N_, Catalogue

catalogue = Catalogue(__file__)
_, n_, p_ = catalogue.gettext, catalogue.ngettext, catalogue.pgettext

DATA_FIELDS = {"boards/european_war.json": ("name",), "boards/world_war_5.json": ("name",)}
"""The names of powers, continents, fields and territories on the boards."""

__all__ = ["N_", "_", "catalogue", "n_", "p_"]
