"""This package's words in the reader's language (see :mod:`i18n`): ``_`` for a message,
``n_`` for one with a count, ``p_`` for one with a context, ``N_`` to mark a constant
translated where it is used."""

from i18n import N_, Catalogue

catalogue = Catalogue(__file__)
_ = catalogue.gettext
n_ = catalogue.ngettext
p_ = catalogue.pgettext

DATA_FIELDS = {"boards/european_war.json": ("name",), "boards/world_war_5.json": ("name",)}
"""The names of powers, continents, fields and territories on the boards."""

__all__ = ["N_", "_", "catalogue", "n_", "p_"]
