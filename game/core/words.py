"""Small wording helpers for messages a person reads: plurals without "(s)", "a" or "an"."""

from __future__ import annotations

import re

__all__ = ["a_or_an", "in_cells", "plural", "plural_of"]

_IRREGULAR = {"enemy": "enemies", "pair": "pairs", "square": "squares", "body": "bodies"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, with the plural form when ``n`` is not 1.

    ``many`` is the plural when adding "s" is wrong (most "-y" words are handled already).

    >>> plural(1, "door"), plural(0, "door"), plural(3, "finding")
    ('1 door', '0 doors', '3 findings')
    >>> plural(2, "enemy"), plural(1, "enemy"), plural(2, "day")
    ('2 enemies', '1 enemy', '2 days')
    >>> plural(2, "die", "dice"), plural(5, "box")
    ('2 dice', '5 boxes')
    """
    if n == 1:
        return f"{n} {word}"
    if many is None:
        many = _IRREGULAR.get(word)
    if many is None:
        if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
            many = word[:-1] + "ies"
        elif word.endswith(("s", "x", "z", "ch", "sh")):
            many = word + "es"
        else:
            many = word + "s"
    return f"{n} {many}"


def plural_of(word: str) -> str:
    """The plural form of ``word``, alone (as :func:`plural` forms it).

    >>> plural_of("square"), plural_of("hex")
    ('squares', 'hexes')
    """
    return plural(2, word).split(" ", 1)[1]


def in_cells(text: str, noun: str) -> str:
    """A sentence written about squares, said of the grid's cells (``noun``: ``square`` or
    ``hex``): each whole word "square" or "squares" becomes the noun or its plural, "a" before it
    "an" where the noun wants it. Unchanged for squares.

    >>> in_cells("start the ray at the cursor square; a square sees 3 squares", "hex")
    'start the ray at the cursor hex; a hex sees 3 hexes'
    >>> in_cells("Hover a square (squares, not squarely)", "hex")
    'Hover a hex (hexes, not squarely)'
    """
    if noun == "square":
        return text

    def swap(match: re.Match[str]) -> str:
        article, word = match.group(1), match.group(2)
        found = plural_of(noun) if word.lower().endswith("s") else noun
        if word[0].isupper():
            found = found[0].upper() + found[1:]
        return (a_or_an(found).split(" ")[0] + " " if article else "") + found

    return re.sub(r"\b(?:(an? )(?=[Ss]quare\b))?([Ss]quares?)\b", swap, text)


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article, by its first letter (enough for our shape names).

    >>> a_or_an("ellipse"), a_or_an("polyline"), a_or_an("object")
    ('an ellipse', 'a polyline', 'an object')
    """
    return f"{'an' if word[:1].lower() in 'aeiou' and word else 'a'} {word}"


def quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, cut with an ellipsis past ``limit`` characters (a hostile
    value is never quoted in full).

    >>> quoted("Bow:ranged:2"), quoted("9" * 100, 10)
    ("'Bow:ranged:2'", "'9999999999…'")
    """
    text = text.strip()
    return repr(text) if len(text) <= limit else repr(text[:limit])[:-1] + "…'"
