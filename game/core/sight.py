"""The sight facade: every line-of-sight question, for every rule and every grid, asked here.

Pure: no pygame, no files, no clock. Callers — the commands, the designer, the rulesets, the
window — never pick an engine: they ask

* :func:`line` — one pair: a :class:`~game.core.sight_result.Sight` (verdict, rule, what blocks,
  the deciding lines, every crossing of a centre line, cover, drawing points, words, JSON);
* :func:`field` — one origin: bool ``[y, x]`` of the squares it sees;
* :func:`pairs` / :func:`pair_bits` — many origins: the tables the designer reads;
* :func:`cover` — the cover grade, where the rule grades it;
* :func:`reference` — the one slow exact answer every fast path is tested against;
* :func:`rule_of` / :func:`parse_rule` — the map's ``los_rule`` and a rule's text, checked against
  the board's grid.

``rule=None`` means the map's rule (:func:`rule_of`); a rule may be given as a
:class:`~game.core.profiles.Profile` or as text (``"corners,figures=none"``).

**The engine table.** :data:`ENGINES` maps ``(grid kind, rule family)`` to the :class:`Engine`
that answers it (:attr:`~game.core.profiles.Profile.family`):

==========================  ===========================================================
``("square", "centre")``    :mod:`game.core.los`: the integer walk; the shadow caster of
                            :mod:`game.core.fov_cast` and the octant engine of :mod:`game.core.fov`
``("square", "corners")``   :mod:`game.core.profile_los` lines; the corner caster of
                            :mod:`game.core.profile_fov`
``("square", "any")``       :mod:`game.core.profile_los` lines; the sweep of :mod:`game.core.any_fov`
``("square", "lines")``     :mod:`game.core.profile_los` lines; a verdict per square
==========================  ===========================================================

A hex grid (:mod:`game.core.hex_sight`) has its own entries, ``("hex", family)`` for the
families ``centre``, ``corners`` and ``lines`` of its rules, and its rule book in
:data:`RULE_BOOKS` (presets ``gloomhaven``, ``hexside``, ``hex-strict``); nothing that calls
this module changes. Every engine's slow answer is the one :func:`reference`.

>>> from game.core.board import Board
>>> b = Board.from_ascii(["...", ".#.", "..."], properties={"los_rule": "corners"})
>>> line(b, (0, 0), (2, 2)).clear, line(b, (0, 0), (2, 2), "arcadia").clear
(True, False)
>>> int(field(b, (0, 0)).sum()), int(field(b, (0, 0), "arcadia").sum())
(9, 6)
>>> rule_of(b).spec(), reference(b, (0, 0), (2, 2)).clear
('corners', True)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, cast

import numpy as np

from game.core import los, profile_los
from game.core.board import Board, Square
from game.core.cover import cover_of
from game.core.errors import UsageError
from game.core.grid import GridKind
from game.core.hex_rules import DEFAULT_HEX_RULE, HEX_FAMILIES, HEX_PRESETS, parse_hex_rule
from game.core.profiles import DEFAULT_RULE, PRESETS, Profile
from game.core.profiles import parse_rule as parse_square_rule
from game.core.segment import check_square, clear_views
from game.core.sight_result import CoverResult, Sight

__all__ = [
    "ENGINES",
    "RULE_BOOKS",
    "Engine",
    "RuleBook",
    "by_centre_line",
    "clear_caches",
    "cover",
    "default_rule",
    "field",
    "line",
    "pair_bits",
    "pair_bits_among",
    "pairs",
    "parse_rule",
    "reference",
    "resolve",
    "rule_of",
]

RuleLike = Profile | str | None
Viewer = str | None


# --- rules per grid ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleBook:
    """The line-of-sight rules of one kind of grid: its presets, the one a map without
    ``los_rule`` uses, and how a rule's text is read."""

    presets: Mapping[str, Profile]
    default: str
    parse: Callable[[str], Profile]


#: grid kind → its rules: the square presets, and the hex presets of :mod:`game.core.hex_rules`
RULE_BOOKS: dict[GridKind, RuleBook] = {
    "square": RuleBook(PRESETS, DEFAULT_RULE, parse_square_rule),
    "hex": RuleBook(HEX_PRESETS, DEFAULT_HEX_RULE, parse_hex_rule),
}


def _book(kind: GridKind) -> RuleBook:
    found = RULE_BOOKS.get(kind)
    if found is None:
        raise UsageError(f"no line-of-sight rules for {kind} boards")
    return found


def _fit(rule: Profile, kind: GridKind) -> Profile:
    """The rule, if it is one of ``kind``'s grid; else one line naming the presets that fit."""
    book = _book(kind)
    if rule.name in book.presets:
        return rule
    other = next((k for k, b in RULE_BOOKS.items() if rule.name in b.presets), None)
    where = f"for {other} boards" if other else "not a rule of any grid"
    raise UsageError(f"line-of-sight rule {rule.name!r} is {where}; on a {kind} board use: {', '.join(book.presets)}")


def parse_rule(text: str, grid: GridKind = "square") -> Profile:
    """Read a rule (a preset, optionally ``,parameter=value`` overrides) for a board of grid kind
    ``grid``: a preset of another grid is refused in one line that names the presets that fit.

    >>> parse_rule("corners,figures=none").spec()
    'corners,figures=none'
    """
    name = str(text).split(",")[0].strip().casefold()
    book = _book(grid)
    if name not in book.presets:
        owner = next((k for k, b in RULE_BOOKS.items() if name in b.presets), None)
        if owner is not None:
            raise UsageError(f"line-of-sight rule {name!r} is for {owner} boards; on a {grid} board use: "
                             f"{', '.join(book.presets)}")
    return book.parse(text)


def default_rule(grid: GridKind = "square") -> Profile:
    """The rule of a map without ``los_rule`` on a grid of kind ``grid``.

    >>> default_rule().spec()
    'arcadia'
    """
    book = _book(grid)
    return book.presets[book.default]


def rule_of(board: Board) -> Profile:
    """The rule a map names in its ``los_rule`` property (the grid's default when it names none).
    A bad ``los_rule`` is a :class:`UsageError` of one line saying so.

    >>> rule_of(Board(2, 2, properties={"los_rule": "corners,figures=none"})).spec()
    'corners,figures=none'
    >>> rule_of(Board(2, 2, properties={"los_rule": "chess"}))
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: map property los_rule: unknown line-of-sight rule 'chess' (presets: arcadia, corners, dnd5e, pf2e, any-point)
    """
    value = board.properties.get("los_rule")
    kind = board.grid.kind
    if value is None or str(value).strip() == "":
        return default_rule(kind)
    return _cached_rule(str(value), kind, "map property los_rule")


def rule_or_default(board: Board) -> Profile:
    """:func:`rule_of`, or the grid's default when the map's ``los_rule`` is wrong (that is
    ``sightline check``'s error to report; the window, the linter and the threat view go on).

    >>> rule_or_default(Board(2, 2, properties={"los_rule": "chess"})).spec()
    'arcadia'
    """
    try:
        return rule_of(board)
    except UsageError:
        return default_rule(board.grid.kind)


@lru_cache(maxsize=256)
def _cached_rule(text: str, kind: GridKind, where: str) -> Profile:
    try:
        return parse_rule(text, kind)
    except UsageError as error:
        raise UsageError(f"{where}: {error}") from None


def resolve(board: Board, rule: RuleLike) -> Profile:
    """The rule a question means: ``None`` the map's (:func:`rule_of`), text parsed for the
    board's grid, a :class:`Profile` checked against it."""
    if rule is None:
        return rule_of(board)
    if isinstance(rule, str):
        return _cached_rule(rule, board.grid.kind, "line-of-sight rule")
    return _fit(rule, board.grid.kind)


# --- the engines ------------------------------------------------------------------------------

LineFn = Callable[[Board, Square, Square, Profile, Viewer], Sight]
FieldFn = Callable[[Board, Square, Profile, Viewer], np.ndarray]
PairsFn = Callable[[Board, Profile, Viewer], np.ndarray]
TableFn = Callable[[Board, list[Square], np.ndarray, Profile, Viewer], np.ndarray]
AmongFn = Callable[[Board, np.ndarray, Profile, Viewer], np.ndarray]


@dataclass(frozen=True)
class Engine:
    """How one family of rules on one kind of grid is answered: one pair (``line``), one origin
    (``field``), every pair (``pairs``, ``(H, W, H, W)``), chosen origins (``table``,
    ``(len(origins), H, W)`` over a target mask) and every pair as bits (``bits``).

    ``centre_line``: a pair's verdict is that of the one segment between the two centres, with
    Arcadia's corner rule, so a clear line never leaves the squares joined across open edges and
    only what that segment touches decides it (the designer's region split and door shortcut
    rely on it).
    """

    line: LineFn
    field: FieldFn
    pairs: PairsFn
    table: TableFn
    bits: PairsFn
    centre_line: bool = False
    among: AmongFn | None = None  # compact bits among chosen squares (None: from ``table``)


def _centre_line(board: Board, a: Square, b: Square, rule: Profile, viewer: Viewer) -> Sight:
    return los.line_of_sight(board, a, b, viewer, rule=rule)


def _centre_table(board: Board, origins: list[Square], targets: np.ndarray, rule: Profile, viewer: Viewer) -> np.ndarray:
    return los.pair_table(board, origins, targets, viewer)


def _field_table(field_of: FieldFn) -> TableFn:
    """A :data:`TableFn` from a field of view: one field per origin, masked by the targets."""

    def table(board: Board, origins: list[Square], targets: np.ndarray, rule: Profile, viewer: Viewer) -> np.ndarray:
        out = np.zeros((len(origins), board.height, board.width), dtype=bool)
        for i, origin in enumerate(origins):
            out[i] = field_of(board, origin, rule, viewer) & targets
        return out

    return table


def _bits(pairs_of: PairsFn) -> PairsFn:
    """Every pair as bits (rows of ``W·H`` bits) from the boolean all-pairs table."""

    def bits(board: Board, rule: Profile, viewer: Viewer) -> np.ndarray:
        n = board.width * board.height
        return np.packbits(pairs_of(board, rule, viewer).reshape(n, n), axis=1)

    return bits


def _lines_engine(field_of: FieldFn) -> Engine:
    """An engine of the candidate lines (:mod:`game.core.profile_los`) with ``field_of``'s fields."""
    return Engine(
        line=profile_los.line_of_sight, field=field_of, pairs=profile_los.all_pairs,
        table=_field_table(field_of), bits=_bits(profile_los.all_pairs),
    )


def _hex_sight() -> ModuleType:
    """The hex engines' module, imported on the first hex question (a square map never loads it)."""
    return importlib.import_module("game.core.hex_sight")


def _hex(name: str) -> Any:
    """A hex engine's function by name, looked up when called."""

    def call(*args: Any) -> Any:
        return getattr(_hex_sight(), name)(*args)

    return call


#: (grid kind, rule family) → its engine; a hex grid adds its ``("hex", family)`` entries
ENGINES: dict[tuple[GridKind, str], Engine] = {
    ("square", "centre"): Engine(
        line=_centre_line,
        field=lambda board, a, rule, viewer: los.visible_from(board, a, viewer),
        pairs=lambda board, rule, viewer: los.all_pairs(board, viewer),
        table=_centre_table,
        bits=lambda board, rule, viewer: los.pair_bits(board, viewer),
        centre_line=True,
        among=lambda board, keep, rule, viewer: los.pair_bits_among(board, keep, viewer),
    ),
    ("square", "corners"): _lines_engine(profile_los.corner_field),
    ("square", "any"): _lines_engine(profile_los.any_field),
    ("square", "lines"): _lines_engine(profile_los.walk_field),
    # hex boards (game/core/hex_sight.py, imported on the first hex question): the exact walk per
    # pair, the shadow caster per field
    **{
        ("hex", family): Engine(
            line=_hex("line"), field=_hex("field"), pairs=_hex("pairs"), table=_hex("table"),
            bits=_bits(_hex("pairs")),
        )
        for family in HEX_FAMILIES
    },
}


def _engine(board: Board, rule: Profile) -> Engine:
    found = ENGINES.get((board.grid.kind, rule.family))
    if found is None:
        raise UsageError(f"no line-of-sight engine for rule {rule.spec()} on {board.grid.kind} boards")
    return found


def by_centre_line(rule: Profile, grid: GridKind = "square") -> bool:
    """Whether ``rule`` decides a pair by its centre line alone (see :class:`Engine`): its
    :class:`Sight` lists every crossing, and the designer may split the board into regions.

    >>> by_centre_line(default_rule()), by_centre_line(parse_rule("corners"))
    (True, False)
    """
    found = ENGINES.get((grid, rule.family))
    return found is not None and found.centre_line


# --- the questions ----------------------------------------------------------------------------


def line(board: Board, a: Square, b: Square, rule: RuleLike = None, *, viewer: Viewer = None) -> Sight:
    """Line of sight from square ``a`` to square ``b`` under ``rule`` for ``viewer`` (a side, or
    None: every figure counts), with the cover where the rule grades it. Raises
    :class:`~game.core.errors.PlacementError` for a square off the board, :class:`UsageError`
    for a rule that does not fit the board."""
    profile = resolve(board, rule)
    found = _engine(board, profile).line(board, a, b, profile, viewer)
    if profile.cover != "none":
        found = found.with_cover(cover_of(board, a, b, profile, viewer, in_sight=found.clear))
    return found


def field(board: Board, a: Square, rule: RuleLike = None, *, viewer: Viewer = None) -> np.ndarray:
    """Every square visible from ``a`` under ``rule``: bool ``[y, x]`` (height, width). Void
    squares are never visible; the origin is (an origin off the board sees nothing). The array
    may be cached and read-only: copy it to change it."""
    profile = resolve(board, rule)
    return _engine(board, profile).field(board, a, profile, viewer)


def pairs(
    board: Board, rule: RuleLike = None, *, viewer: Viewer = None,
    origins: list[Square] | None = None, targets: np.ndarray | None = None,
) -> np.ndarray:
    """Visibility between squares under ``rule``: with no ``origins`` every pair, bool
    ``(H, W, H, W)`` ``[ay, ax, by, bx]`` (rows of void squares empty); with ``origins``, bool
    ``(len(origins), H, W)``: what each sees among ``targets`` (a bool mask ``[y, x]``, default
    every square), False elsewhere."""
    profile = resolve(board, rule)
    engine = _engine(board, profile)
    if origins is None:
        return engine.pairs(board, profile, viewer)
    if targets is None:
        targets = np.ones((board.height, board.width), dtype=bool)
    return engine.table(board, origins, targets, profile, viewer)


def pair_bits(board: Board, rule: RuleLike = None, *, viewer: Viewer = None) -> np.ndarray:
    """Every pair as bits: uint8 ``(W·H, ceil(W·H / 8))``, row ``ay * W + ax``, bit
    ``by * W + bx`` (see :func:`game.core.los.pair_bits`)."""
    profile = resolve(board, rule)
    return _engine(board, profile).bits(board, profile, viewer)


#: origins per batch of :func:`pair_bits_among` on an engine without its own (one field each)
AMONG_BATCH = 256


def pair_bits_among(
    board: Board, keep: np.ndarray, rule: RuleLike = None, *, viewer: Viewer = None, rows: tuple[int, int] | None = None,
) -> np.ndarray:
    """Every pair among the on-board squares of the bool mask ``keep`` ``[y, x]``, as compact bits:
    uint8 ``(k, ceil(k / 8))``, row ``i`` bit ``j`` for the ``i``-th and ``j``-th of those squares in
    row-major order, never a square with itself (see :func:`game.core.los.pair_bits_among`). An
    engine without its own way (the candidate lines, hexes) is asked :data:`AMONG_BATCH` origins
    at a time and each batch packed at once: the memory is the bits, not ``k`` whole fields.
    ``rows``: only the rows ``start .. stop - 1`` (a part of the table others may compute
    elsewhere; the same bits as those rows of the whole table)."""
    profile = resolve(board, rule)
    engine = _engine(board, profile)
    if engine.among is not None:
        whole = engine.among(board, keep, profile, viewer)
        return whole if rows is None else whole[rows[0] : rows[1]]
    w = board.width
    on = profile_los.on_board_mask(board)
    chosen = np.flatnonzero(keep & on)
    first, stop = (0, chosen.size) if rows is None else (max(0, rows[0]), min(chosen.size, rows[1]))
    out = np.zeros((max(0, stop - first), (chosen.size + 7) // 8), dtype=np.uint8)
    for start in range(first, stop, AMONG_BATCH):  # a batch of rows at a time: memory k²/8, not k·W·H
        batch = chosen[start : min(start + AMONG_BATCH, stop)]
        origins = [(int(i % w), int(i // w)) for i in batch]
        found = engine.table(board, origins, keep & on, profile, viewer).reshape(batch.size, -1)[:, chosen]
        found[np.arange(batch.size), np.arange(start, start + batch.size)] = False
        out[start - first : start - first + batch.size] = np.packbits(found, axis=1)
    return out


def cover(board: Board, a: Square, b: Square, rule: RuleLike = None, *, viewer: Viewer = None) -> CoverResult | None:
    """The cover of ``b`` from ``a`` under ``rule``, None when the rule grades no cover."""
    return line(board, a, b, rule, viewer=viewer).cover


def reference(board: Board, a: Square, b: Square, rule: RuleLike = None, *, viewer: Viewer = None) -> Sight:
    """The one slow exact answer, for every rule: the verdict from every candidate line of the
    rule's end points (for ``any`` ends, turned about every grid point of the hull of A and B),
    each judged straight from the segment rule (:func:`game.core.profile_los.decide` with
    ``complete=True``); for a centre-line rule explained by the centre line's crossings straight
    from the rule (:func:`game.core.los.exact_crossings`). Every fast path is tested against it.

    >>> from game.core.board import Board
    >>> b = Board.from_ascii(["...."], walls=["V(2,0)"])
    >>> reference(b, (0, 0), (3, 0)).first_blocker.reason
    'wall V(2,0)'
    """
    profile = resolve(board, rule)
    if board.grid.kind == "hex":
        return cast(Sight, _hex_sight().reference(board, a, b, profile, viewer))
    check_square(board, a)
    check_square(board, b)
    clear, deciding, checked = profile_los.decide(board, a, b, profile, viewer, complete=True)
    source: los.CrossingsSource | profile_los.LinesSource
    if by_centre_line(profile, board.grid.kind):
        source = los.CrossingsSource(a, b, viewer, profile, los.exact_crossings(board, a, b, viewer))
    else:
        source = profile_los.LinesSource(a, b, viewer, profile, clear, deciding, checked)
    graded = cover_of(board, a, b, profile, viewer, in_sight=clear) if profile.cover != "none" else None
    return Sight(a, b, viewer, profile, clear, source, graded)


def clear_caches() -> None:
    """Forget every per-board cache of every engine (what depends on the board size only stays)."""
    los.clear_caches()
    clear_views()
    if "game.core.hex_sight" in sys.modules:  # nothing to forget before the first hex question
        _hex_sight().clear_caches()
