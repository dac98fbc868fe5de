"""This package's words in the reader's language (:mod:`rules.i18n`)."""

from rules.i18n import N_, Catalogue

DATA_FIELDS = {
    "data/cards.json": ("name", "text"),
    "data/units.json": ("name",),
    "data/map.json": ("name",),
    "data/map_compact.json": ("name",),
}
"""The strings of the data files players see: card names and texts, unit names, the
names of countries, territories, straits and sea zones."""

catalogue = Catalogue(__file__)
_, n_, p_ = catalogue.gettext, catalogue.ngettext, catalogue.pgettext

__all__ = ["N_", "_", "catalogue", "n_", "p_"]
