"""Velvet: the Persona 5 Print & Play board game and Persona VS, by their rulebooks."""

__version__ = "0.1.0"
