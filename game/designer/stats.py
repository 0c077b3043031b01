"""Figure stats that read as numbers but make no sense for the map's rules (issue #15).

A life of 0, an Elusive enemy without its higher Armor, an attack that keeps no dice, a hit
check of 0 dice, more dice than the exact odds count: each ruleset says which in
:meth:`game.rules.base.Ruleset.nonsense` (the rules stay the one source: the same sentence
refuses the attack in ``attack``, ``odds`` and the window). This module turns
them into linter findings, code ``property-nonsense`` (error). Values that are not numbers at all
(``"lots"``, ``NaN``, ``1e999``) are ``property-value`` findings already and are skipped here.
:func:`check_attacks` does the same for attacks no figure can make on the map
(:meth:`game.rules.base.Ruleset.unreachable_attacks`), code ``attack-unreachable`` (warning).

Pure: no files, no clock.

>>> from game.core.board import Board, Figure
>>> b = Board.from_ascii([".."], figures=[Figure(3, "Goblin", "monsters", (0, 0), {"life": 0})])
>>> [(f.code, f.object_id) for f in check_figure_stats(b)]
[('property-nonsense', 3)]
"""

from __future__ import annotations

from game.core.board import Board
from game.core.errors import SightlineError
from game.core.findings import Finding, Severity
from game.rules.registry import get_ruleset


def check_figure_stats(board: Board) -> list[Finding]:
    """One ``property-nonsense`` error per nonsense stat of each figure, in figure id order."""
    try:
        rules = get_ruleset(board.ruleset)
    except SightlineError:
        return []  # an unknown ruleset is reported elsewhere
    see = f"; see {rules.doc_page}" if rules.doc_page else ""
    out: list[Finding] = []
    for figure in sorted(board.figures.values(), key=lambda f: f.id):
        try:
            problems = rules.nonsense(figure)
        except SightlineError:
            continue  # not a number at all: a property-value finding says so
        for problem in problems:
            out.append(Finding(
                "property-nonsense", Severity.ERROR, f"figure {figure.label}: {problem}",
                figure.id, figure.square, f"attacks by or on this figure are refused until then{see}",
            ))
    return out


def check_attacks(board: Board) -> list[Finding]:
    """One ``attack-unreachable`` warning per attack of the map's rules that no figure can make
    on this map (no figure has it, its range reaches nothing, its figure has no enemy)."""
    try:
        rules = get_ruleset(board.ruleset)
    except SightlineError:
        return []  # an unknown ruleset is reported elsewhere
    out: list[Finding] = []
    for problem in rules.unreachable_attacks(board):
        figure = board.figures.get(problem.figure_id) if problem.figure_id is not None else None
        out.append(Finding(
            "attack-unreachable", Severity.WARNING, problem.message,
            problem.figure_id, figure.square if figure is not None else None, problem.hint,
        ))
    return out
