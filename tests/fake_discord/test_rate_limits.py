"""The fake's rate limits behave as Discord's: the global limit across routes with its
429 shape, interaction routes exempt, per-route bucket headers and limits, and
``enforce_nonce``. Driven with aiohttp (as raw as Discord sees it) on a fake clock."""

from __future__ import annotations

import aiohttp

from tests.fake_discord.server import FakeDiscord


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def _post(
    session: aiohttp.ClientSession, fake: FakeDiscord, path: str, body: dict
) -> aiohttp.ClientResponse:
    async with session.post(
        f"{fake.api_base}{path}", json=body, headers={"Authorization": f"Bot {fake.token}"}
    ) as resp:
        await resp.read()
        return resp


async def test_global_limit_across_routes_with_discords_429(fake_discord: FakeDiscord) -> None:
    clock = Clock()
    fake_discord.limits.clock = clock
    fake_discord.set_rate_limits(per_second=5)
    guild = fake_discord.add_guild()
    a, b = (fake_discord.add_text_channel(guild, n) for n in ("a", "b"))
    async with aiohttp.ClientSession() as s:
        for n in range(5):  # one second's worth, spread over two routes
            resp = await _post(
                s, fake_discord, f"/channels/{(a, b)[n % 2].id}/messages", {"content": f"m{n}"}
            )
            assert resp.status == 200
            assert resp.headers["X-RateLimit-Bucket"] and "X-RateLimit-Remaining" in resp.headers
        async with s.post(
            f"{fake_discord.api_base}/channels/{a.id}/messages",
            json={"content": "one too many"},
            headers={"Authorization": f"Bot {fake_discord.token}"},
        ) as resp:
            body = await resp.json()
            assert resp.status == 429
            assert body["global"] is True and 0 < body["retry_after"] <= 0.2
            assert resp.headers["X-RateLimit-Global"] == "true"
            assert resp.headers["X-RateLimit-Scope"] == "global"
            assert resp.headers["Retry-After"] and resp.headers["Via"]
        clock.now += 0.2  # a fifth of a second: one more request
        assert (
            await _post(s, fake_discord, f"/channels/{b.id}/messages", {"content": "later"})
        ).status == 200
        assert (
            await _post(s, fake_discord, f"/channels/{b.id}/messages", {"content": "too soon"})
        ).status == 429
    assert fake_discord.limits.global_429s == 2
    assert [m.content for m in fake_discord.messages(a)] == ["m0", "m2", "m4"]


async def test_interaction_routes_are_exempt(fake_discord: FakeDiscord) -> None:
    clock = Clock()
    fake_discord.limits.clock = clock
    fake_discord.set_rate_limits(per_second=1)
    assert fake_discord.limits.exempt("/interactions/1/tok/callback")
    assert fake_discord.limits.exempt("/webhooks/1/tok/messages/@original")
    for _ in range(10):
        assert fake_discord.limits.check("POST", "/interactions/1/tok/callback") is None
        assert fake_discord.limits.check("POST", "/webhooks/1/tok") is None
    assert fake_discord.limits.check("POST", "/channels/5/messages") is None
    assert fake_discord.limits.check("POST", "/channels/5/messages") is not None


async def test_per_route_limit_and_headers(fake_discord: FakeDiscord) -> None:
    clock = Clock()
    fake_discord.limits.clock = clock
    fake_discord.set_rate_limits(per_second=None, route_limit=(2, 1.0))
    guild = fake_discord.add_guild()
    a, b = (fake_discord.add_text_channel(guild, n) for n in ("a", "b"))
    async with aiohttp.ClientSession() as s:
        first = await _post(s, fake_discord, f"/channels/{a.id}/messages", {"content": "1"})
        assert first.headers["X-RateLimit-Limit"] == "2"
        assert first.headers["X-RateLimit-Remaining"] == "1"
        second = await _post(s, fake_discord, f"/channels/{a.id}/messages", {"content": "2"})
        assert second.headers["X-RateLimit-Remaining"] == "0"
        assert float(second.headers["X-RateLimit-Reset-After"]) == 1.0
        assert (
            await _post(s, fake_discord, f"/channels/{a.id}/messages", {"content": "3"})
        ).status == 429
        # another channel is another bucket (its own major parameter)
        assert (
            await _post(s, fake_discord, f"/channels/{b.id}/messages", {"content": "x"})
        ).status == 200
        clock.now += 1.0
        assert (
            await _post(s, fake_discord, f"/channels/{a.id}/messages", {"content": "3"})
        ).status == 200
    assert fake_discord.limits.route_429s == 1 and fake_discord.limits.global_429s == 0


async def test_enforce_nonce_returns_the_first_message(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.add_guild()
    ch = fake_discord.add_text_channel(guild, "a")
    async with aiohttp.ClientSession() as s:
        for _ in range(2):
            resp = await _post(
                s,
                fake_discord,
                f"/channels/{ch.id}/messages",
                {"content": "once", "nonce": "n1", "enforce_nonce": True},
            )
            assert resp.status == 200
        await _post(
            s, fake_discord, f"/channels/{ch.id}/messages", {"content": "twice", "nonce": "n2"}
        )
        await _post(
            s, fake_discord, f"/channels/{ch.id}/messages", {"content": "twice", "nonce": "n2"}
        )
    assert [m.content for m in fake_discord.messages(ch)] == ["once", "twice", "twice"]
