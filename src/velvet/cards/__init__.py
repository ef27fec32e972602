"""Card data: TOML files validated by a schema, with errors naming file, card, field."""

from velvet.cards.loader import CardFile, load_card_files, read_toml, validate_cards

__all__ = ["CardFile", "load_card_files", "read_toml", "validate_cards"]
