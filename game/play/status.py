"""What the window says about the frame: the status line, the side panel's content and the
notice next to the attack when the rule drawn is not the rule the attack is judged by.

Pure functions of the presenter's state (``game/play/presenter.py``), in the window's words
(places named by squares only, plain blocking reasons: ``game/play/wording.py``). No pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from game.core.board import fmt_square
from game.core.words import plural
from game.play.findings import map_check_state
from game.play.frame import PanelInfo
from game.play.sight_calls import Ray, map_rule
from game.play.viewpoint import AUTO, sees_only_itself
from game.play.wording import plain
from game.rules.registry import ruleset_label

if TYPE_CHECKING:
    from game.play.presenter import Presenter

#: what a same-square ray with nobody else there says (rules §1.3, FAQ; lesson L29b)
SELF_SIGHT = (
    "Blocked: a figure has no line of sight to itself (it can see another figure in its own "
    "square, never itself)."
)


def status_line(p: Presenter, ray: Ray | None) -> tuple[str, str]:
    """The status line and its kind (info, clear, blocked, error, lesson, finding), in the
    window's words. ``ray`` is the ray whose sentence the status line says (a ray drawn by its
    checked lines writes its sentence on the board instead, so the line gives the hint)."""
    text, kind = _status(p, ray)
    return plain(text), kind


def _status(p: Presenter, ray: Ray | None) -> tuple[str, str]:
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
            return SELF_SIGHT, "blocked"
        text = ray.explain()
        if selected is None or p.viewpoint.choice != AUTO:
            text = f"{viewer_words(p)}: {text}"
        return text, "clear" if ray.clear else "blocked"
    if notice is not None:
        return notice
    if board is None:
        return "", "info"
    if selected is None and p.viewpoint.start is not None:
        words = viewer_words(p)
        return (
            f"Hover a square to see the ray {words[:1].lower()}{words[1:]}. "
            "Right-click pins the end; drag either end; "
            "V changes the viewer side, F shades what it cannot see.",
            "info",
        )
    if selected is None and not board.figures:
        return (
            "Click any square to start a ray there (or Ctrl+arrows and S), then hover or "
            "right-click its end. F1 lists every key.",
            "info",
        )
    if selected is None:
        return "Click a figure or press Tab to select it. F1 lists every key.", "info"
    figure = board.figure(selected)
    return (
        f"Hover a square to see the ray from {figure.label} on {fmt_square(figure.square)} "
        f"(as seen by {figure.side}). Right-click pins a target.",
        "info",
    )


def viewer_words(p: Presenter) -> str:
    """Where the ray starts and whose enemies block, in words: ``From (2,3), viewer red``."""
    board, start = p.board, p.ray_start()
    if board is None or start is None:
        return ""
    selected = p.selected
    side = board.figure(selected).side if selected is not None else None
    return f"From {fmt_square(start[0])}, viewer {p.viewpoint.viewer_label(board, side)}"


def rule_notice(p: Presenter) -> str:
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


def panel_info(p: Presenter, status: str, kind: str) -> PanelInfo:
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
        figure_lines += figure_stat_lines(figure.stats)
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


def figure_stat_lines(stats: Mapping[str, Any]) -> list[str]:
    """A figure's stats for the panel: short ones on one line, long ones (attacks) one per line.

    Empty values (a blank ``rules`` property) are left out; the panel wraps long lines.

    >>> figure_stat_lines({"life": 5, "defense": 2, "attacks": "Blade:melee:3; Bow:ranged:2"})
    ['life 5 · defense 2', 'attacks: Blade:melee:3; Bow:ranged:2']
    >>> figure_stat_lines({"rules": "", "resolve": 2})
    ['resolve 2']
    """
    shown = {key: value for key, value in stats.items() if str(value).strip()}
    short = [f"{key} {value}" for key, value in shown.items() if len(str(value)) <= 12]
    long = [f"{key}: {value}" for key, value in shown.items() if len(str(value)) > 12]
    return ([" · ".join(short)] if short else []) + long
