"""Helpers of test_window.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pygame

from game.core.board import Edge, Square
from game.ui.app import App

ROOK, GOB, ORC, ALLY = 10, 11, 12, 13


DOOR = Edge.parse("H(5,2)")


# 7×5 board, no tile layers (every square on-board). A wall runs down x=3 from y=0 to y=2
# (edges V(3,0), V(3,1)); a closed door on H(5,2); Rook (red) on (1,1), Ally (red) on (0,4),
# two monsters on (5,3) — that square is full (capacity 2).
WALL = "<object id='1' type='wall' x='96' y='0'><polyline points='0,0 0,64'/></object>"


DOOR_XML = (
    "<object id='2' type='door' x='160' y='64'><properties><property name='state' value='closed'/>"
    "</properties><polyline points='0,0 32,0'/></object>"
)


def figure_xml(oid: int, name: str, side: str, square: Square) -> str:
    x, y = square[0] * 32 + 16, square[1] * 32 + 16
    return (
        f"<object id='{oid}' name='{name}' type='figure' x='{x}' y='{y}'><properties>"
        f"<property name='side' value='{side}'/><property name='life' type='int' value='3'/>"
        "</properties><point/></object>"
    )


FIGURES = [(ROOK, "Rook", "red", (1, 1)), (GOB, "Gob", "monsters", (5, 3)),
           (ORC, "Orc", "monsters", (5, 3)), (ALLY, "Ally", "red", (0, 4))]


def tmx(objects: Sequence[str], width: int = 7, height: int = 5, props: dict[str, str] | None = None) -> str:
    properties = "".join(f"<property name='{k}' value='{v}'/>" for k, v in (props or {}).items())
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        f"<map version='1.10' orientation='orthogonal' renderorder='right-down' width='{width}' "
        f"height='{height}' tilewidth='32' tileheight='32' infinite='0' nextobjectid='100'>"
        f"<properties>{properties}</properties>"
        f"<objectgroup id='1' name='things'>{''.join(objects)}</objectgroup></map>\n"
    )


def write_map(path: Path, extra: Sequence[str] = ()) -> Path:
    objects = [WALL, DOOR_XML, *extra, *(figure_xml(*f) for f in FIGURES)]
    path.write_text(tmx(objects), encoding="utf-8")
    return path


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def centre(app: App, square: Square) -> tuple[int, int]:
    return app.view.square_centre(square)


def grid_px(app: App, gx: float, gy: float) -> tuple[int, int]:
    x, y = app.view.to_screen(gx, gy)
    return round(x), round(y)


def post(*events: pygame.event.Event) -> None:
    for event in events:
        pygame.event.post(event)


def move(app: App, pos: tuple[int, int], buttons: tuple[int, int, int] = (0, 0, 0)) -> None:
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))
    app.frame()


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
    )
    app.frame()


def drag(app: App, start: tuple[int, int], end: tuple[int, int], steps: int = 6) -> None:
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.frame()
    for i in range(1, steps + 1):
        pos = (start[0] + (end[0] - start[0]) * i // steps, start[1] + (end[1] - start[1]) * i // steps)
        move(app, pos, buttons=(1, 0, 0))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame()


def key(app: App, code: int, mod: int = 0) -> None:
    post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0))
    app.frame()


def near(colour: Sequence[int], expected: Sequence[int], tolerance: int = 40) -> bool:
    return all(abs(int(a) - int(b)) <= tolerance for a, b in zip(colour[:3], expected[:3], strict=True))


def brightness(colour: Sequence[int]) -> int:
    """The sum of a colour's red, green and blue (a pixel test's "how bright")."""
    return int(colour[0]) + int(colour[1]) + int(colour[2])
