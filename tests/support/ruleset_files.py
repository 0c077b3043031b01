"""Helpers of test_ruleset_files_cli.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


MAPS = REPO / "maps"


# skirmish.tmx figures (object ids)
ODA, LIN, HOUND, REN, BRUTE, CUTTHROAT, SLINGER = 15, 16, 17, 18, 19, 20, 21


def skirmish(tmp_path: Path, ruleset: str | None = None) -> Path:
    """The bundled skirmish map with its tileset, art and ruleset file, in tmp_path; ``ruleset``
    replaces its map property ``ruleset`` (``file:skirmish.toml``)."""
    (tmp_path / "maps").mkdir(parents=True, exist_ok=True)
    shutil.copytree(MAPS / "tiles", tmp_path / "maps" / "tiles", dirs_exist_ok=True)
    shutil.copytree(REPO / "assets" / "tiles", tmp_path / "assets" / "tiles", dirs_exist_ok=True)
    shutil.copy(MAPS / "skirmish.toml", tmp_path / "maps" / "skirmish.toml")
    text = (MAPS / "skirmish.tmx").read_text(encoding="utf-8")
    if ruleset is not None:
        text = text.replace('value="file:skirmish.toml"', f'value="{ruleset}"')
    target = tmp_path / "maps" / "skirmish.tmx"
    target.write_text(text, encoding="utf-8")
    return target
