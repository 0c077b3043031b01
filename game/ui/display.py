"""Opening the window: is there a display, the window itself (or a headless one for ``--frames``),
its smallest size, and the screenshot saved from it.

>>> "dummy" in HEADLESS_DRIVERS  # SDL's drivers that show nothing: a window can always open
True
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import pygame

from game.core.errors import SightlineError
from game.play.atomic import atomic_file, cannot_write

#: SDL video drivers that show nothing on a screen
HEADLESS_DRIVERS = ("dummy", "offscreen")


class NoDisplayError(SightlineError):
    """No display to open a window on (and no ``--frames`` run asked for a headless one)."""


def display_available() -> bool:
    """Whether a window can be expected to open (the dummy/offscreen drivers always can).

    On Linux and the BSDs a desktop session sets ``DISPLAY`` (X11) or ``WAYLAND_DISPLAY``;
    elsewhere (Windows, macOS) there is always a display and ``set_mode`` decides.
    """
    driver = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in HEADLESS_DRIVERS:
        return True
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    if os.environ.get("DISPLAY") or wayland_socket_exists():
        return True
    return driver not in ("", "x11", "wayland")  # e.g. kmsdrm: let set_mode decide


def wayland_socket_exists() -> bool:
    """Whether ``WAYLAND_DISPLAY`` names a socket that is there (a stale variable is ignored).

    >>> import os
    >>> saved = os.environ.pop("WAYLAND_DISPLAY", None)
    >>> os.environ["WAYLAND_DISPLAY"] = "/nonexistent/wayland-9"
    >>> wayland_socket_exists()
    False
    >>> _ = os.environ.pop("WAYLAND_DISPLAY") if saved is None else os.environ.update(WAYLAND_DISPLAY=saved)
    """
    name = os.environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if os.path.isabs(name) else Path(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"), name)
    return path.exists()


def save_screenshot(surface: pygame.Surface, out: Path) -> None:
    """Save the screen as a PNG atomically (``game.play.atomic``: temporary file, then rename).

    A missing folder is not created (``play`` checks the path before the first frame, as
    ``render`` does); a file that cannot be written is one :class:`~game.play.atomic.OutputError` line
    (``cannot write PATH: reason``), never a traceback.
    """
    out = Path(out)
    try:
        with atomic_file(out, "wb") as handle:
            pygame.image.save(surface, handle, out.name)
    except pygame.error as exc:  # SDL's own write errors are not OSErrors
        raise cannot_write(out, str(exc)) from exc


def open_window(size: tuple[int, int], *, headless_ok: bool, map_hint: str) -> pygame.Surface:
    """Initialise pygame and open the window; :class:`NoDisplayError` when there is no display.

    With ``headless_ok`` (a ``--frames`` run) and no display, the dummy driver is used instead.
    SDL quietly falls back to an invisible "offscreen" window when ``DISPLAY`` names no X
    server; that counts as no display too.
    """
    hint = f"no display available; try: sightline render {map_hint} -o board.png"
    if not display_available():
        if not headless_ok:
            raise NoDisplayError(hint)
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    asked = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
    x11_only = (
        not asked
        and sys.platform.startswith("linux")
        and bool(os.environ.get("DISPLAY"))
        and not wayland_socket_exists()
    )
    if x11_only:  # no Wayland session: don't let SDL probe it (and print errors) after X fails
        os.environ["SDL_VIDEODRIVER"] = "x11"
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in HEADLESS_DRIVERS and asked not in HEADLESS_DRIVERS:
            raise pygame.error(f"SDL chose the {driver} driver")
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        set_minimum_size()
    except pygame.error as exc:
        pygame.display.quit()
        if x11_only:
            del os.environ["SDL_VIDEODRIVER"]
        if not headless_ok:
            raise NoDisplayError(f"{hint} ({exc})") from exc
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.key.set_repeat(350, 40)
    return screen


#: the smallest window the panel's text fits whole in (a real window cannot be made smaller)
MINIMUM_SIZE = (960, 600)


def set_minimum_size() -> None:
    """Ask the window system not to let the window shrink below :data:`MINIMUM_SIZE`."""
    window_type = getattr(pygame, "Window", None)
    if window_type is None or pygame.display.get_driver() in HEADLESS_DRIVERS:
        return
    with contextlib.suppress(pygame.error, AttributeError, ValueError):  # an old SDL: no minimum
        window_type.from_display_module().minimum_size = MINIMUM_SIZE
