"""The window's own words for sentences built elsewhere: the attack flow's prompts (which name
the window's clicks and keys), the plain wording of the engine's blocking reasons, of the rules'
verdicts, of a figure's stats and of the coverage legend, and the log in the order it is read.

``game/play/attack.py`` keys its prompts (:data:`game.play.attack.PROMPTS`); the window passes
:data:`WINDOW_PROMPTS`. The LOS engine says a square "holds 2 enemies of heroes (Snarl and
Grub)"; the window says whose side that is. And the window names places one way only, by
squares: an edge or a corner is "between" the squares it parts (``V(7,4)`` is the edge between
(6,4) and (7,4); a corner lies between two diagonal squares), so the engine's ``V(x,y)`` /
``H(x,y)`` edge names and corner points are written in squares: :func:`plain`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from game.core.words import plural, plural_of

#: the attack flow's prompts in the window: what to click or press
WINDOW_PROMPTS: dict[str, str] = {
    "no_attacker": "Select the attacker first: click a figure or press Tab.",
    "no_target": "Choose a target: right-click a figure or press T.",
    "no_play": "Type what you play first ({hint}): press Enter, type it, Enter again.",
    "no_actor": "Select a figure of the side that should {action} (click it or press Tab).",
}

_ENEMIES = re.compile(r"(\d+) enemies of (.+?) \(([^()]*)\)")
_NAMED_BETWEEN = re.compile(r" ?\b[VH]\(\d+,\d+\)(?= between)|(?<=corner) \(\d+,\d+\)(?= between)")
_ON_EDGE = re.compile(r"\b(on|at) ([VH]\(\d+,\d+\))")
#: "closed door on V(7,3) between (6,3) and (7,3)": the edge is named by its squares already
_ON_NAMED = re.compile(r"\b(on|at) ([VH]\(\d+,\d+\)) (?=between)")
_EDGE = re.compile(r"\b([VH])\((\d+),(\d+)\)")
_CORNER = re.compile(r"\bcorner \((\d+),(\d+)\)(?! of \()")  # a hex corner names its cells: kept


def edge_words(axis: str, x: int, y: int) -> str:
    """An edge in squares: ``between (6,4) and (7,4)`` (a board edge: ``left of (0,4)``).

    >>> edge_words("V", 7, 4), edge_words("H", 2, 0)
    ('between (6,4) and (7,4)', 'above (2,0)')
    """
    if axis == "V":
        return f"between ({x - 1},{y}) and ({x},{y})" if x > 0 else f"left of ({x},{y})"
    return f"between ({x},{y - 1}) and ({x},{y})" if y > 0 else f"above ({x},{y})"


def plain(text: str) -> str:
    """The engine's sentence with its blocking reasons in plain words.

    >>> plain("Blocked: square (7,4) holds 2 enemies of heroes (Snarl and Grub).")
    'Blocked: square (7,4) holds Snarl and Grub, 2 figures hostile to the heroes side.'
    >>> plain("Blocked: wall V(7,4) between (6,4) and (7,4).")
    'Blocked: wall between (6,4) and (7,4).'
    >>> plain("corner (7,4) between (6,4) and (7,3): closed door on V(7,3)")
    'corner between (6,4) and (7,3): closed door on the edge between (6,3) and (7,3)'
    >>> plain("undid: door V(7,3): closed; corner (2,2) is open")
    'undid: door between (6,3) and (7,3): closed; top-left corner of (2,2) is open'
    >>> plain("Blocked: closed door on V(7,3) between (6,3) and (7,3).")
    'Blocked: closed door between (6,3) and (7,3).'
    >>> plain("touches a wall at the corner (2,2) of (0,1), (1,0) and (1,1)")  # a hex corner (lattice)
    'touches a wall at the corner (2,2) of (0,1), (1,0) and (1,1)'
    """
    text = _ENEMIES.sub(lambda m: f"{m[3]}, {m[1]} figures hostile to the {m[2]} side", text)
    text = _ON_NAMED.sub(lambda m: "" if m[1] == "on" else "at the edge ", text)
    text = _NAMED_BETWEEN.sub("", text)
    text = _ON_EDGE.sub(lambda m: f"{m[1]} the edge {m[2]}", text)
    text = _EDGE.sub(lambda m: edge_words(m[1], int(m[2]), int(m[3])), text)
    return _CORNER.sub(lambda m: f"top-left corner of ({m[1]},{m[2]})", text)


_MORE_BLOCKERS = re.compile(r"\.? \((\d+ more blockers? further on)\.\)\.?$")
_NOT_CLOSE = re.compile(r"^not Close: (.+?)\.?$")
_NO_X = re.compile(r"^(no [^:]{1,40}|not [^:]{1,40}): (.+?)\.?$")


def verdict_words(legal: bool, reason: str) -> str:
    """The attack panel's verdict: ``Legal: …`` or ``Illegal: …`` with the rules' reason in the
    window's words (places by squares, one colon, no doubled full stop).

    >>> verdict_words(False, "not Close: Sable is 10 squares away.")
    'Illegal: the target is not Close — Sable is 10 squares away.'
    >>> verdict_words(False, "no line of sight: wall V(7,4) between (6,4) and (7,4). (4 more blockers further on.).")
    'Illegal: no line of sight — wall between (6,4) and (7,4) (4 more blockers further on).'
    >>> verdict_words(True, "Close, 2 attack dice against 1 defence die.")
    'Legal: Close, 2 attack dice against 1 defence die.'
    """
    text = _MORE_BLOCKERS.sub(lambda m: f" ({m[1]}).", plain(reason.strip()))
    close = _NOT_CLOSE.match(text)
    if close:
        text = f"the target is not Close — {close[1]}."
    else:
        other = _NO_X.match(text)
        if other:
            text = f"{other[1]} — {other[2]}."
    return ("Legal: " if legal else "Illegal: ") + text


_RECORDS = re.compile(r"^\s*[^:;]+(?::[^:;]*)+\s*(?:;\s*[^:;]+(?::[^:;]*)+\s*)*;?\s*$")


def _record_words(value: str, dice: Mapping[str, int]) -> str:
    """``Short Bow:ranged:2; Dagger:melee:2`` → ``Short Bow (ranged, 2 dice); Dagger (melee, 2
    dice)``: the name, then its fields (a number the rules roll as dice says so)."""
    out = []
    for record in value.split(";"):
        if not record.strip():
            continue
        name, *fields = [part.strip() for part in record.split(":")]
        if fields and fields[-1].isdigit() and dice.get(name.casefold()) == int(fields[-1]):
            fields[-1] = plural(int(fields[-1]), "die", "dice")
        out.append(f"{name} ({', '.join(f for f in fields if f)})")
    return "; ".join(out)


def stat_lines(stats: Mapping[str, Any], dice: Mapping[str, int] | None = None) -> list[str]:
    """A figure's stats in words: short ones on one line, long ones (attacks) one per line.

    Names are written with spaces (``wound_limit`` → ``wound limit``), a yes/no stat by its name
    (``defeated``, ``not dazed``), lists of ``Name:field:field`` records as ``Name (field,
    field)``; ``dice`` names the attacks the rules roll dice for (name → dice), so their number
    says "dice". Empty values (a blank ``rules`` property) are left out; the panel wraps.

    >>> stat_lines({"life": 5, "wound_limit": 3, "defeated": True, "dazed": "false"})
    ['life 5 · wound limit 3 · defeated · not dazed']
    >>> stat_lines({"attacks": "Short Bow:ranged:2; Dagger:melee:2"}, {"short bow": 2, "dagger": 2})
    ['attacks: Short Bow (ranged, 2 dice); Dagger (melee, 2 dice)']
    >>> stat_lines({"rules": "", "weapons": "Sword:valour:2:melee"})
    ['weapons: Sword (valour, 2, melee)']
    """
    dice = dice or {}
    short: list[str] = []
    long: list[str] = []
    for key, value in stats.items():
        text = str(value).strip()
        if not text:
            continue
        name = str(key).replace("_", " ")
        if isinstance(value, bool) or text.lower() in ("true", "false"):
            yes = value if isinstance(value, bool) else text.lower() == "true"
            short.append(name if yes else f"not {name}")
        elif ":" in text and _RECORDS.match(text):
            long.append(f"{name}: {_record_words(text, dice)}")
        elif len(text) <= 12:
            short.append(f"{name} {text}")
        else:
            long.append(f"{name}: {text}")
    return ([" · ".join(short)] if short else []) + long


def heat_legend(highest: int, square: tuple[int, int] | None, seen_from: int | None, noun: str = "square") -> str:
    """The coverage heat map's legend line; ``noun`` is what one cell is called (the grid's noun).

    >>> heat_legend(65, (12, 10), 41)
    'Coverage: each square is seen from 0 (blue) to 65 (red) other squares · (12,10) is seen from 41 · H hides it'
    >>> heat_legend(1, None, None)
    'Coverage: each square is seen from 0 (blue) to 1 (red) other square · H hides it'
    >>> heat_legend(2, None, None, "hex")
    'Coverage: each hex is seen from 0 (blue) to 2 (red) other hexes · H hides it'
    """
    words = f"Coverage: each {noun} is seen from 0 (blue) to {highest} (red) other {noun if highest == 1 else plural_of(noun)}"
    if square is not None and seen_from is not None:
        words += f" · ({square[0]},{square[1]}) is seen from {seen_from}"
    return words + " · H hides it"


def log_entries(log: Iterable[str]) -> list[str]:
    """The log's lines as whole entries, oldest first: an indented line (a roll's dice and
    result, logged after the roll) joins the line before it, so the entry reads top to bottom
    and a newest-first view (``reversed``) keeps it together.

    >>> log_entries(["move Rook", "Ember attacks Sable", "  dice: attack crit. 1 wound."])
    ['move Rook', 'Ember attacks Sable\\n  dice: attack crit. 1 wound.']
    """
    entries: list[str] = []
    for line in log:
        if line.startswith("  ") and entries:
            entries[-1] += "\n" + line
        else:
            entries.append(line)
    return entries
