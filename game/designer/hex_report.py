"""The line-of-sight report of a hex map: its numbers and its page (``sightline report`` on a hex
map; pure: numbers in, HTML out, the pictures are drawn by the caller).

What the square report shows that makes sense on hexes: the board, the exposure heat map under
the report's rule (how many hexes see each hex, figures taken off: they move), the most exposed and
most hidden hexes, each door's effect (the pairs whose sight changes when it opens), the linter's
findings; and what only hexes have: the three hex presets side by side (how many sightlines each
gives, and how many differ from the report's rule). Numbers come from
:mod:`game.designer.coverage`, which asks the sight facade a batch of fields at a time and keeps
every pair as compact bits (a hex rule is decided by candidate lines, not one centre line, so the
square report's regions do not apply; its bit tables do). The findings' thumbnails are drawn by
the square report's path (:func:`game.ui.report_images.crops_png`) on the hex painter's board.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from game import __version__
from game.core.board import Board, fmt_square
from game.core.findings import Finding
from game.core.hex_rules import HEX_PRESETS
from game.core.profiles import Profile
from game.designer.coverage import (
    Coverage,
    DoorEffect,
    Pairs,
    bit_count,
    column_counts,
    door_effects_by_bits,
    geometry_board,
    standable_bits,
    standable_mask,
)
from game.designer.report import _CSS, TOP, _squares_table, findings_section

if TYPE_CHECKING:
    from game.tiled import LoadedMap

__all__ = ["HexNumbers", "RuleCount", "hex_numbers", "render_hex_html"]


@dataclass(frozen=True)
class RuleCount:
    """One hex rule over the map: ``sightlines`` ordered pairs (A sees B, A ≠ B, between hexes a
    figure can stand on), ``differ`` of them whose verdict differs from the report's rule's."""

    rule: str
    sightlines: int
    differ: int


@dataclass
class HexNumbers:
    """Everything the page shows but the findings."""

    rule: Profile
    standable: int
    coverage: Coverage
    doors: list[DoorEffect] = field(default_factory=list)
    rules: list[RuleCount] = field(default_factory=list)


def hex_numbers(board: Board, rule: Profile, pairs: Pairs | None = None) -> HexNumbers:
    """The report's numbers of a hex board under ``rule`` (a hex rule; figures taken off), every
    pair of standable hexes on any size of map: each rule's table is a compact bit table asked of
    the facade a batch of origins at a time (:func:`game.designer.coverage.standable_bits`, as the
    square report keeps a region's pairs), so a 100×100 map holds 12.5 MB per table, not 100 MB; the
    doors' effects compare bit tables too (:func:`game.designer.coverage.door_effects_by_bits`).
    ``pairs``: how the tables are computed (:data:`game.designer.coverage.Pairs`; default: here)."""
    bare = geometry_board(board) if board.figures else board
    squares, bits = standable_bits(bare, rule, pairs)
    k = squares.size
    seen_by = np.zeros(board.width * board.height, dtype=np.int64)
    seen_by[squares] = column_counts(bits, k)
    cover = Coverage(board.width, board.height, seen_by.reshape(board.height, board.width), standable_mask(bare))
    numbers = HexNumbers(rule, k, cover, door_effects_by_bits(bare, rule, squares, bits, pairs=pairs))
    names = list(HEX_PRESETS)
    if rule.spec() not in names:
        names.insert(0, rule.spec())
    for name in names:
        other = bits if name == rule.spec() else standable_bits(bare, HEX_PRESETS[name], pairs)[1]
        numbers.rules.append(RuleCount(name, bit_count(other), bit_count(other ^ bits)))
    return numbers


def _rules_table(numbers: HexNumbers) -> str:
    total = numbers.standable * (numbers.standable - 1)
    rows = "".join(
        f"<tr><td>{html.escape(r.rule)}{' (this report)' if r.rule == numbers.rule.spec() else ''}</td>"
        f"<td>{r.sightlines}</td><td>{(100 * r.sightlines / total if total else 0):.1f} %</td><td>{r.differ}</td></tr>"
        for r in numbers.rules
    )
    return ("<table><tr><th>rule</th><th>sightlines (A sees B)</th><th>of every pair</th>"
            f"<th>differ from {html.escape(numbers.rule.spec())}</th></tr>{rows}</table>")


def _doors_section(doors: Sequence[DoorEffect]) -> list[str]:
    if not doors:
        return ["<p>This map has no doors.</p>"]
    parts = ["<p>For each door, the pairs of hexes whose sight changes when it opens (the other doors as "
             "drawn). Tinted hexes take part in those pairs.</p>",
             "<table><tr><th>door</th><th>state</th><th>object</th><th>pairs changed</th><th>for example</th>"
             "<th>hexes affected</th></tr>"]
    for i, effect in enumerate(doors, 1):
        door = effect.door
        example = ", ".join(f"{fmt_square(a)}↔{fmt_square(b)}" for a, b in effect.examples)
        obj = "" if door.object_id is None else str(door.object_id)
        edge = html.escape(str(door.edge))
        parts.append(f"<tr><td>{edge}</td><td>{html.escape(door.state.value)}</td><td>{obj}</td><td>{effect.pairs}</td>"
                     f'<td>{html.escape(example)}</td><td><a href="door-{i:02d}.png"><img src="door-{i:02d}.png" '
                     f'alt="hexes door {edge} affects"></a></td></tr>')
    parts.append("</table>")
    return parts


def render_hex_html(
    loaded: LoadedMap, numbers: HexNumbers, findings: Sequence[Finding], thumbs: Mapping[int, str] | None = None,
) -> str:
    """The report page of a hex map (images referenced by relative file names only); ``thumbs``:
    the findings' thumbnails by number from 1, as on squares (:func:`game.designer.report.findings_section`)."""
    board = loaded.board
    esc = html.escape
    name = board.name or loaded.path.stem
    grid = board.grid
    tops = "pointy-top" if getattr(grid, "staggeraxis", "y") == "y" else "flat-top"
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Sightline report: {esc(name)}</title>", f"<style>{_CSS}</style></head><body>",
        f"<h1>Line-of-sight report: {esc(name)}</h1>",
        f'<p class="meta">{esc(loaded.path.name)} · {board.width}×{board.height} {tops} hexes, {numbers.standable} a '
        f"figure can stand on · rule {esc(numbers.rule.spec())} · {len(board.walls)} walls, {len(board.windows)} "
        f"windows, {len(board.doors)} doors, {len(board.figures)} figures · sightline {esc(__version__)}</p>",
    ]
    caption = board.properties.get("caption")
    if caption:
        parts.append(f"<p>{esc(str(caption))}</p>")
    parts += [
        "<h2>Board</h2>", '<img src="board.png" alt="the board">',
        "<h2>Exposure heat map</h2>",
        f"<p>Each hex shows how many other hexes see it under {esc(numbers.rule.spec())} (walls, windows, doors as "
        "drawn, void and blocked terrain; figures are ignored because they move). Blue hexes are hidden, red "
        "ones exposed.</p>",
        '<img src="heatmap.png" alt="heat map of how many hexes see each hex">',
        '<div class="cols">',
        _squares_table(f"{TOP} most exposed hexes", numbers.coverage.most_exposed(TOP)).replace("<th>square</th>", "<th>hex</th>"),
        _squares_table(f"{TOP} most hidden hexes", numbers.coverage.most_hidden(TOP)).replace("<th>square</th>", "<th>hex</th>"),
        "</div>",
        "<h2>The hex rules side by side</h2>",
        "<p>How many sightlines each hex preset gives on this map, figures off (sightline compare MAP "
        "--rules gloomhaven,hexside,hex-strict shows where they differ).</p>",
        _rules_table(numbers),
        "<h2>Doors</h2>",
        *_doors_section(numbers.doors),
    ]
    parts += ["<h2>Linter findings</h2>", *findings_section(findings, thumbs or {}, "hex"), "</body></html>"]
    return "\n".join(parts) + "\n"
