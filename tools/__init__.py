"""Development-time tools (never imported by the bot at run time)."""
