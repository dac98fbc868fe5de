"""Discord's rate limits, as the fake enforces them on the bot's requests.

* The **global** limit: ``per_second`` requests per second per bot token across every
  route; interaction callbacks (``/interactions/...``) and webhook follow-ups
  (``/webhooks/...``) are exempt. Past it, Discord answers 429 with a JSON body
  ``{"global": true, "retry_after": s, ...}`` and the headers ``X-RateLimit-Global: true``,
  ``X-RateLimit-Scope: global`` and ``Retry-After``. Modelled as a token bucket holding
  one second's worth of requests, refilled continuously: how many requests pass depends
  only on when they arrive, not on how fast the machine answers them.
* **Per-route** buckets: every non-exempt response carries ``X-RateLimit-Bucket``,
  ``-Limit``, ``-Remaining``, ``-Reset`` and ``-Reset-After`` for its route (method + path
  with ids, keyed by the major id: channel, guild or webhook). With a route limit set,
  a request past it gets a 429 with ``X-RateLimit-Scope: user`` (not global).

Both are off until configured (:meth:`FakeDiscord.set_rate_limits`): most tests post
faster than Discord allows on purpose.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

EXEMPT = ("/interactions/", "/webhooks/")
_MAJOR = re.compile(r"^/(channels|guilds|webhooks)/(\d+)")
_ID = re.compile(r"/\d+")


@dataclass
class _Window:
    start: float
    count: int = 0


@dataclass
class RateLimiter:
    """The global and per-route limits (see the module docstring)."""

    per_second: float | None = None
    route_limit: tuple[int, float] | None = None
    clock: Callable[[], float] = time.monotonic
    global_429s: int = 0
    route_429s: int = 0
    counted: int = 0
    _tokens: float = 0.0
    _at: float | None = None
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)

    def configure(self, per_second: float | None, route_limit: tuple[int, float] | None) -> None:
        """Set (or, with None, turn off) the limits; the global bucket starts full."""
        self.per_second, self.route_limit = per_second, route_limit
        self._tokens, self._at = float(per_second or 0), None
        self._windows.clear()

    @staticmethod
    def exempt(path: str) -> bool:
        """Interaction callbacks and webhook follow-ups are outside the global limit."""
        return path.startswith(EXEMPT)

    @staticmethod
    def _route(method: str, path: str) -> tuple[str, str]:
        major = _MAJOR.match(path)
        template = _ID.sub("/{id}", path)
        bucket = hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]
        return bucket, major[2] if major else ""

    def check(self, method: str, path: str) -> tuple[dict, dict[str, str]] | None:
        """Count a request: None if it may pass, else the 429 body and headers."""
        if self.exempt(path):
            return None
        now = self.clock()
        self.counted += 1
        if self.per_second:
            rate = self.per_second
            if self._at is not None:
                self._tokens = min(rate, self._tokens + (now - self._at) * rate)
            self._at = now
            if self._tokens < 1:
                self.global_429s += 1
                wait = round((1 - self._tokens) / rate, 3) or 0.001
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": wait,
                    "global": True,
                    "code": 0,
                }
                return body, {
                    "Via": "1.1 google",
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Retry-After": str(max(1, round(wait))),
                }
            self._tokens -= 1
        if self.route_limit is not None:
            limit, per = self.route_limit
            window = self._window(method, path, now)
            if window.count >= limit:
                self.route_429s += 1
                wait = round(window.start + per - now, 3) or 0.001
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": wait,
                    "global": False,
                    "code": 0,
                }
                return body, {
                    **self.headers(method, path),
                    "Via": "1.1 google",
                    "X-RateLimit-Scope": "user",
                    "Retry-After": str(max(1, round(wait))),
                }
            window.count += 1
        return None

    def _window(self, method: str, path: str, now: float) -> _Window:
        key = self._route(method, path)
        per = self.route_limit[1] if self.route_limit else 1.0
        window = self._windows.get(key)
        if window is None or now >= window.start + per:
            window = self._windows[key] = _Window(now)
        return window

    def headers(self, method: str, path: str) -> dict[str, str]:
        """The route's bucket headers for a response (none for exempt routes)."""
        if self.exempt(path):
            return {}
        bucket, _ = self._route(method, path)
        now = self.clock()
        limit, per = self.route_limit or (1000, 1.0)
        window = self._window(method, path, now)
        reset_after = max(0.0, window.start + per - now)
        return {
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(0, limit - window.count)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        }
