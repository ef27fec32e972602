"""Suite-wide fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Autosaves of interactive play go to a fresh folder, never to the user's own."""
    folder = tmp_path_factory.mktemp("velvet-data")
    monkeypatch.setenv("VELVET_DATA_DIR", str(folder))
    return folder
