"""Text laid out in pixels: words wrapped to a width (the classroom's column and cards, the PNG
legend, the rule's sentences on the board, the banner, the reader, the hover card).

>>> class Mono:  # a face where every character is 10 px wide
...     def size(self, text): return (len(text) * 10, 20)
>>> wrap(Mono(), "a wall between\\nthe squares", 80)
['a wall', 'between', 'the', 'squares']
"""

from __future__ import annotations

from typing import Any


def wrap(face: Any, text: str, width: int, indent: str = "") -> list[str]:
    """Words wrapped to ``width`` pixels in ``face`` (anything with pygame's ``Font.size``), each
    line of ``text`` on its own; a word longer than the width stands alone; every line after the
    first starts with ``indent`` (a list's hanging indent).

    >>> class Mono:
    ...     def size(self, text): return (len(text) * 10, 20)
    >>> wrap(Mono(), "1. error (3,1): wall is diagonal", 160, indent="  ")
    ['1. error (3,1):', '  wall is', '  diagonal']
    """
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = indent if lines else ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line.strip() else line + word
            if line.strip() and face.size(trial)[0] > width:
                lines.append(line)
                line = indent + word
            else:
                line = trial
        lines.append(line)
    return lines
