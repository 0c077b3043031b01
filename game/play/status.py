"""What the window says about the frame: the status line, the side panel's content and the
notice next to the attack when the rule drawn is not the rule the attack is judged by.

Pure functions of the presenter's state (``game/play/presenter.py``, seen through
:class:`Shown`: this module does not import the presenter, which imports it), in the window's
words (places named by squares only, plain blocking reasons: ``game/play/wording.py``). No pygame.
"""

from __future__ import annotations

import re
from typing import Protocol

from game.core.board import Board, Figure, Square, fmt_square
from game.core.errors import SightlineError
from game.core.words import plural
from game.play.findings import map_check_state
from game.play.frame import PanelInfo
from game.play.lessons import LessonTour
from game.play.rule_choice import RuleChoice
from game.play.rule_words import readable
from game.play.session import Session
from game.play.sight_calls import Ray, map_rule
from game.play.viewpoint import AUTO, Viewpoint, sees_only_itself
from game.play.wording import plain, stat_lines
from game.rules.registry import get_ruleset, ruleset_label


class Shown(Protocol):
    """What of the presenter (:class:`game.play.presenter.Presenter`) the status line and the
    panel read."""

    tour: LessonTour | None
    lesson_mode: bool
    viewpoint: Viewpoint
    rules: RuleChoice

    @property
    def session(self) -> Session | None: ...  # noqa: D102 - the presenter's

    @property
    def board(self) -> Board | None: ...  # noqa: D102 - the presenter's

    @property
    def selected(self) -> int | None: ...  # noqa: D102 - the presenter's

    def current_notice(self) -> tuple[str, str] | None: ...  # noqa: D102 - the presenter's

    def ray_start(self) -> tuple[Square, str | None] | None: ...  # noqa: D102 - the presenter's

    def ray(self) -> Ray | None: ...  # noqa: D102 - the presenter's


def self_sight(cell: str = "square") -> str:
    """What a same-cell ray with nobody else there says (rules §1.3, FAQ; lesson L29b); ``cell``:
    what one cell of the board is called (the grid's noun).

    >>> self_sight("hex")
    'Blocked: a figure has no line of sight to itself (it can see another figure in its own hex, never itself).'
    """
    return ("Blocked: a figure has no line of sight to itself (it can see another figure in its own "
            f"{cell}, never itself).")


#: :func:`self_sight` on a square board
SELF_SIGHT = self_sight()


def status_line(p: Shown, ray: Ray | None) -> tuple[str, str]:
    """The status line and its kind (info, clear, blocked, error, lesson, finding), in the
    window's words. ``ray`` is the ray drawn: its verdict under any rule, in words
    (:func:`game.play.rule_words.readable`)."""
    text, kind = _status(p, ray)
    return plain(text), kind


def _status(p: Shown, ray: Ray | None) -> tuple[str, str]:
    session, notice = p.session, p.current_notice()
    if session is not None and session.reload_error:
        return f"Map error, showing the last good board:\n{session.reload_error}", "error"
    if notice is not None and notice[1] in ("blocked", "error", "finding"):
        return notice
    if p.lesson_mode and p.tour is not None:
        return p.tour.explain(p.ray()), "lesson"
    board, selected = p.board, p.selected
    if ray is not None and board is not None:
        if sees_only_itself(board, ray.origin, ray.target, selected):
            return self_sight(board.grid.noun), "blocked"
        # any rule: places by squares, numbers rounded; a ray the engine words itself (hex
        # cells and corners) in short (the whole sentence: Shift+E)
        text = short_worded(ray) if ray.worded else readable(ray)
        if selected is None or p.viewpoint.choice != AUTO:
            text = f"{viewer_words(p)}. {text}"
        return text, "clear" if ray.clear else "blocked"
    if notice is not None:
        return notice
    if board is None:
        return "", "info"
    if selected is None and p.viewpoint.start is not None:
        words = viewer_words(p)
        return (
            f"Hover a {board.grid.noun} to see the ray {words[:1].lower()}{words[1:]}. "
            "Right-click pins the end; drag either end; "
            "V changes the viewer side, F shades what it cannot see.",
            "info",
        )
    if selected is None and not board.figures:
        return (
            f"Click any {board.grid.noun} to start a ray there (or Ctrl+arrows and S), then hover or "
            "right-click its end. F1 lists every key.",
            "info",
        )
    if selected is None:
        return "Click a figure or press Tab to select it. F1 lists every key.", "info"
    figure = board.figure(selected)
    return (
        f"Hover a {board.grid.noun} to see the ray from {figure.label} on {fmt_square(figure.square)} "
        f"(as seen by {figure.side}). Right-click pins a target.",
        "info",
    )


_CENTRE_LINE = re.compile(r"the line from the centre of \((-?\d+),(-?\d+)\) to the centre of \((-?\d+),(-?\d+)\)")
#: a hex side's lattice name before the cells it lies between: the cells say where it is
_SIDE_NAME = re.compile(r"(?: on)? ?\(-?\d+,-?\d+\)-\(-?\d+,-?\d+\)(?= between)")


def short_worded(ray: Ray) -> str:
    """The engine's own sentence for a ray it words itself (a hex ray), shorter for the status
    line: a centre-to-centre line is "the centre line", a hex side is named by the cells it lies
    between, not by its lattice corners.

    >>> from game.core.hex_sight import hex_board
    >>> from game.core.sight import parse_rule
    >>> from game.play.sight_calls import cast_ray
    >>> board = hex_board(3, 1, walls=[hex_board(3, 1).grid.edge_between((0, 0), (1, 0))])
    >>> short_worded(cast_ray(board, (0, 0), (2, 0), parse_rule("hexside", "hex"), None))
    'Blocked under hexside: the centre line crosses the wall between (0,0) and (1,0).'
    >>> door = hex_board(3, 1, doors={board.grid.edge_between((0, 0), (1, 0)): "closed"})
    >>> short_worded(cast_ray(door, (0, 0), (2, 0), parse_rule("hexside", "hex"), None))
    'Blocked under hexside: the centre line crosses the closed door between (0,0) and (1,0).'
    """
    text = _CENTRE_LINE.sub("the centre line", ray.explain())
    text = _SIDE_NAME.sub("", text)
    return re.sub(r"\b(crosses|along) (wall|closed door|locked door)\b", r"\1 the \2", text)


def viewer_words(p: Shown) -> str:
    """Where the ray starts and whose enemies block, in words: ``From (2,3), viewer red``."""
    board, start = p.board, p.ray_start()
    if board is None or start is None:
        return ""
    selected = p.selected
    side = board.figure(selected).side if selected is not None else None
    return f"From {fmt_square(start[0])}, viewer {p.viewpoint.viewer_label(board, side)}"


def rule_notice(p: Shown) -> str:
    """Next to the attack: the ray is drawn under another rule than the one the attack is judged
    by (the map's ``los_rule``), e.g. ``Ray drawn under corners; this attack is judged under
    dnd5e (the map's rule).``; "" when they are the same or no attack is being built."""
    board = p.board
    if board is None or p.lesson_mode or p.selected is None:
        return ""
    drawn, judged = p.rules.rule(board), map_rule(board)
    if drawn == judged:
        return ""
    return f"Ray drawn under {drawn.spec()}; this attack is judged under {judged.spec()} (the map's rule)."


def panel_info(p: Shown, status: str, kind: str) -> PanelInfo:
    """What the side panel shows this frame."""
    session = p.session
    if session is None:
        return PanelInfo(title="Lessons", status=status, status_kind=kind, extra={"lessons": True})
    board = session.board
    title = board.name or session.path.stem
    parts = [f"{board.width}×{board.height}", f"ruleset {ruleset_label(board.ruleset)}", plural(len(board.figures), "figure")]
    subtitle = " · ".join(parts)
    caption = board.properties.get("caption")
    if caption and not p.lesson_mode:
        subtitle += f"\n{caption}"
    figure_lines: list[str] = []
    selected = p.selected
    if selected is not None:
        figure = board.figure(selected)
        figure_lines = [figure.label, f"{figure.side} · on {fmt_square(figure.square)} · id {figure.id}"]
        figure_lines += figure_stat_lines(board, figure)
    return PanelInfo(
        title=title,
        subtitle=subtitle,
        figure=figure_lines,
        status=status,
        status_kind=kind,
        findings=session.findings if not p.lesson_mode else (),
        log=session.history.log,
        log_serial=session.history.serial,
        rule_notice=rule_notice(p),
        extra={"lessons": p.lesson_mode, "map_check": map_check_state(session)},
    )


def attack_dice(board: Board, figure: Figure) -> dict[str, int]:
    """The figure's attacks the rules roll dice for: name (casefolded) → dice; empty when the
    rules roll none or cannot read the figure (the map check says why)."""
    try:
        options = get_ruleset(board.ruleset).attacks(board, figure.id)
    except (SightlineError, ValueError, KeyError):
        return {}
    return {option.name.casefold(): option.dice for option in options if option.dice is not None}


def figure_stat_lines(board: Board, figure: Figure) -> list[str]:
    """A figure's stats for the panel and the hover card, in words (:func:`stat_lines`).

    >>> b = Board(3, 3, figures=[Figure(1, "Kisha", "red", (1, 1), {"life": 3, "attacks": "Bow:ranged:2"})])
    >>> figure_stat_lines(b, b.figure(1))
    ['life 3', 'attacks: Bow (ranged, 2 dice)']
    """
    return stat_lines(figure.stats, attack_dice(board, figure))


def card_lines(board: Board, figure: Figure) -> list[str]:
    """The hover card's text: name, side and square, condition, then every stat in words.

    >>> b = Board(3, 3, figures=[Figure(1, "Rook", "red", (1, 1), {"life": 3, "wounds": 1})])
    >>> card_lines(b, b.figure(1))
    ['Rook', 'red · on (1,1) · id 1', 'life 2 of 3', 'life 3 · wounds 1']
    """
    lines = [figure.label, f"{figure.side} · on {fmt_square(figure.square)} · id {figure.id}"]
    try:
        condition = get_ruleset(board.ruleset).condition(figure)
    except Exception:  # noqa: BLE001 - an odd stat must not hide the card
        condition = None
    if condition is not None:
        state = []
        if condition.life:
            state.append(f"life {condition.remaining} of {condition.life}")
        if condition.down:
            state.append("out of the fight")
        if condition.note:
            state.append(condition.note)
        if state:
            lines.append(" · ".join(state))
    return lines + figure_stat_lines(board, figure)
