"""Helpers of test_window_files.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from game.play.session import Session
from game.ui.app import App
from support.window import (
    Clock,
)


def touch_later(path: Path) -> None:
    """Make sure the file's modification time differs from the one the window saw."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


def open_app(path: Path, screen: pygame.Surface, clock: Clock, **kwargs: object) -> App:
    app = App(Session.open(path, **kwargs), screen=screen, time_source=clock)  # type: ignore[arg-type]
    pygame.event.clear()
    app.frame()
    return app
