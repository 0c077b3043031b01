"""A command's start-up runs without Python's cycle collector.

Starting ``sightline`` makes a few hundred thousand objects that all live as long as the program
(modules, classes, functions, the map): the cycle collector would walk them again and again as
they pile up, for nothing — they are not garbage (about 5 % of the window's start-up). So
:func:`game.cli.main` pauses the collector (:func:`pause`) and the long-running window resumes it
after its first frame (:func:`over`), first *freezing* what start-up made (``gc.freeze``: moved
to a generation the collector never walks, so later collections stay short while figures are
dragged). One-shot commands (``los``, ``check``, ``report`` …) end with the collector still
paused; plain reference counting frees what they drop, and what they make is dropped at exit.
:func:`over` restores the collector as :func:`pause` found it, so ``main`` can be called many times
in one process (the tests do).

>>> import gc
>>> was = gc.isenabled(); pause(); gc.isenabled()
False
>>> over(); gc.isenabled() == was
True
"""

from __future__ import annotations

import gc

__all__ = ["over", "pause"]

_paused = False


def pause() -> None:
    """Pause the cycle collector for start-up (nothing when it is already off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def over(freeze: bool = False) -> None:
    """Start-up is over: resume the collector if :func:`pause` stopped it, first freezing every
    object alive (``freeze``: the window, whose start-up objects live until it closes)."""
    global _paused
    if not _paused:
        return
    _paused = False
    if freeze:
        gc.freeze()
    gc.enable()
