"""Reading one TOML table of a ruleset file: typed keys, unknown keys refused with a suggestion,
every refusal one :class:`~game.rules.custom.errors.RulesetFileError` naming the line."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from typing import NoReturn

from game.rules.custom.errors import RulesetFileError
from game.rules.custom.expr import Expr, ExprError, parse
from game.rules.custom.lines import KeyLines, Path

_TYPE_WORDS = {bool: "true or false", int: "a whole number", str: "text in quotes",
               list: "a list [...]", dict: "a table"}


class Source:
    """The text of a ruleset file and its name, to point at lines in errors."""

    def __init__(self, text: str, name: str) -> None:
        self.name = name
        self.where = KeyLines(text)

    def fail(self, path: Path, problem: str, fix: str = "") -> NoReturn:
        """Raise the one-line error for ``path``."""
        raise RulesetFileError(problem, source=self.name, line=self.where.line_of(path), fix=fix)


def suggest(word: str, known: Collection[str]) -> str:
    """``did you mean 'x'?`` for the closest known word, else the list of known words.

    >>> suggest("explod", ["explode", "dice"])
    "did you mean 'explode'?"
    """
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return "known: " + ", ".join(sorted(known)) if known else "remove it"


def type_word(value: object) -> str:
    """What a TOML value is, in a reader's words."""
    for kind, word in _TYPE_WORDS.items():
        if type(value) is kind:
            return word
    return type(value).__name__


class Table:
    """One table of the file: ``what`` names it in messages ("step 3 (count)")."""

    def __init__(self, source: Source, path: Path, data: object, what: str) -> None:
        self.source = source
        self.path = path
        self.what = what
        if not isinstance(data, dict):
            source.fail(path, f"{what} must be a table, not {type_word(data)}",
                        "write it as [name] with key = value lines, or { key = value }")
        self.data: dict[str, object] = data
        self.used: set[str] = set()

    def fail(self, key: str | None, problem: str, fix: str = "") -> NoReturn:
        """Raise the error at ``key`` of this table (the table itself when None)."""
        self.source.fail(self.path + ((key,) if key else ()), problem, fix)

    def has(self, key: str) -> bool:
        """Whether the table gives ``key``."""
        return key in self.data

    def raw(self, key: str) -> object:
        """The value as given (marks the key used)."""
        self.used.add(key)
        return self.data.get(key)

    def text(self, key: str, default: str | None = None, *, choices: Collection[str] = ()) -> str:
        """A text value (one of ``choices`` when given)."""
        value = self.raw(key)
        if value is None:
            if default is None:
                self.fail(None, f"{self.what} needs {key}", f"add {key} = \"...\"")
            return default
        if not isinstance(value, str):
            self.fail(key, f"{key} in {self.what} must be text in quotes, not {type_word(value)}",
                      f'write {key} = "{value}"')
        if choices and value not in choices:
            self.fail(key, f"{key} = {value!r} in {self.what} is not one of "
                      f"{', '.join(repr(c) for c in choices)}", suggest(value, choices))
        return value

    def integer(self, key: str, default: int | None = None) -> int | None:
        """A whole number (None when missing and no default)."""
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"{key} in {self.what} must be a whole number, not {type_word(value)}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        """true or false."""
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail(key, f"{key} in {self.what} must be true or false, not {type_word(value)}")
        return value

    def expr(self, key: str, *, required: bool = False) -> Expr | None:
        """An expression (text, a whole number, or true/false)."""
        value = self.raw(key)
        if value is None:
            if required:
                self.fail(None, f"{self.what} needs {key}", f'add {key} = "..." (a number or an expression)')
            return None
        try:
            return parse(value)
        except ExprError as exc:
            self.fail(key, f"{key} in {self.what}: {exc.problem}", exc.fix)

    def words(self, key: str) -> tuple[str, ...] | None:
        """A list of texts (a single text counts as a list of one)."""
        value = self.raw(key)
        if value is None:
            return None
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            self.fail(key, f"{key} in {self.what} must be a list of texts, not {type_word(value)}",
                      f'write {key} = ["a", "b"]')
        return tuple(items)

    def numbers(self, key: str) -> tuple[int, ...] | None:
        """A list of whole numbers (a single number counts as a list of one)."""
        value = self.raw(key)
        if value is None:
            return None
        items = [value] if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(items, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in items
        ):
            self.fail(key, f"{key} in {self.what} must be a list of whole numbers, not {type_word(value)}",
                      f"write {key} = [1, 6]")
        return tuple(items)

    def table(self, key: str, what: str) -> Table | None:
        """A sub-table (None when missing)."""
        value = self.raw(key)
        if value is None:
            return None
        return Table(self.source, self.path + (key,), value, what)

    def finish(self, known: Collection[str] | None = None) -> None:
        """Refuse keys nobody read (``known`` extends the words suggested)."""
        for key in self.data:
            if key not in self.used:
                choices = set(self.used) | set(known or ())
                self.fail(key, f"unknown key {key!r} in {self.what}", suggest(key, choices))


def mapping_items(table: Table) -> list[tuple[str, object]]:
    """Every key and value of a free-form table (stats, dice, attacks), all marked used."""
    table.used.update(table.data)
    return list(table.data.items())


def as_mapping(value: object) -> Mapping[str, object] | None:
    """The value when it is a table."""
    return value if isinstance(value, dict) else None
