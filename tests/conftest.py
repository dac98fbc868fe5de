"""Suite-wide setup: bots started by the tests draw their images in threads.

Dozens of tests start a bot each, and a pool of worker processes per bot would cost
seconds of warm-up every time; the worker pool itself is tested in
``tests/bot/test_images.py``. ``RENDER_WORKERS=2 pytest`` runs the suite on real pools.
"""

from __future__ import annotations

import os

os.environ.setdefault("RENDER_WORKERS", "0")
