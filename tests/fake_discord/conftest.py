"""Make the fake Discord fixtures available to the tests in this package."""

from .fixtures import fake_discord, start_bot

__all__ = ["fake_discord", "start_bot"]
