"""This package's words in the reader's language: ``_``, ``n_``, ``p_``, ``N_`` (:mod:`i18n`)."""

from i18n import N_, Catalogue

catalogue = Catalogue(__file__)
_, n_, p_ = catalogue.gettext, catalogue.ngettext, catalogue.pgettext

__all__ = ["N_", "_", "catalogue", "n_", "p_"]
