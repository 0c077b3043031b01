"""A line-of-sight rule's verdict in the window's words: places by squares, numbers rounded to read.

Arcadia decides by the line from centre to centre and says so in a sentence the window shows as
it is (:func:`game.play.wording.plain`). The other rules (corners, dnd5e, pf2e, any-point and
their variants) decide by many lines between points of the two squares, exact fractions that no
one reads aloud: "point (35115/7792,42737/12964) to the centre (23/2,15/2) …". This module says
the same verdict for the side panel the way the rest of the window speaks:

* an end of a line by its square: "the centre of (4,3)", "the top-right corner of (12,5)", "the
  point about (4.38, 3.29) in (4,3)" (rounded to two decimals, "about" when rounding changed
  it; words, not "≈", which the window's typeface has no glyph for);
* what blocks by the squares it lies between: "the closed door between (6,3) and (7,3)", "the
  walls meeting at the corner between (6,4) and (7,3)";
* the verdict under the rule, then the clear line that decides it, or how many lines it tried
  and what stops the first.

:func:`exact_lines` gives every deciding line with its exact values, for the large reader (the
window opens it on demand: ``Shift+E``). Built from the ray record of
:mod:`game.play.sight_calls` (``checks``, ``checked``, ``cover``); no pygame.

>>> from fractions import Fraction as F
>>> end(((F(9, 2), F(7, 2))), "interior", (4, 3)), end((F(35115, 7792), F(42737, 12964)), "interior", (4, 3))
('the centre of (4,3)', 'the point about (4.51, 3.3) in (4,3)')
>>> end((F(5), F(3)), "corner", (4, 3)), corner_words(7, 4)
('the top-right corner of (4,3)', 'the corner between (6,4) and (7,3)')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from game.core.board import Square, fmt_square
from game.core.words import plural
from game.play.wording import plain

#: the corner of a square a grid point is, by its offset from the square's top-left
_CORNERS = {(0, 0): "top-left", (1, 0): "top-right", (0, 1): "bottom-left", (1, 1): "bottom-right"}


def number(value: Fraction) -> str:
    """A coordinate rounded for reading: ``4``, ``4.5``, ``4.38``.

    >>> number(Fraction(9, 2)), number(Fraction(13, 3)), number(Fraction(4))
    ('4.5', '4.33', '4')
    """
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def corner_words(gx: int, gy: int) -> str:
    """A grid corner by the two diagonal squares that share it (the window's one notation).

    >>> corner_words(7, 4), corner_words(0, 3), corner_words(2, 0)
    ('the corner between (6,4) and (7,3)', 'the top-left corner of (0,3)', 'the top-left corner of (2,0)')
    """
    if gx > 0 and gy > 0:
        return f"the corner between ({gx - 1},{gy}) and ({gx},{gy - 1})"
    return f"the top-left corner of ({gx},{gy})"


def end(point: tuple[Fraction, Fraction], kind: str, square: Square) -> str:
    """One end of a checked line, named by its square (rounded numbers only for a point inside)."""
    x, y = Fraction(point[0]), Fraction(point[1])
    fx, fy = x - square[0], y - square[1]
    if (fx, fy) == (Fraction(1, 2), Fraction(1, 2)):
        return f"the centre of {fmt_square(square)}"
    if kind == "corner" or (fx.denominator == 1 and fy.denominator == 1 and (int(fx), int(fy)) in _CORNERS):
        return f"the {_CORNERS.get((int(fx), int(fy)), 'top-left')} corner of {fmt_square(square)}"
    exact = f"{number(x)}, {number(y)}"
    rounded = float(f"{float(x):.2f}") != x or float(f"{float(y):.2f}") != y
    return f"the point {'about ' if rounded else ''}({exact}) in {fmt_square(square)}"


_WALLS_MEET = re.compile(r"the walls meeting at \((\d+),(\d+)\) \((?:[^()]|\([^()]*\))*\) separate the line's two sides")
_WALLS_PART = re.compile(r"the walls meeting at \((\d+),(\d+)\) separate")
_TOUCH = re.compile(r"touches (.+) at \((\d+),(\d+)\) \(corner_touch=blocks\)")
_BOTH = re.compile(r"both sides closed at \((\d+),(\d+)\): (.+)")
_SETTING = re.compile(r"\((along_wall|along_square|corner_touch)=(\w+)\)")
_THROUGH = re.compile(r"^passes through square (\(\d+,\d+\)), which holds (.+)$")


def blocker_words(blocker: str) -> str:
    """What blocks a checked line, in the window's words (edges and corners by their squares).

    >>> blocker_words("crosses closed door on V(7,3)")
    'crosses the closed door between (6,3) and (7,3)'
    >>> blocker_words("the walls meeting at (7,4) (V(7,4) and V(7,3)) separate the line's two sides")
    'meets the walls at the corner between (6,4) and (7,3), which close it on both sides'
    >>> blocker_words("touches figure Snarl at (7,4) at (7,4) (corner_touch=blocks)")
    'touches figure Snarl at (7,4) at the corner between (6,4) and (7,3) (corner_touch: blocks)'
    """
    text = _WALLS_MEET.sub(lambda m: f"meets the walls at {corner_words(int(m[1]), int(m[2]))}, which close it "
                                     "on both sides", blocker)
    text = _WALLS_PART.sub(lambda m: f"the walls meeting at {corner_words(int(m[1]), int(m[2]))} separate", text)
    text = _TOUCH.sub(lambda m: f"touches {m[1]} at {corner_words(int(m[2]), int(m[3]))} (corner_touch=blocks)", text)
    text = _BOTH.sub(lambda m: f"passes {corner_words(int(m[1]), int(m[2]))}, closed on both sides ({m[3]})", text)
    text = _THROUGH.sub(lambda m: f"passes through {m[1]}, which holds {m[2]}", text)
    text = _SETTING.sub(lambda m: f"({m[1]}: {m[2]})", text)
    text = re.sub(r"\b(door|window) on ([VH]\()", r"\1 \2", text)
    text = re.sub(r"^crosses (?!the )", "crosses the ", text)
    return plain(text)


def _ends(ray: Any, line: Any) -> tuple[str, str]:
    return end(line.start, line.start_kind, ray.origin), end(line.end, line.end_kind, ray.target)


def _line_kind(ray: Any) -> str:
    """The lines the rule tries, in two words: ``corner-to-corner``, ``any-point``.

    >>> from game.core.profiles import PRESETS
    >>> class R: rule = PRESETS["dnd5e"]
    >>> _line_kind(R())
    'corner-to-corner'
    """
    names = {"centre": "centre", "corners": "corner", "any": "any-point"}
    start, finish = (names.get(str(ray.rule.get(key)), "point") for key in ("from", "to"))
    return start if start == finish == "any-point" else f"{start}-to-{finish}"


def _cover(ray: Any) -> str:
    """The target's cover where the rule grades it, its corners named by their squares (the
    engine names grid points: "best corner (1,1)", "to (3,2) passes ...")."""
    cover = ray.cover
    if cover is None:
        return ""

    def corner(m: re.Match[str], square: Square) -> str:
        return end((Fraction(m[1]), Fraction(m[2])), "corner", square)

    why = re.sub(r"best corner \((\d+),(\d+)\)", lambda m: f"best corner: {corner(m, ray.origin)}", cover.why)
    why = re.sub(r"\bto \((\d+),(\d+)\)(?= )", lambda m: f"to {corner(m, ray.target)}", why)
    return f" Cover ({cover.system}): {cover.grade}, {plain(why)}."


def readable(ray: Any) -> str:
    """The verdict of a ray of any rule for the side panel, in the window's words.

    A centre-line ray (Arcadia) says the engine's sentence; a rule decided by other lines says
    its verdict and the line that decides: the clear one, with its ends (and the target's cover,
    when the rule grades it), or how many lines it tried and what blocks the first (the board
    draws them; :func:`exact_lines` lists each).
    """
    checks: Sequence[Any] = ray.checks
    if not checks:
        return plain(ray.explain())
    rule = ray.rule.spec()
    first = checks[0]
    start, finish = _ends(ray, first)
    if ray.clear:
        return f"Clear under {rule}: the line from {start} to {finish} is clear.{_cover(ray)}"
    what = blocker_words(first.blocker or "is blocked")
    if ray.checked <= 1:
        return f"Blocked under {rule}: the line from {start} to {finish} {what}."
    tried = "" if "any" not in (str(ray.rule.get("from")), str(ray.rule.get("to"))) else " tried"
    return f"Blocked under {rule}: all {ray.checked} {_line_kind(ray)} lines{tried} are blocked; the first {what}."


def exact_lines(ray: Any) -> tuple[str, list[str]]:
    """The ray's whole reasoning with exact values, for the large reader: a title and one entry
    per deciding line (``from (9/2, 7/2) to (25/2, 11/2): crosses the wall between …``).

    A centre-line ray lists its crossings along the line, each with its exact point.
    """
    sides = f"{fmt_square(ray.origin)} to {fmt_square(ray.target)}"
    verdict = "clear" if ray.clear else "blocked"
    title = f"Line of sight, exact: {sides} under {ray.rule.spec()}, {verdict}"
    entries = [readable(ray)]
    if ray.checks:
        for line in ray.checks:
            start, finish = _ends(ray, line)
            exact = f"({line.start[0]}, {line.start[1]}) to ({line.end[0]}, {line.end[1]})"
            result = "clear" if line.blocker is None else blocker_words(line.blocker)
            entries.append(f"From {start} to {finish}, exactly {exact}: {result}.")
        shown = len(ray.checks)
        if ray.checked > shown:
            entries.append(f"({plural(ray.checked - shown, 'more line')} tried, all blocked.)")
    else:
        for crossing in ray.crossings:
            point = getattr(crossing, "point", None)
            at = f"At ({point[0]}, {point[1]}): " if point is not None else ""
            entries.append(f"{at}{plain(crossing.explain())}")
    return title, entries
