"""Online play: rooms, seats, persistence, many games at once (docs/protocol.md)."""
