"""The local console: play any registered game in a terminal over the game service."""
