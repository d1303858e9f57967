"""Developer tooling kept out of the shipped packages (the wheel holds memory_review, events and tui only)."""
