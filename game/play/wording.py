"""The window's own words for sentences built elsewhere: the attack flow's prompts (which name
the window's clicks and keys) and the plain wording of the engine's blocking reasons.

``game/play/attack.py`` keys its prompts (:data:`game.play.attack.PROMPTS`); the window passes
:data:`WINDOW_PROMPTS`. The LOS engine says a square "holds 2 enemies of heroes (Snarl and
Grub)"; the window says whose side that is. And the window names places one way only, by
squares: an edge or a corner is "between" the squares it parts (``V(7,4)`` is the edge between
(6,4) and (7,4); a corner lies between two diagonal squares), so the engine's ``V(x,y)`` /
``H(x,y)`` edge names and corner points are written in squares: :func:`plain`.
"""

from __future__ import annotations

import re

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
_EDGE = re.compile(r"\b([VH])\((\d+),(\d+)\)")
_CORNER = re.compile(r"\bcorner \((\d+),(\d+)\)")


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
    """
    text = _ENEMIES.sub(lambda m: f"{m[3]}, {m[1]} figures hostile to the {m[2]} side", text)
    text = _NAMED_BETWEEN.sub("", text)
    text = _ON_EDGE.sub(lambda m: f"{m[1]} the edge {m[2]}", text)
    text = _EDGE.sub(lambda m: edge_words(m[1], int(m[2]), int(m[3])), text)
    return _CORNER.sub(lambda m: f"top-left corner of ({m[1]},{m[2]})", text)
