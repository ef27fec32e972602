"""Terminal user interface: a generic play loop and one renderer per game."""
