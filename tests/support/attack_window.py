"""Helpers of test_attack_ui.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame

from game.play.session import Session

REPO = Path(__file__).resolve().parents[2]


MASTER_SEED = 7


# demo.tmx figures
EMBER, ROOK, SNARL, CINDER = 30, 31, 38, 42


# mage_knight.tmx
TOVAK, PROWLERS, DIGGERS, FIRE_MAGES = 15, 16, 17, 20


def copy_map(tmp_path: Path, name: str) -> Path:
    """The sample map with its tileset and art, in tmp_path (the play state is written there)."""
    (tmp_path / "maps").mkdir(exist_ok=True)
    shutil.copytree(REPO / "maps" / "tiles", tmp_path / "maps" / "tiles", dirs_exist_ok=True)
    shutil.copytree(REPO / "assets" / "tiles", tmp_path / "assets" / "tiles", dirs_exist_ok=True)
    target = tmp_path / "maps" / f"{name}.tmx"
    shutil.copy(REPO / "maps" / f"{name}.tmx", target)
    return target


class Clock:
    """The window's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def post(*events: pygame.event.Event) -> None:
    for event in events:
        pygame.event.post(event)


def click(window, pos: tuple[int, int], button: int = 1) -> None:  # noqa: ANN001 - an App
    post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
    )
    window.frame()


def key(window, code: int, mod: int = 0) -> None:  # noqa: ANN001 - an App
    post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0))
    window.frame()


def run_until_landed(window, clock: Clock, limit: int = 400) -> int:  # noqa: ANN001 - an App
    """Frames of 1/60 s until the tray has landed the attack; returns how many."""
    for frame in range(1, limit):
        clock.now += 1 / 60
        window.frame()
        if not window.presenter.attack.busy:
            return frame
    raise AssertionError("the attack never landed")


def open_window(tmp_path: Path, name: str, clock: Clock):  # noqa: ANN201 - an App
    from game.ui.app import App

    session = Session.open(copy_map(tmp_path, name))
    window = App(session, screen=pygame.display.get_surface(), time_source=clock, watch=False)
    window.presenter.attack.seed_source = lambda: MASTER_SEED
    window.frame()
    return window


def centre_of(window, figure_id: int) -> tuple[int, int]:  # noqa: ANN001 - an App
    return window.view.square_centre(window.board.figure(figure_id).square)
