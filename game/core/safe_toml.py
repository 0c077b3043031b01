"""TOML text read safely, with every refusal in our words (``sightline.toml``, ruleset files).

:func:`loads` is :func:`tomllib.loads` with its failures turned into one :class:`TomlError`:
a syntax error keeps its line and column and says what is wrong in our words (never tomllib's
``Invalid value (at end of document)``); an integer of more than 4,300 digits (which ``int()``
refuses deep inside tomllib) and lists nested past Python's stack are refused too. Pure: text in,
data out; the callers type-check the values (TOML itself has ``nan`` and ``inf``).

>>> loads('preset = "tuxemon"\\n[classes]\\nwall = ["Wall"]\\n')
{'preset': 'tuxemon', 'classes': {'wall': ['Wall']}}
>>> loads('preset = "tuxemon"\\nclasses = [\\n')
Traceback (most recent call last):
...
game.core.safe_toml.TomlError: line 3, column 1: the text ends early: expected a value here: "text", a number, true, false, a date, [ or {
>>> loads("size = " + "9" * 5000)
Traceback (most recent call last):
...
game.core.safe_toml.TomlError: a number has more than 4,300 digits
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

__all__ = ["TomlError", "loads"]

#: tomllib's messages (the start of each) → ours
_WORDS: tuple[tuple[str, str], ...] = (
    ("Invalid value", "expected a value here: \"text\", a number, true, false, a date, [ or {"),
    ("Invalid statement", "a line is neither name = value nor a [table] heading"),
    ("Expected newline or end of document", "there is more on the line after its value (one "
                                            "name = value a line)"),
    ("Expected '=' after a key", "an = is missing after a name"),
    ("Expected ']' at the end of a table", "a [table] heading is not closed with ]"),
    ("Expected ']]' at the end of an array", "a [[table]] heading is not closed with ]]"),
    ("Expected", "a closing bracket or quote is missing"),
    ("Invalid initial character for a key", "a name starts with a character names cannot have "
                                            "(write it in double quotes)"),
    ("Unclosed array", "a [ list is not closed with ]"),
    ("Unclosed inline table", "a { table is not closed with }"),
    ("Unterminated string", "a text in quotes never ends"),
    ("Unescaped '\\' in a string", "a backslash in a text starts no known escape (write \\\\ "
                                    "for one)"),
    ("Invalid hex value", "a \\u escape needs four hexadecimal digits"),
    ("Escaped character is not a Unicode scalar value", "a \\u escape names no character"),
    ("Illegal character", "a text holds a raw control character"),
    ("Found invalid character", "a character here is not allowed"),
    ("Invalid date or datetime", "a date or time is not a real one"),
    ("Cannot declare", "a [table] is declared twice"),
    ("Cannot overwrite a value", "a name is given a value twice"),
    ("Duplicate inline table key", "a name is given a value twice"),
    ("Cannot mutate immutable namespace", "a table written inline is added to later"),
    ("Cannot redefine namespace", "a name is used both as a value and as a table"),
)
_WHERE = re.compile(r"\(at (?:line (\d+), column (\d+)|end of document)\)\s*$")


class TomlError(ValueError):
    """TOML text that cannot be read; ``str()`` is one line in our words, after its line and
    column when known (``line 2, column 12: a [ list is not closed with ]``)."""

    def __init__(self, problem: str, *, line: int | None = None, column: int | None = None) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        place = "" if line is None else f"line {line}" + ("" if column is None else f", column {column}") + ": "
        super().__init__(place + problem)


def loads(text: str) -> dict[str, Any]:
    """Parse TOML text; :class:`TomlError` in our words when it cannot be."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(str(exc), text) from None
    except RecursionError:
        raise TomlError("lists or tables are nested too deeply") from None
    except ValueError:  # int() past 4,300 digits, deep inside tomllib
        raise TomlError("a number has more than 4,300 digits") from None


def _syntax_error(message: str, text: str) -> TomlError:
    """Our words for one of tomllib's messages, at its line and column (the end of the document
    is the last line's end)."""
    where = _WHERE.search(message)
    theirs = message[: where.start()].strip() if where else message
    ours = next((words for start, words in _WORDS if theirs.startswith(start)), "the text is not valid TOML here")
    if where is None:
        return TomlError(ours)
    if where.group(1) is None:
        lines = text.split("\n")
        return TomlError(f"the text ends early: {ours}", line=len(lines), column=len(lines[-1]) + 1)
    return TomlError(ours, line=int(where.group(1)), column=int(where.group(2)))
