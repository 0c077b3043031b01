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
import time
from collections.abc import Callable
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.play.lessons import LESSONS_DIR, lesson_paths  # noqa: E402
from game.play.session import Session  # noqa: E402
from game.resources import bundled_maps  # noqa: E402
from game.ui.app import App  # noqa: E402
from game.ui.display import save_screenshot  # noqa: E402

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
    _move(app, (12, 7))  # Hex, of the monsters
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
    assert app.presenter.tour is not None
    app.presenter.tour.open([p.stem for p in app.presenter.tour.paths].index("L06"))
    app.presenter.enter_lesson()
    _key(app, pygame.K_b)
    _key(app, pygame.K_RETURN)
    _key(app, pygame.K_n)
    save_screenshot(app.screen, out)


def window_classroom_predict(out: Path) -> None:
    """Classroom mode before the reveal: a neutral ray, the question."""
    app = _window(None, (1920, 1080), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    _key(app, pygame.K_F2)
    assert app.presenter.tour is not None
    app.presenter.tour.open([p.stem for p in app.presenter.tour.paths].index("L06"))
    app.presenter.enter_lesson()
    _key(app, pygame.K_y)
    save_screenshot(app.screen, out)


def window_lesson_l29b(out: Path) -> None:
    """Lesson L29b: a figure never sees itself."""
    app = _window(None, (1280, 800), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    assert app.presenter.tour is not None
    app.presenter.tour.open([p.stem for p in app.presenter.tour.paths].index("L29b"))
    app.presenter.enter_lesson()
    _post(app, frames=3)
    save_screenshot(app.screen, out)


def window_help(out: Path) -> None:
    """F1 at 1280×800."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _key(app, pygame.K_F1)
    save_screenshot(app.screen, out)


def _drag(app: App, start: tuple[int, int], end: tuple[int, int]) -> None:
    a, b = app.view.square_centre(start), app.view.square_centre(end)
    _post(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1), frames=1)
    for i in range(1, 7):
        pos = (a[0] + (b[0] - a[0]) * i // 6, a[1] + (b[1] - a[1]) * i // 6)
        _post(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)), frames=1)
    _post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))


def _played(app: App) -> None:
    """A few moves and door changes, so that the log has something to show."""
    _drag(app, (4, 3), (5, 4))
    _drag(app, (4, 5), (4, 6))
    _click(app, (11, 9))
    _drag(app, (11, 9), (10, 9))
    _drag(app, (10, 9), (10, 8))
    app.session.history.note("Thistle attacks Cinder (Throwing Knife, ranged 2): hit on 5 and 6 against "
                             "defence 2, Cinder loses 2 life and is down; dice seed set aside for undo")
    _post(app, frames=2)


def _copy_demo(tmp: str) -> Path:
    """The bundled maps and their art in a scratch folder (the window may autosave there)."""
    folder = Path(tmp) / "maps"
    shutil.copytree(MAPS, folder)
    if (MAPS.parent / "assets").is_dir():
        shutil.copytree(MAPS.parent / "assets", Path(tmp) / "assets")
    return folder / "demo.tmx"


def window_ray_fov(out: Path) -> None:
    """Ember selected, F on, the ray to Hex blocked by a wall."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _click(app, (4, 3))
    _key(app, pygame.K_f)
    _move(app, (12, 7))
    _move(app, (11, 6))
    save_screenshot(app.screen, out)


def window_refused(out: Path) -> None:
    """Ember dragged onto the goblins' square (already full): red, the reason said at once."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    a, b = app.view.square_centre((4, 3)), app.view.square_centre((7, 4))
    _post(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1), frames=1)
    for i in range(1, 7):
        pos = (a[0] + (b[0] - a[0]) * i // 6, a[1] + (b[1] - a[1]) * i // 6)
        _post(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)), frames=1)
    for _ in range(4):  # the panel's text catches up (a few times a second) while the figure is held
        time.sleep(0.15)
        _post(app, frames=2)
    save_screenshot(app.screen, out)


def window_reload_error(out: Path) -> None:
    """The map saved broken while the window is open: the last good board stays, the error shows."""
    with tempfile.TemporaryDirectory() as tmp:
        path = _copy_demo(tmp)
        app = _window(path, (1280, 800))
        for _ in range(10):
            app.frame()
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("</map>", "<objectgroup"), encoding="utf-8")
        _key(app, pygame.K_F5)
        _post(app, frames=3)
        save_screenshot(app.screen, out)


def window_log(out: Path) -> None:
    """Shift+L: the whole log, every entry whole, in the large reader."""
    with tempfile.TemporaryDirectory() as tmp:
        app = _window(_copy_demo(tmp), (1280, 800))
        _played(app)
        _key(app, pygame.K_l, pygame.KMOD_LSHIFT)
        save_screenshot(app.screen, out)


def _findings_map(folder: Path) -> Path:
    """The demo map with a few mistakes a designer makes: an over-full square, a door off the
    grid, a walled-off corner (so the map check has errors and warnings to list)."""
    text = (MAPS / "demo.tmx").read_text(encoding="utf-8")
    extra = "".join(
        f"<object id='{900 + i}' name='Extra{i}' type='figure' x='{6 * 32 + 16}' y='{7 * 32 + 16}'>"
        "<properties><property name='side' value='Red Guild'/></properties><point/></object>"
        for i in range(3)
    ) + "<object id='950' type='door' x='40' y='300'><polyline points='0,0 20,0'/></object>"
    cut = text.rfind("</objectgroup>")
    out = _copy_demo(str(folder)).with_name("demo-mistakes.tmx")
    out.write_text(text[:cut] + extra + text[cut:], encoding="utf-8")
    return out


def window_findings(out: Path) -> None:
    """I: the map check's findings in the large list, filters on top, one chosen (F3)."""
    with tempfile.TemporaryDirectory() as tmp:
        app = _window(_findings_map(Path(tmp)), (1280, 800))
        for _ in range(10):
            app.frame()  # the deferred map check finishes
        _key(app, pygame.K_i)
        _key(app, pygame.K_F3)
        save_screenshot(app.screen, out)


def window_heat(out: Path) -> None:
    """H: the coverage heat map, a square hovered."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _key(app, pygame.K_h)
    app.heat.wait(120)
    _move(app, (7, 10))
    save_screenshot(app.screen, out)


def window_small(out: Path) -> None:
    """--size 800x500: the panel at UI scale 0.75, nothing cut."""
    app = _window(MAPS / "demo.tmx", (800, 500))
    _click(app, (4, 3))
    _move(app, (8, 8))
    save_screenshot(app.screen, out)


def window_lessons(out: Path) -> None:
    """The lessons at 1280×800: the lesson text has the panel's room."""
    app = _window(None, (1280, 800), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    assert app.presenter.tour is not None
    app.presenter.tour.open([p.stem for p in app.presenter.tour.paths].index("L06"))
    app.presenter.enter_lesson()
    _key(app, pygame.K_n)
    save_screenshot(app.screen, out)


def window_rules(out: Path) -> None:
    """Ember's ray under any-point (K until it), the parameter panel (J) and compare mode (X)."""
    app = _window(MAPS / "demo.tmx", (1280, 800))
    _click(app, (4, 3))
    for _ in range(4):  # arcadia -> corners -> dnd5e -> pf2e -> any-point
        _key(app, pygame.K_k)
    _key(app, pygame.K_j)
    _key(app, pygame.K_x)
    _move(app, (12, 7))
    _move(app, (9, 8))
    save_screenshot(app.screen, out)


PICTURES: dict[str, Callable[[Path], None]] = {
    "window-ray-fov.png": window_ray_fov,
    "window-refused.png": window_refused,
    "window-reload-error.png": window_reload_error,
    "window-sight-anywhere.png": window_sight_anywhere,
    "window-measure.png": window_measure,
    "window-hover-card.png": window_hover_card,
    "window-2400.png": window_big,
    "window-classroom.png": window_classroom,
    "window-classroom-predict.png": window_classroom_predict,
    "window-lesson-l29b.png": window_lesson_l29b,
    "window-help.png": window_help,
    "window-log.png": window_log,
    "window-findings.png": window_findings,
    "window-heat.png": window_heat,
    "window-800x500.png": window_small,
    "window-lesson.png": window_lessons,
    "window-rules.png": window_rules,
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
