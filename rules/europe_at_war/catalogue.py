"""This package's words in the reader's language (see :mod:`i18n`): ``_`` for a message,
``n_`` for one with a count, ``p_`` for one with a context, ``N_`` to mark a constant
translated where it is used."""

from i18n import N_, Catalogue

DATA_FIELDS = {
    "data/cards.json": ("name", "text"),
    "data/units.json": ("name",),
    "data/map.json": ("name",),
    "data/map_compact.json": ("name",),
}
"""The strings of the data files players see: card names and texts, unit names, the
names of countries, territories, straits and sea zones."""

catalogue = Catalogue(__file__)
_ = catalogue.gettext
n_ = catalogue.ngettext
p_ = catalogue.pgettext

__all__ = ["N_", "_", "catalogue", "n_", "p_"]
