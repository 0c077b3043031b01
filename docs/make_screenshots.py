"""Make the window screenshots of docs/window.md: the real window under SDL's dummy driver, driven
by real posted events, saved into docs/images/ (atomically, through the window's own writer).

    python docs/make_screenshots.py            # every picture
    python docs/make_screenshots.py sight      # only those whose name contains "sight"

Each picture is one function below; the names are the files written.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.play.session import Session  # noqa: E402
from game.resources import bundled_maps  # noqa: E402
from game.ui.app import App, save_screenshot  # noqa: E402
from game.ui.lessons import LESSONS_DIR, lesson_paths  # noqa: E402

IMAGES = Path(__file__).resolve().parent / "images"
MAPS = bundled_maps()


def _window(path: Path | None, size: tuple[int, int], **kwargs: object) -> App:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    session = Session.open(path, autosave=False) if path is not None else None
    app = App(session, screen=screen, watch=False, **kwargs)  # type: ignore[arg-type]
    pygame.event.clear()
    for _ in range(3):
        app.frame()
    return app


def _post(app: App, *events: pygame.event.Event, frames: int = 2) -> None:
    for event in events:
        pygame.event.post(event)
    for _ in range(frames):
        app.frame()


def _move(app: App, square: tuple[int, int]) -> None:
    pos = app.view.square_centre(square)
    _post(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


def _click(app: App, square: tuple[int, int], button: int = 1) -> None:
    pos = app.view.square_centre(square)
    _post(
        app,
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
    )


def _key(app: App, key: int, mod: int = 0) -> None:
    _post(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))


def _empty_map(folder: Path) -> Path:
    """The demo map without its figures, as a Tuxemon-style map with none."""
    text = (MAPS / "demo.tmx").read_text(encoding="utf-8")
    start = text.find("<objectgroup", text.find('name="figures"') - 60)
    if 'name="figures"' in text and start >= 0:
        end = text.find("</objectgroup>", start) + len("</objectgroup>")
        text = text[:start] + text[end:]
    maps = folder / "maps"  # the same layout as the repository, so the tileset finds its image
    maps.mkdir(exist_ok=True)
    out = maps / "demo-no-figures.tmx"
    out.write_text(text, encoding="utf-8")
    if not (maps / "tiles").exists():
        shutil.copytree(MAPS / "tiles", maps / "tiles")
    if not (folder / "assets").exists():
        shutil.copytree(MAPS.parent / "assets", folder / "assets")
    return out


def window_sight_anywhere(out: Path) -> None:
    """Sight from an empty square on a map without figures, F shading its field of view."""
    with tempfile.TemporaryDirectory() as tmp:
        app = _window(_empty_map(Path(tmp)), (1280, 800))
        _click(app, (7, 8))
        _key(app, pygame.K_f)
        _move(app, (12, 3))
        save_screenshot(app.screen, out)


def window_measure(out: Path) -> None:
    """The ruler (M) and the movement reach (W) from a selected figure."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _click(app, (4, 3))
    _key(app, pygame.K_w)
    _key(app, pygame.K_m)
    _move(app, (8, 8))
    save_screenshot(app.screen, out)


def window_hover_card(out: Path) -> None:
    """The hover card of an enemy, nothing selected."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _move(app, (11, 7))
    save_screenshot(app.screen, out)


def window_big(out: Path) -> None:
    """2400×1400: the panel and its type scale with the window."""
    app = _window(MAPS / "demo.tmx", (2400, 1400))
    _click(app, (4, 3))
    _move(app, (8, 8))
    save_screenshot(app.screen, out)


def window_classroom(out: Path) -> None:
    """Classroom mode at 1920×1080, revealed and stepped to the first crossing (lesson L06)."""
    app = _window(None, (1920, 1080), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    _key(app, pygame.K_F2)
    assert app.tour is not None
    app.tour.open([p.stem for p in app.tour.paths].index("L06"))
    app._enter_lesson()
    _key(app, pygame.K_b)
    _key(app, pygame.K_RETURN)
    _key(app, pygame.K_n)
    save_screenshot(app.screen, out)


def window_classroom_predict(out: Path) -> None:
    """Classroom mode before the reveal: a neutral ray, the question."""
    app = _window(None, (1920, 1080), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    _key(app, pygame.K_F2)
    assert app.tour is not None
    app.tour.open([p.stem for p in app.tour.paths].index("L06"))
    app._enter_lesson()
    _key(app, pygame.K_y)
    save_screenshot(app.screen, out)


def window_lesson_l29b(out: Path) -> None:
    """Lesson L29b: a figure never sees itself."""
    app = _window(None, (1280, 800), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    assert app.tour is not None
    app.tour.open([p.stem for p in app.tour.paths].index("L29b"))
    app._enter_lesson()
    _post(app, frames=3)
    save_screenshot(app.screen, out)


def window_help(out: Path) -> None:
    """F1 at 1280×800."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _key(app, pygame.K_F1)
    save_screenshot(app.screen, out)


PICTURES: dict[str, Callable[[Path], None]] = {
    "window-sight-anywhere.png": window_sight_anywhere,
    "window-measure.png": window_measure,
    "window-hover-card.png": window_hover_card,
    "window-2400.png": window_big,
    "window-classroom.png": window_classroom,
    "window-classroom-predict.png": window_classroom_predict,
    "window-lesson-l29b.png": window_lesson_l29b,
    "window-help.png": window_help,
}


def main(argv: list[str]) -> int:
    """Write the pictures whose names contain any of ``argv`` (all without arguments)."""
    for name, make in PICTURES.items():
        if argv and not any(part in name for part in argv):
            continue
        make(IMAGES / name)
        pygame.display.quit()
        print(f"wrote docs/images/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
