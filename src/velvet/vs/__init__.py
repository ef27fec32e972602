"""Persona VS: the two-player card game (RULE-INDEX part 2)."""
