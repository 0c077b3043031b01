"""Helpers of test_profile_los.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

import itertools

from game.core.board import Board, Edge, Figure
from game.core.profiles import PARAMETERS, PRESETS, Profile

EXPECTED_COVER = {
    "P1": ("none", "none"), "P2": ("half", "lesser"), "P3": ("total", "total"), "P4": ("none", "none"),
    "P5": ("three-quarters", "standard"), "P6": ("total", "total"), "P7": ("none", "none"),
    "P8": ("none", "standard"), "P9": ("half", "standard"),
}


def single_overrides() -> list[Profile]:
    """Every preset and every preset with one parameter changed."""
    out = []
    for preset in PRESETS.values():
        out.append(preset)
        for name, values in PARAMETERS.items():
            for value in values:
                if value != preset.get(name) and name != "cover":
                    out.append(preset.with_value(name, value))
    return out


PROFILES = single_overrides()


WITH_ANY = [p for p in PROFILES if "any" in (p.from_, p.to)]


def edges_of(w: int, h: int) -> list[Edge]:
    return [Edge("V", x, y) for x in range(1, w) for y in range(h)] + [
        Edge("H", x, y) for x in range(w) for y in range(1, h)]


def boards_2x2() -> list[Board]:
    """Every interior wall subset × every pattern of open / blocked / figure squares."""
    out = []
    edges = edges_of(2, 2)
    cells = [(x, y) for y in range(2) for x in range(2)]
    for mask in range(16):
        walls = [e for i, e in enumerate(edges) if mask >> i & 1]
        for states in itertools.product("o#f", repeat=4):
            figures = [Figure(i + 1, f"F{i}", "monsters", sq) for i, (sq, s) in enumerate(zip(cells, states, strict=True)) if s == "f"]
            blocked = [sq for sq, s in zip(cells, states, strict=True) if s == "#"]
            out.append(Board(2, 2, walls=walls, blocked=blocked, figures=figures))
    return out
