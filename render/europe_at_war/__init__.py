"""Images of Europe at War (filled in below)."""
