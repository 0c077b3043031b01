"""Text laid out in pixels: words wrapped to a width (the classroom's column and cards, the PNG
legend, the rule's sentences on the board, the banner, the reader, the hover card).

>>> class Mono:  # a face where every character is 10 px wide
...     def size(self, text): return (len(text) * 10, 20)
>>> wrap(Mono(), "a wall between\\nthe squares", 80)
['a wall', 'between', 'the', 'squares']
"""

from __future__ import annotations

from typing import Any


def wrap(face: Any, text: str, width: int) -> list[str]:
    """Words wrapped to ``width`` pixels in ``face`` (anything with pygame's ``Font.size``), each
    line of ``text`` on its own; a word longer than the width stands alone."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and face.size(trial)[0] > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
