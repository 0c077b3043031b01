"""The line-of-sight coverage report of a map: ``DIR/index.html`` plus PNG images, all local.

The page needs no network: the CSS is inline, every image is a PNG beside it, no script, no CDN.
It shows the board, a heat map of how many squares see each square, the most exposed and most
hidden squares, for each door the pairs of squares whose visibility changes when it opens, and the
linter's findings, each with a thumbnail of the board around it. Numbers come from
:mod:`game.designer.coverage` (the LOS engine's all-pairs table); pictures from :mod:`game.ui.report_images`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import ceil, floor
from typing import TYPE_CHECKING

from game import __version__
from game.core.board import Board, fmt_square
from game.core.findings import Finding, Severity
from game.core.words import plural
from game.designer.coverage import Coverage, DoorEffect
from game.rules.registry import ruleset_label

if TYPE_CHECKING:
    from game.tiled import LoadedMap, ObjectInfo

TOP = 10  #: how many most exposed / most hidden squares the report lists
THUMB_LIMIT = 60  #: findings beyond this many get no thumbnail (keeps huge reports quick)
Rect = tuple[int, int, int, int]  #: a grid rectangle ``(x, y, w, h)``


def cell_size(board: Board) -> int:
    """Pixels per square for report images: about 960 px across, 12..40 px per square.

    >>> cell_size(Board(40, 40)), cell_size(Board(5, 5))
    (24, 40)
    """
    return max(12, min(40, 960 // max(board.width, board.height)))


def finding_area(finding: Finding, objects: Mapping[int, ObjectInfo]) -> Rect | None:
    """The grid rectangle ``(x, y, w, h)`` a finding's thumbnail shows, or None if it has no place.

    >>> from game.core.findings import Severity
    >>> finding_area(Finding("x", Severity.ERROR, "m", None, (3, 4)), {})
    (3, 4, 1, 1)
    """
    if finding.square is not None:
        return finding.square[0], finding.square[1], 1, 1
    obj = objects.get(finding.object_id) if finding.object_id is not None else None
    if obj is None:
        return None
    x, y = Fraction(obj.x), Fraction(obj.y)
    w, h = Fraction(obj.width), Fraction(obj.height)
    x0, y0 = floor(x), floor(y)
    return x0, y0, max(1, ceil(x + w) - x0), max(1, ceil(y + h) - y0)


def thumb_areas(findings: Sequence[Finding], objects: Mapping[int, ObjectInfo]) -> list[tuple[int, Finding, Rect]]:
    """The findings that get a thumbnail (the first :data:`THUMB_LIMIT`, those with a place):
    ``(number, finding, area)``, numbered from 1 as the page lists them, ``area`` as
    :func:`finding_area`; the thumbnail's file is :func:`thumb_name` of the number."""
    out = []
    for i, finding in enumerate(findings[:THUMB_LIMIT], 1):
        area = finding_area(finding, objects)
        if area is not None:
            out.append((i, finding, area))
    return out


def thumb_name(number: int) -> str:
    """The file name of finding ``number``'s thumbnail.

    >>> thumb_name(7)
    'finding-007.png'
    """
    return f"finding-{number:03d}.png"


def findings_section(findings: Sequence[Finding], thumbs: Mapping[int, str], place: str = "square") -> list[str]:
    """The linter findings' part of a report page (square and hex maps): counts, then one row per
    finding with its thumbnail where ``thumbs`` names one (by the finding's number from 1);
    ``place`` heads the column of the finding's cell."""
    if not findings:
        return ['<p class="ok">No findings: the map is clean.</p>']
    esc = html.escape
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    parts = [f"<p>{plural(errors, 'error')}, {plural(len(findings) - errors, 'warning')}. "
             "See docs/designers.md for every code and its fix.</p>",
             f"<table><tr><th>severity</th><th>code</th><th>object</th><th>{esc(place)}</th>"
             "<th>message</th><th>fix</th><th>where</th></tr>"]
    for i, f in enumerate(findings, 1):
        where = (f'<a href="{thumbs[i]}"><img src="{thumbs[i]}" alt="board around the finding"></a>'
                 if i in thumbs else "")
        obj = "" if f.object_id is None else str(f.object_id)
        sq = "" if f.square is None else fmt_square(f.square)
        sev = f.severity.value
        parts.append(
            f'<tr><td class="{sev}">{sev}</td><td>{esc(f.code)}</td><td>{obj}</td><td>{sq}</td>'
            f"<td>{esc(f.message)}</td><td>{esc(f.hint or '')}</td><td>{where}</td></tr>"
        )
    parts.append("</table>")
    return parts


_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222;
       background: #faf8f2; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ddd3bd; padding-bottom: 0.2em; margin-top: 2em; }
.meta { color: #666; }
img { max-width: 100%; border: 1px solid #ccc; background: #fff; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ddd3bd; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #efe9da; }
.cols { display: flex; gap: 2em; flex-wrap: wrap; }
.error { color: #b00020; font-weight: bold; } .warning { color: #a86400; font-weight: bold; }
td img { max-width: 160px; }
.ok { color: #2a7a2a; font-weight: bold; }
"""


def _squares_table(title: str, rows: list[tuple[tuple[int, int], int]]) -> str:
    body = "".join(f"<tr><td>{i}</td><td>{fmt_square(sq)}</td><td>{n}</td></tr>"
                   for i, (sq, n) in enumerate(rows, 1))
    return (f"<div><h3>{html.escape(title)}</h3><table><tr><th>#</th><th>square</th>"
            f"<th>seen by</th></tr>{body}</table></div>")


def render_html(
    loaded: LoadedMap,
    cov: Coverage,
    doors: list[DoorEffect],
    findings: list[Finding],
    thumbs: Mapping[int, str],
) -> str:
    """The report page (images referenced by relative file names only)."""
    board = loaded.board
    esc = html.escape
    name = board.name or loaded.path.stem
    standable = int(cov.standable.sum())
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Sightline report: {esc(name)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Line-of-sight report: {esc(name)}</h1>",
        f'<p class="meta">{esc(loaded.path.name)} · {board.width}×{board.height} squares, '
        f"{standable} a figure can stand on · ruleset {esc(ruleset_label(board.ruleset))} · "
        f"{len(board.walls)} walls, {len(board.windows)} windows, {len(board.doors)} doors, "
        f"{len(board.figures)} figures · sightline {esc(__version__)}</p>",
    ]
    caption = board.properties.get("caption")
    if caption:
        parts.append(f"<p>{esc(str(caption))}</p>")
    parts += [
        "<h2>Board</h2>",
        '<img src="board.png" alt="the board">',
        "<h2>Exposure heat map</h2>",
        "<p>Each square shows how many other squares see it (its centre in line of sight, walls, "
        "windows, doors as drawn, void and blocked terrain; figures are ignored because they move). "
        "Blue squares are hidden, red ones exposed.</p>",
        '<img src="heatmap.png" alt="heat map of how many squares see each square">',
        '<div class="cols">',
        _squares_table(f"{TOP} most exposed squares", cov.most_exposed(TOP)),
        _squares_table(f"{TOP} most hidden squares", cov.most_hidden(TOP)),
        "</div>",
        "<h2>Doors</h2>",
    ]
    if not doors:
        parts.append("<p>This map has no doors.</p>")
    else:
        parts.append("<p>For each door, the pairs of squares whose visibility changes when it opens "
                     "(the other doors as drawn). Tinted squares take part in those pairs.</p>")
        parts.append("<table><tr><th>door</th><th>state</th><th>object</th><th>pairs changed</th>"
                     "<th>for example</th><th>squares affected</th></tr>")
        for i, effect in enumerate(doors, 1):
            door = effect.door
            example = ", ".join(f"{fmt_square(a)}↔{fmt_square(b)}" for a, b in effect.examples)
            obj = "" if door.object_id is None else str(door.object_id)
            parts.append(
                f"<tr><td>{esc(str(door.edge))}</td><td>{esc(door.state.value)}</td><td>{obj}</td>"
                f"<td>{effect.pairs}</td><td>{esc(example)}</td>"
                f'<td><a href="door-{i:02d}.png"><img src="door-{i:02d}.png" '
                f'alt="squares door {esc(str(door.edge))} affects"></a></td></tr>'
            )
        parts.append("</table>")
    parts += ["<h2>Linter findings</h2>", *findings_section(findings, thumbs)]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
