"""Fixtures of the pyramid games' image tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules import i18n


@pytest.fixture(params=i18n.LOCALES)
def locale(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test draws in each language the product speaks, in turn (the longest
    language's words must fit as English's do)."""
    with i18n.use(request.param) as chosen:
        yield chosen
