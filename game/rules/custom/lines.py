"""Where a key of a TOML text stands: its line, for error messages that name it.

``tomllib`` gives line numbers only for syntax errors; a value that parses but makes no sense
(an unknown key, a symbol no die has) is found again in the text by its key path. The reader
here is deliberately simple: it follows ``[table]`` and ``[[array.of.tables]]`` headers,
``key = value`` lines (dotted and quoted keys), inline tables on one line and arrays over
several lines (one line per element), and skips comments and multi-line strings. A path it does
not find falls back to its longest known prefix, then to line 1.

>>> text = '''name = "x"
... [[resolution.steps]]
... step = "count"
... [[resolution.steps]]
... step = "cancel"
... set = { a = "1", b = "2" }
... '''
>>> where = KeyLines(text)
>>> where.line_of(("resolution", "steps", 1, "step")), where.line_of(("resolution", "steps", 1, "set", "b"))
(5, 6)
>>> where.line_of(("nowhere",))
1
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def split_key(text: str) -> list[str] | None:
    """The parts of a dotted TOML key (bare or quoted); None if ``text`` is not a key.

    >>> split_key('attacks."Short Bow".kind'), split_key("a b")
    (['attacks', 'Short Bow', 'kind'], None)
    """
    parts: list[str] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in "\"'":
            quote = text[i]
            end = text.find(quote, i + 1)
            if end < 0:
                return None
            parts.append(text[i + 1:end])
            i = end + 1
        else:
            match = _BARE.match(text, i)
            if not match:
                return None
            parts.append(match.group(0))
            i = match.end()
        while i < n and text[i] in " \t":
            i += 1
        if i == n:
            return parts
        if text[i] != ".":
            return None
        i += 1


def _strip_comment(line: str) -> str:
    """The line without a ``#`` comment (a ``#`` inside quotes is kept)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _depth_change(text: str) -> int:
    """How many ``[`` / ``{`` the text leaves open (quotes skipped)."""
    depth, quote = 0, ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


class KeyLines:
    """The line (1-based) of each key path of a TOML text."""

    def __init__(self, text: str) -> None:
        self.lines: dict[Path, int] = {}
        self._aot: dict[Path, int] = {}
        self._read(text.splitlines())

    def line_of(self, path: Path) -> int:
        """The line of ``path``, else of its longest known prefix, else 1."""
        for end in range(len(path), 0, -1):
            line = self.lines.get(tuple(path[:end]))
            if line is not None:
                return line
        return 1

    def _note(self, path: Path, line: int) -> None:
        self.lines.setdefault(path, line)

    def _concrete(self, parts: list[str]) -> Path:
        out: list[str | int] = []
        for part in parts:
            out.append(part)
            index = self._aot.get(tuple(out))
            if index is not None:
                out.append(index)
        return tuple(out)

    def _read(self, lines: list[str]) -> None:
        table: Path = ()
        i = 0
        while i < len(lines):
            number = i + 1
            raw = _strip_comment(lines[i]).strip()
            i += 1
            if not raw:
                continue
            if raw.startswith("[["):
                parts = split_key(raw[2:raw.rfind("]]")]) if raw.endswith("]]") else None
                if parts:
                    parent = self._concrete(parts[:-1]) + (parts[-1],)
                    index = self._aot.get(parent, -1) + 1
                    self._aot[parent] = index
                    table = parent + (index,)
                    self._note(parent, number)
                    self._note(table, number)
                continue
            if raw.startswith("["):
                parts = split_key(raw[1:raw.rfind("]")]) if raw.endswith("]") else None
                if parts:
                    table = self._concrete(parts)
                    self._note(table, number)
                continue
            key, sep, value = raw.partition("=")
            parts = split_key(key) if sep else None
            if not parts:
                continue
            path = table + tuple(parts)
            self._note(path, number)
            value = value.strip()
            if value.startswith("{"):
                self._inline(path, value, number)
            if value.startswith(('"""', "'''")) and value.count(value[:3]) == 1:
                while i < len(lines) and value[:3] not in lines[i]:
                    i += 1
                i += 1
            elif value.startswith("[") and _depth_change(value) > 0:
                i = self._array(path, value, lines, i, number)

    def _inline(self, path: Path, value: str, number: int) -> None:
        """Keys of a one-line inline table ``{ a = 1, b = "x" }``."""
        for match in re.finditer(r"[{,]\s*([A-Za-z0-9_\-\"'. ]+?)\s*=", value):
            parts = split_key(match.group(1))
            if parts:
                self._note(path + tuple(parts), number)

    def _array(self, path: Path, first: str, lines: list[str], i: int, number: int) -> int:
        """An array over several lines: each element's line; returns the line after it."""
        depth = _depth_change(first)
        element = 0
        while i < len(lines) and depth > 0:
            raw = _strip_comment(lines[i]).strip()
            if depth == 1 and raw and raw not in ("]", "],"):
                self._note(path + (element,), i + 1)
                if raw.startswith("{"):
                    self._inline(path + (element,), raw, i + 1)
                element += 1
            depth += _depth_change(raw)
            i += 1
        return i
