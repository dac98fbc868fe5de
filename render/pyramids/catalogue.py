"""This package's words in the reader's language (:mod:`rules.i18n`)."""

from rules.i18n import N_, Catalogue

catalogue = Catalogue(__file__)
_, n_, p_ = catalogue.gettext, catalogue.ngettext, catalogue.pgettext

__all__ = ["N_", "_", "catalogue", "n_", "p_"]
