"""Fonts shipped with the package (DejaVu Sans; licence in ``render/fonts/LICENSE-DejaVu.txt``).

Nothing relies on the fonts installed on the machine.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR: Path = Path(__file__).resolve().parent / "fonts"
REGULAR: Path = FONT_DIR / "DejaVuSans.ttf"
BOLD: Path = FONT_DIR / "DejaVuSans-Bold.ttf"


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return DejaVu Sans (or DejaVu Sans Bold) at ``size`` pixels, cached per process.

    Args:
        size: the font size in pixels (em height), at least 1.
        bold: whether to use the bold face.

    Returns:
        A Pillow FreeType font loaded from the package's own ``fonts`` folder.

    Raises:
        ValueError: if ``size`` is below 1.
        OSError: if the font file is missing from the package.
    """
    if size < 1:
        raise ValueError(f"font size must be at least 1, not {size}")
    return _font(int(size), bool(bold))


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    # one object per face and size however it is asked for: the text caches key on it
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)
