"""The browser client's files (``static/``), served by ``velvet serve`` (docs/web.md)."""
