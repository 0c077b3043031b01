"""Text laid out in pixels: words wrapped to a width (the classroom's column and cards, the PNG
legend, the rule's sentences on the board, the banner, the reader, the hover card), and the
findings list's rows wrapped the same way from glyph advances (:class:`RowWrapper`).

>>> class Mono:  # a face where every character is 10 px wide
...     def size(self, text): return (len(text) * 10, 20)
>>> wrap(Mono(), "a wall between\\nthe squares", 80)
['a wall', 'between', 'the', 'squares']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
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


class RowWrapper:
    """The findings list's rows: each text wrapped to a width with a hanging indent, exactly as
    :func:`game.ui.text.wrap` does, but measuring about two strings a row instead of one per word.

    The font's glyph advances (one call per text, no drawing) give each candidate row's width
    to within a few pixels; only a row whose sum lands that close to the width is measured for
    real (``face.size``, which draws). Rows of a text are cached per (font, width, text), so only
    new text is measured.
    """

    INDENT = "   "
    #: pixels by which a sum of advances may miss the drawn width (measured: -3..+1 on 20,000
    #: prefixes of the 150x150 benchmark map's findings), plus 1 px per 8 characters below
    SLACK = 4

    def __init__(self, face: Any = None) -> None:
        self.face = face
        self._cache: dict[tuple[int, int, str], list[str]] = {}
        self._indents: dict[int, int] = {}

    def rows(self, texts: Sequence[str], width: int) -> tuple[list[str], list[int]]:
        """Every text's rows (made unique by trailing spaces) and the index of each row's text."""
        rows: list[str] = []
        owners: list[int] = []
        seen: set[str] = set()
        for index, text in enumerate(texts):
            for line in self.wrap(text, width):
                while line in seen:
                    line += " "
                seen.add(line)
                rows.append(line)
                owners.append(index)
        return rows, owners

    def wrap(self, text: str, width: int) -> list[str]:
        """``wrap(face, text, width, indent=INDENT)``, cached."""
        key = (id(self.face), width, text)
        lines = self._cache.get(key)
        if lines is None:
            if len(self._cache) > 20_000:
                self._cache.clear()
            lines = self._cache[key] = self._wrap(text, width)
        return lines

    def _wrap(self, text: str, width: int) -> list[str]:
        face = self.face
        words = text.split(" ")
        advances = getattr(face, "get_metrics", None)
        metrics = advances(text) if advances is not None and "\n" not in text and all(words) else None
        if not metrics or len(metrics) != len(text) or None in metrics:
            return wrap(face, text, width, indent=self.INDENT)
        ends = [0, *accumulate(glyph[4] for glyph in metrics)]  # the advance sum at each boundary
        starts: list[int] = []  # each word's first character
        at = 0
        for word in words:
            starts.append(at)
            at += len(word) + 1
        indent = self._indent_width()

        def line(first: int, last: int) -> str:
            body = " ".join(words[first : last + 1])
            return body if first == 0 else self.INDENT + body

        def fits(first: int, last: int) -> bool:
            lead = 0 if first == 0 else indent
            start, end = starts[first], starts[last] + len(words[last])
            guess = lead + ends[end] - ends[start]
            slack = self.SLACK + (end - start) // 8  # advances are rounded: the sum drifts
            if guess <= width - slack:
                return True
            if guess > width + slack:
                return False
            return bool(face.size(line(first, last))[0] <= width)

        lines: list[str] = []
        first = 0
        while first < len(words):
            last = first
            while last + 1 < len(words) and fits(first, last + 1):
                last += 1
            lines.append(line(first, last))
            first = last + 1
        return lines

    def _indent_width(self) -> int:
        width = self._indents.get(id(self.face))
        if width is None:
            width = self._indents[id(self.face)] = int(self.face.size(self.INDENT)[0])
        return width
