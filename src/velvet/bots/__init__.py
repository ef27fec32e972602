"""Bots: each sees only a player's view and the legal actions."""
