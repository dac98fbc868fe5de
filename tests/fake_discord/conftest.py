"""Make the fake Discord fixtures available to the tests in this package."""

from tests.fake_discord.fixtures import fake_discord, start_bot

__all__ = ["fake_discord", "start_bot"]
