"""Reading a figure's stats (its Tiled properties) the one way every ruleset reads them: whole
numbers, booleans and lists, each malformed value a one-line :class:`UsageError` naming the figure,
and the same checks as lists of problems for ``check``.

Pure. Plug-in rulesets may import these from :mod:`game.rules.base` as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from game.core.board import Figure
from game.core.errors import UsageError

__all__ = [
    "STAT_LIMIT", "bool_problems", "int_problems", "parse_problem", "short_repr", "stat_bool", "stat_int", "stat_list",
]


def stat_int(figure: Figure, key: str, default: int = 0) -> int:
    """An integer stat; missing or empty → ``default``; malformed → UsageError naming the figure.

    >>> stat_int(Figure(1, "Mark", "red", (0, 0), {"life": "5"}), "life")
    5
    """
    value = figure.stats.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and abs(value) <= STAT_LIMIT:
        return value
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise UsageError(f"{figure.label}: property {key!r} must be a number, not {short_repr(value)}") from None
    if not math.isfinite(number) or abs(number) > STAT_LIMIT:
        raise UsageError(
            f"{figure.label}: property {key!r} must be a whole number between {-STAT_LIMIT} and "
            f"{STAT_LIMIT}, not {short_repr(value)}"
        )
    if number != int(number):
        raise UsageError(f"{figure.label}: property {key!r} must be a whole number, not {value!r}")
    return int(number)


#: the largest magnitude a number stat may have (``1e999``, ``10**30`` are findings, not numbers)
STAT_LIMIT = 10**6


def short_repr(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut to ``limit`` characters (a stat may be a 40,000-character string).

    >>> short_repr("9" * 50)
    "'99999999999999999999999999999999999999…"
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def stat_bool(figure: Figure, key: str, default: bool = False) -> bool:
    """A boolean stat (true/false, yes/no, 1/0 accepted).

    >>> stat_bool(Figure(1, "Mark", "red", (0, 0), {"dazed": "yes"}), "dazed")
    True
    """
    value = figure.stats.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise UsageError(f"{figure.label}: property {key!r} must be true or false, not {value!r}")


def int_problems(
    figure: Figure, keys: Sequence[str], *, non_negative: Sequence[str] = ()
) -> list[str]:
    """Problems of integer stats: not a whole number (any of ``keys``), negative (``non_negative``).

    >>> int_problems(Figure(1, "Mark", "red", (0, 0), {"life": "lots", "defense": -2}),
    ...              ["life", "defense"], non_negative=["life", "defense"])
    ["property 'life' must be a number, not 'lots'", "property 'defense' must be 0 or more, not -2"]
    """
    out = []
    for key in keys:
        try:
            value = stat_int(figure, key)
        except UsageError as exc:
            out.append(_unlabel(figure, str(exc)))
            continue
        if key in non_negative and value < 0:
            out.append(f"property {key!r} must be 0 or more, not {value}")
    return out


def bool_problems(figure: Figure, keys: Sequence[str]) -> list[str]:
    """Problems of boolean stats (not true/false, yes/no, 1/0).

    >>> bool_problems(Figure(1, "Mark", "red", (0, 0), {"dazed": "maybe"}), ["dazed"])
    ["property 'dazed' must be true or false, not 'maybe'"]
    """
    out = []
    for key in keys:
        try:
            stat_bool(figure, key)
        except UsageError as exc:
            out.append(_unlabel(figure, str(exc)))
    return out


def parse_problem(figure: Figure, parse: Callable[[], object]) -> list[str]:
    """``[]`` when ``parse()`` succeeds, else its UsageError's sentence (without the figure name)."""
    try:
        parse()
    except UsageError as exc:
        return [_unlabel(figure, str(exc))]
    return []


def _unlabel(figure: Figure, text: str) -> str:
    """A parser's message without its leading ``"<figure label>: "``."""
    for prefix in (f"{figure.label}: ", f"{figure.name}: "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def stat_list(figure: Figure, key: str, sep: str = ",") -> list[str]:
    """A list stat: items separated by ``sep``, stripped, empties dropped.

    >>> stat_list(Figure(1, "Mark", "red", (0, 0), {"exhausted": "Short Bow, Dusty Blade"}), "exhausted")
    ['Short Bow', 'Dusty Blade']
    """
    value = figure.stats.get(key)
    if value is None:
        return []
    return [item.strip() for item in str(value).split(sep) if item.strip()]
