"""JSON text read safely, and its fields read by type, with every message in our words.

Every JSON document Sightline reads (Tiled's ``.tmj``/``.tsj``/``.tj`` and ``.tiled-project``
files, the autosaved play state) goes through :func:`loads`, and every field of it through a
:class:`Field`. Pure: text in, data out; no files.

:func:`loads` is :func:`json.loads` inside limits, so no document can make it (or the code
after it) run long, eat memory or recurse past Python's stack. Size, container count, digit runs
and surrogates are checked before parsing, at C speed (a regular expression over the raw text;
only a hit blanks the strings to be sure); the depth after parsing, by one walk with a stack of
its own (Python's parser itself stops near 1,000 levels). It costs about 2-3x ``json.loads``.

- at most :data:`MAX_CHARS` characters, :data:`MAX_DEPTH` levels of ``[`` / ``{`` nesting and
  :data:`MAX_CONTAINERS` lists and objects in all;
- no number of more than :data:`MAX_DIGITS` digits in a row (Python refuses integers of more than
  4,300 digits deep inside ``int()``; long before that they are nonsense in a map);
- no ``NaN``, ``Infinity`` or a number too large for a float (``1e999``): JSON has none of them;
- no half of a UTF-16 surrogate pair (``"\\ud800"`` alone), which no file can be written back with.

Anything else is a :class:`JsonError`: one line saying where (line and column, or the field's
place such as ``layers[3].polyline``) and what is wrong, never the text of Python's ``json``.

>>> loads('{"layers": [{"name": "walls", "opacity": 0.5}]}')
{'layers': [{'name': 'walls', 'opacity': 0.5}]}
>>> loads('{"width": 10,}')
Traceback (most recent call last):
...
game.core.safe_json.JsonError: line 1, column 14: a comma stands before a closing bracket, or a name in double quotes is missing
>>> loads("[" * 500 + "]" * 500)
Traceback (most recent call last):
...
game.core.safe_json.JsonError: line 1, column 101: lists and objects are nested more than 100 deep

A :class:`Field` is a value and the place it came from; its typed readers return the value or
raise one :class:`JsonError` naming the place, what was expected and what was found:

>>> doc = Field(loads('{"layers": [{"polyline": true, "width": 3.5}]}'))
>>> layer = doc.key("layers").items()[0]
>>> layer.key("polyline").items()
Traceback (most recent call last):
...
game.core.safe_json.JsonError: expected a list at layers[0].polyline, found true
>>> layer.key("width").whole()
Traceback (most recent call last):
...
game.core.safe_json.JsonError: expected a whole number at layers[0].width, found 3.5
>>> layer.key("name").text(default="unnamed"), layer.key("opacity").number(default=1)
('unnamed', 1)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Final, cast

__all__ = [
    "MAX_CHARS", "MAX_CONTAINERS", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT_DIGITS", "Field", "JsonError", "describe",
    "loads",
]

#: the most characters a JSON document may have (the 64 MiB file limit of the map reader)
MAX_CHARS: Final = 64 * 1024 * 1024
#: the deepest nesting of lists and objects (Tiled's deepest is a polyline point in a group of
#: groups, about a dozen; Python's own parser stops near 1,000 with a RecursionError)
MAX_DEPTH: Final = 100
#: the most lists and objects in one document (each costs ~100-250 bytes once parsed)
MAX_CONTAINERS: Final = 2_000_000
#: the most digits in a row a number may have (an int64 has 19; a float is exact to 17)
MAX_DIGITS: Final = 40

#: the most digits a number's exponent may have (``1e999`` is read; ``1e1000`` is not: an exact
#: reader would build a thousand-digit integer for each)
MAX_EXPONENT_DIGITS: Final = 3
_LONG_EXPONENT = re.compile(rf"(?<=[0-9.])[eE][+-]?[0-9]{{{MAX_EXPONENT_DIGITS + 1},}}")

#: a JSON string (the unrolled loop: linear, no catastrophic backtracking)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE_HINT = re.compile(r"\\u[dD][89a-fA-F]")
#: an escaped surrogate not paired: a high one without a low one after it, or a low one alone
_ESCAPE_LEAD = r"(?<!\\)(?:\\\\)*"
_LONE_SURROGATE = re.compile(
    _ESCAPE_LEAD + r"(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)

#: Python's json messages (``JSONDecodeError.msg``, which varies by version) → ours
_SYNTAX: tuple[tuple[str, str], ...] = (
    ("Expecting value", "expected a value here: a number, \"text\", true, false, null, [ or {"),
    ("Expecting ',' delimiter", "a comma is missing between two items"),
    ("Expecting ':' delimiter", "a colon is missing after a name"),
    ("Expecting property name", "a comma stands before a closing bracket, or a name in double "
                                "quotes is missing"),
    ("Illegal trailing comma", "a comma stands before a closing bracket"),
    ("Extra data", "there is more text after the end of the document"),
    ("Unterminated string", "a text in double quotes never ends"),
    ("Invalid control character", "a text holds a raw control character (write a tab as \\t "
                                   "and a line break as \\n)"),
    ("Invalid \\uXXXX", "a \\u escape needs four hexadecimal digits"),
    ("Invalid \\escape", "a backslash in a text starts no known escape (write \\\\ for one)"),
)


class JsonError(ValueError):
    """JSON text, or a field of it, that cannot be used; ``str()`` is one line in our words.

    ``problem`` is what is wrong; ``line`` and ``column`` (1-based) place it in the text when
    known; ``where`` is the field's place (``layers[3].polyline``) for a field error; ``limit``
    names the limit a refused document is past (``"chars"``, ``"containers"``, ``"depth"``,
    ``"digits"``), else None. Callers put the file's name in front (``m.tmj: line 3, column 5:
    ...``).

    >>> str(JsonError("a comma is missing between two items", line=3, column=5))
    'line 3, column 5: a comma is missing between two items'
    """

    def __init__(self, problem: str, *, line: int | None = None, column: int | None = None,
                 where: str | None = None, limit: str | None = None) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        self.where = where
        self.limit = limit
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The problem, after its line and column when known."""
        if self.line is None:
            return self.problem
        place = f"line {self.line}" + (f", column {self.column}" if self.column is not None else "")
        return f"{place}: {self.problem}"


# --- loading -----------------------------------------------------------------------------------


def loads(text: str | bytes, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH,
          max_containers: int = MAX_CONTAINERS, max_digits: int = MAX_DIGITS,
          parse_float: Callable[[str], Any] | None = None) -> Any:
    """Parse JSON text (``bytes`` are read as UTF-8, with or without a byte-order mark) within the
    limits; raises :class:`JsonError` on anything else.

    ``parse_float`` reads a number with a point or an exponent from its text (default: a finite
    ``float``); an exact reader (``Fraction``, ``Decimal``) is safe here, since no number has more
    than ``max_digits`` digits in a row or an exponent past ±999 (:data:`MAX_EXPONENT_DIGITS`).

    >>> from fractions import Fraction
    >>> loads('{"x": 0.1, "n": 3}', parse_float=Fraction)
    {'x': Fraction(1, 10), 'n': 3}

    >>> loads(b'\\xef\\xbb\\xbf{"a": [1, 2.5, null, true]}')
    {'a': [1, 2.5, None, True]}
    >>> loads("[NaN]")
    Traceback (most recent call last):
    ...
    game.core.safe_json.JsonError: line 1, column 2: NaN is not a number JSON has (write a number)
    >>> loads("[" + "9" * 5000 + "]")
    Traceback (most recent call last):
    ...
    game.core.safe_json.JsonError: line 1, column 2: a number has 5000 digits (at most 40)
    """
    if isinstance(text, bytes | bytearray):
        text = _decode(bytes(text), max_chars)
    if len(text) > max_chars:
        raise JsonError(f"the text is {len(text):,} characters long (at most {max_chars:,})", limit="chars")
    if not text.strip():
        raise JsonError("the file is empty")
    _check_text(text, max_containers, max_digits)
    try:
        doc = json.loads(text, parse_constant=_refuse_constant,
                         parse_float=_finite_float if parse_float is None else parse_float)
    except _Refused as exc:
        raise _located(text, exc.token, exc.problem) from None
    except json.JSONDecodeError as exc:
        raise JsonError(_syntax_words(exc.msg), line=exc.lineno, column=exc.colno) from None
    except RecursionError:  # Python's parser stops near 1,000 levels
        raise _too_deep(text, max_depth) from None
    if not _within_depth(doc, max_depth):
        raise _too_deep(text, max_depth)
    return doc


def _decode(data: bytes, max_chars: int) -> str:
    if len(data) > 4 * max_chars:
        raise JsonError(f"the file is {len(data):,} bytes long (at most {max_chars:,} characters)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonError(f"the file is not UTF-8 text (byte {exc.start + 1} is not UTF-8); "
                        "save it again as UTF-8") from None


def _check_text(text: str, max_containers: int, max_digits: int) -> None:
    """Before parsing: the count of lists and objects, runs of digits, lone surrogates. Each is
    first looked for in the raw text (C speed); only a hit strips the strings to be sure."""
    bare: str | None = None
    if text.count("[") + text.count("{") > max_containers:
        bare = _blank_strings(text)
        containers = bare.count("[") + bare.count("{")
        if containers > max_containers:
            raise JsonError(f"the document has {containers:,} lists and objects (at most {max_containers:,})",
                            limit="containers")
    long_digits = re.compile(f"[0-9]{{{max_digits + 1},}}")
    if long_digits.search(text) is not None:
        bare = bare if bare is not None else _blank_strings(text)
        found = long_digits.search(bare)
        if found is not None:
            raise JsonError(f"a number has {len(found.group())} digits (at most {max_digits})",
                            line=_line_of(bare, found.start()), column=_column_of(bare, found.start()),
                            limit="digits")
    if _LONG_EXPONENT.search(text) is not None:
        bare = bare if bare is not None else _blank_strings(text)
        found = _LONG_EXPONENT.search(bare)
        if found is not None:
            raise JsonError(f"a number's exponent {found.group()[1:]} is too large (at most "
                            f"{MAX_EXPONENT_DIGITS} digits)",
                            line=_line_of(bare, found.start()), column=_column_of(bare, found.start()))
    if _SURROGATE_HINT.search(text) is not None:
        lone = _LONE_SURROGATE.search(text)
        if lone is not None:
            raise JsonError("a text holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff "
                            "must come in pairs)", line=_line_of(text, lone.end()))


def _within_depth(doc: Any, max_depth: int) -> bool:
    """Whether no list or object of the parsed document lies more than ``max_depth`` deep (one
    walk with a stack of its own, so a deep document cannot exhaust Python's)."""
    stack: list[tuple[Any, int]] = [(doc, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth = pop()
        if type(value) is dict:
            value = value.values()
        elif type(value) is not list:
            continue
        if depth > max_depth:
            return False
        for item in value:
            kind = type(item)
            if kind is dict or kind is list:
                push((item, depth + 1))
    return True


def _too_deep(text: str, max_depth: int) -> JsonError:
    """The error for nesting past ``max_depth``, at the first bracket opened that deep."""
    bare = _blank_strings(text)
    depth = 0
    for match in _BRACKET.finditer(bare):
        if match.group() in "[{":
            depth += 1
            if depth > max_depth:
                return JsonError(f"lists and objects are nested more than {max_depth} deep",
                                 line=_line_of(bare, match.start()), column=_column_of(bare, match.start()),
                                 limit="depth")
        else:
            depth -= 1
    return JsonError(f"lists and objects are nested more than {max_depth} deep", limit="depth")


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _column_of(text: str, position: int) -> int:
    return position - text.rfind("\n", 0, position)


def _blank_strings(text: str) -> str:
    """The text with the inside of every string blanked: brackets and digits in strings vanish,
    every position (line, column) stays true."""
    return _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


class _Refused(ValueError):
    """A number token json would accept and we do not (raised inside the parse hooks)."""

    def __init__(self, token: str, problem: str) -> None:
        super().__init__(problem)
        self.token = token
        self.problem = problem


def _refuse_constant(name: str) -> Any:
    raise _Refused(name, f"{name} is not a number JSON has (write a number)")


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _Refused(token, f"the number {token[:24]} is too large (at most about 1.8e308)")
    return value


def _located(text: str, token: str, problem: str) -> JsonError:
    """A refused token's error, placed at its first occurrence outside a string when found."""
    found = re.search(r"(?<![\w.+-])" + re.escape(token) + r"(?![\w.])", _blank_strings(text))
    if found is None:
        return JsonError(problem)
    return JsonError(problem, line=_line_of(text, found.start()), column=_column_of(text, found.start()))


def _syntax_words(message: str) -> str:
    """Our words for one of Python's json messages."""
    for theirs, ours in _SYNTAX:
        if message.startswith(theirs):
            return ours
    return "the text is not valid JSON here"


# --- fields -----------------------------------------------------------------------------------


class _Missing:
    """The value of a field the document does not have."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Final = _Missing()
_REQUIRED: Final = _Missing()
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*|[0-9]+")


def describe(value: Any) -> str:
    """A JSON value as an error message shows what it found.

    >>> [describe(v) for v in (True, None, 3.5, 10**30, "ajar", [1, 2], {"a": 1}, MISSING)]
    ['true', 'null', '3.5', 'a number of 31 digits', '"ajar"', 'a list of 2 items', 'an object', 'nothing']
    """
    if value is MISSING:
        return "nothing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10**MAX_DIGITS else MAX_DIGITS + 1
        return str(value) if digits <= 20 else f"a number of {digits}{'+' if digits > MAX_DIGITS else ''} digits"
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "a number out of range"
    if isinstance(value, Fraction):
        return describe(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    if isinstance(value, str):
        shown = json.dumps(value[:30], ensure_ascii=False)
        return shown if len(value) <= 30 else shown[:-1] + '…"'
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}" if value else "an empty list"
    if isinstance(value, dict):
        return "an object"
    return "a value JSON does not have"


class Field:
    """A value of a JSON document and its place in it (``layers[3].polyline``; ``""`` = the whole
    document). The readers (:meth:`text`, :meth:`whole`, :meth:`number`, :meth:`flag`,
    :meth:`choice`, :meth:`items`, :meth:`entries`, :meth:`numbers`, :meth:`object`) return the
    value as that type or raise :class:`JsonError` ``expected <kind> at <place>, found <value>``.
    A field the document lacks (or holds ``null``) gives the reader's ``default`` when one is
    given, else the same error with "found nothing".

    >>> doc = Field({"doors": [{"state": "ajar"}]})
    >>> doc.key("doors").items()[0].key("state").choice(("closed", "open", "locked"))
    Traceback (most recent call last):
    ...
    game.core.safe_json.JsonError: expected closed, open or locked at doors[0].state, found "ajar"
    """

    __slots__ = ("value", "where")

    def __init__(self, value: Any, where: str = "") -> None:
        self.value = value
        self.where = where

    def __repr__(self) -> str:
        return f"Field({self.value!r}, {self.where!r})"

    @property
    def place(self) -> str:
        """Where the field is, as a message says it."""
        return self.where or "the top level"

    @property
    def present(self) -> bool:
        """Whether the document has this field with a value other than ``null``."""
        return self.value is not MISSING and self.value is not None

    def fail(self, expected: str) -> JsonError:
        """The error for this field not being ``expected`` (a phrase: "a list of numbers")."""
        return JsonError(f"expected {expected} at {self.place}, found {describe(self.value)}",
                         where=self.place)

    def _absent(self, default: Any, expected: str) -> Any:
        if default is _REQUIRED:
            raise self.fail(expected)
        return default

    # --- structure ---

    def key(self, name: str) -> Field:
        """The member ``name`` of this object (missing when this field is missing or null)."""
        if not self.present:
            return Field(MISSING, self._child(name))
        if not isinstance(self.value, dict):
            raise self.fail("an object")
        return Field(self.value.get(name, MISSING), self._child(name))

    def object(self, default: Any = _REQUIRED) -> dict[str, Any]:
        """This field as an object (a ``dict``)."""
        if not self.present:
            return cast("dict[str, Any]", self._absent(default, "an object"))
        if not isinstance(self.value, dict):
            raise self.fail("an object")
        return self.value

    def items(self, default: Iterable[Any] | _Missing = _REQUIRED, *, limit: int | None = None,
              tail: int | None = None) -> list[Field]:
        """The items of this list, each a field (``where[i]``): at most ``limit`` of them (more is
        an error), or only the last ``tail`` (the earlier ones are dropped unread).

        >>> [f.where for f in Field([1, 2, 3], "log").items(tail=2)]
        ['log[1]', 'log[2]']
        """
        if not self.present:
            values = list(self._absent(default, "a list"))
        elif not isinstance(self.value, list):
            raise self.fail("a list")
        else:
            values = self.value
        if limit is not None and len(values) > limit:
            raise JsonError(f"expected at most {limit:,} items at {self.place}, found {len(values):,}",
                            where=self.place)
        start = 0 if tail is None else max(0, len(values) - tail)
        return [Field(values[i], f"{self.where}[{i}]") for i in range(start, len(values))]

    def entries(self, default: dict[str, Any] | _Missing = _REQUIRED, *,
                limit: int | None = None) -> list[tuple[str, Field]]:
        """The members of this object as ``(name, field)`` pairs, in the document's order; at
        most ``limit`` of them (more is an error)."""
        members = self.object(default)
        if limit is not None and len(members) > limit:
            raise JsonError(f"expected at most {limit:,} members at {self.place}, found {len(members):,}",
                            where=self.place)
        return [(name, Field(v, self._child(name))) for name, v in members.items()]

    def _child(self, name: str) -> str:
        shown = name if _NAME.fullmatch(name) else json.dumps(name[:40], ensure_ascii=False)
        if shown is name:
            return f"{self.where}.{name}" if self.where else name
        return f"{self.where}[{shown}]"

    # --- scalars ---

    def text(self, default: Any = _REQUIRED, *, max_len: int | None = None) -> str:
        """This field as text (at most ``max_len`` characters when given)."""
        if not self.present:
            return cast("str", self._absent(default, "text"))
        if not isinstance(self.value, str):
            raise self.fail("text")
        if max_len is not None and len(self.value) > max_len:
            raise self.fail(f"text of at most {max_len:,} characters")
        return self.value

    def flag(self, default: Any = _REQUIRED) -> bool:
        """This field as ``true`` or ``false``."""
        if not self.present:
            return cast("bool", self._absent(default, "true or false"))
        if not isinstance(self.value, bool):
            raise self.fail("true or false")
        return self.value

    def number(self, default: Any = _REQUIRED, *, low: float | None = None,
               high: float | None = None) -> int | float | Fraction:
        """This field as a finite number (``true``/``false`` are not numbers), within bounds; a
        document read with ``parse_float=Fraction`` gives its exact numbers as they are."""
        expected = _kind("a number", low, high)
        if not self.present:
            return cast("int | float | Fraction", self._absent(default, expected))
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
            raise self.fail(expected)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(expected)
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(expected)
        return value

    def whole(self, default: Any = _REQUIRED, *, low: int | None = None,
              high: int | None = None) -> int:
        """This field as a whole number within bounds (``3.0`` is 3; ``3.7`` is refused)."""
        expected = _kind("a whole number", low, high)
        if not self.present:
            return cast("int", self._absent(default, expected))
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
            raise self.fail(expected)
        if isinstance(value, float | Fraction):
            if (value.denominator != 1) if isinstance(value, Fraction) else not value.is_integer():
                raise self.fail(expected)
            value = int(value)
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(expected)
        return value

    def choice(self, choices: Iterable[str], default: Any = _REQUIRED) -> str:
        """This field as one of the texts ``choices``."""
        options = list(choices)
        expected = ", ".join(options[:-1]) + f" or {options[-1]}" if len(options) > 1 else options[0]
        if not self.present:
            return cast("str", self._absent(default, expected))
        if not isinstance(self.value, str) or self.value not in options:
            raise self.fail(expected)
        return self.value

    def numbers(self, default: Any = _REQUIRED, *, length: int | None = None,
                whole: bool = False, low: int | None = None, high: int | None = None) -> list[Any]:
        """This field as a list of numbers (whole ones with ``whole``; exactly ``length`` of them
        when given); an item that is not one is named (``square[0]``).

        >>> Field([3.7, 2.2], "square").numbers(length=2, whole=True)
        Traceback (most recent call last):
        ...
        game.core.safe_json.JsonError: expected a whole number at square[0], found 3.7
        """
        noun = "whole numbers" if whole else "numbers"
        expected = f"a list of {length} {noun}" if length is not None else f"a list of {noun}"
        if not self.present:
            return cast("list[Any]", self._absent(default, expected))
        if not isinstance(self.value, list) or (length is not None and len(self.value) != length):
            raise self.fail(expected)
        if whole:
            return self.wholes(low=low, high=high)
        return [item.number(low=low, high=high) for item in self.items()]

    def wholes(self, default: Any = _REQUIRED, *, low: int | None = None,
               high: int | None = None) -> list[int]:
        """This field as a list of whole numbers within bounds, at C speed when every item is a
        JSON integer in range (a map's tile data: millions of them); else the first item that is
        not one is named (``layers[0].data[7]``).

        >>> Field([1, 0, 7], "data").wholes(low=0, high=9)
        [1, 0, 7]
        >>> Field([1, None, 7], "layers[0].data").wholes(low=0)
        Traceback (most recent call last):
        ...
        game.core.safe_json.JsonError: expected a whole number of at least 0 at layers[0].data[1], found null
        """
        if not self.present:
            return cast("list[int]", self._absent(default, "a list of whole numbers"))
        values = self.value
        if not isinstance(values, list):
            raise self.fail("a list of whole numbers")
        if (values and set(map(type, values)) == {int} and (low is None or min(values) >= low)
                and (high is None or max(values) <= high)):
            return values
        return [item.whole(low=low, high=high) for item in self.items()]


def _kind(noun: str, low: float | None, high: float | None) -> str:
    """``a whole number from 0 to 10``, ``a number of at least 0`` ..."""
    if low is not None and high is not None:
        if low == high:
            return f"{noun} equal to {_shown(low)}"
        return f"{noun} from {_shown(low)} to {_shown(high)}"
    if low is not None:
        return f"{noun} of at least {_shown(low)}"
    if high is not None:
        return f"{noun} of at most {_shown(high)}"
    return noun


def _shown(bound: float) -> str:
    return str(bound) if isinstance(bound, int) else f"{bound:g}"
