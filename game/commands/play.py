"""``sightline [play] [MAP]``: open the window on a map (the bundled demo map by default).

``--frames N --screenshot OUT.png`` runs N frames, saves the screen and exits (for docs and
smoke tests; it works without a display); ``--screenshot`` alone runs 3 frames. The picture's
folder must exist (checked before the window opens). ``--fresh`` ignores the autosaved play state.
``--detach`` starts the window as a process of its own and returns at once (the Tiled extension's
"open in Sightline" uses it, so no shell ever reads the map's name).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from game.commands._common import add_map_options, map_options, png_output
from game.core.errors import UsageError
from game.resources import bundled_maps

#: the frames ``--screenshot`` without ``--frames`` runs: the side panel's text fills in on the
#: second frame, so one frame would show empty boxes
SCREENSHOT_FRAMES = 3


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline play``."""
    parser.add_argument("map", nargs="?", metavar="MAP", help="a map: Tiled .tmx/.tmj, Universal VTT .dd2vtt/.uvtt/.df2vtt or a Foundry scene .json (default: the demo map)")
    add_window_options(parser)
    parser.add_argument(
        "--fresh", action="store_true", help="ignore the autosaved play state (MAP's .sightline.json)"
    )
    parser.add_argument(
        "--classes",
        metavar="MAPPING",
        help="your class names onto ours, e.g. wall=collision-line,blocked=collision",
    )
    add_map_options(parser)
    from game.commands._common import add_rule_option, add_ruleset_file_option

    add_rule_option(parser)
    parser.add_argument(
        "--detach", action="store_true",
        help="start the window as a separate process and return at once (for the Tiled extension)",
    )
    add_ruleset_file_option(parser)


#: the options ``--detach`` hands on to the window it starts: attribute → flag
_HANDED_ON = (("frames", "--frames"), ("screenshot", "--screenshot"), ("size", "--size"),
              ("ui_scale", "--ui-scale"), ("classes", "--classes"), ("tiles", "--tiles"),
              ("property_names", "--property"), ("preset", "--preset"), ("rule", "--rule"),
              ("ruleset_file", "--ruleset-file"))


def detached_argv(args: argparse.Namespace, map_path: Path) -> list[str]:
    """The command line of the window ``--detach`` starts: this Python running ``game``, the map
    as an absolute path, and every option given (never through a shell).

    >>> ns = argparse.Namespace(frames=2, screenshot=None, size="900x600", ui_scale=None, classes=None,
    ...                         tiles=None, property_names=None, preset=None, rule=None, fresh=True)
    >>> detached_argv(ns, Path("/maps/a&calc&.tmx"))[1:]
    ['-m', 'game', 'play', '/maps/a&calc&.tmx', '--frames', '2', '--size', '900x600', '--fresh']
    """
    argv = [sys.executable, "-m", "game", "play", str(map_path.absolute())]
    for name, flag in _HANDED_ON:
        value = getattr(args, name, None)
        if value is not None:
            argv += [flag, str(Path(value).absolute()) if name == "screenshot" else str(value)]
    if getattr(args, "fresh", False):
        argv.append("--fresh")
    return argv


def start_detached(argv: list[str]) -> None:
    """Start ``argv`` as a process that outlives this one and its caller (own session on POSIX; on
    Windows no console, a process group of its own); no shell, output to the null device."""
    options: dict[str, object] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
                                  "stderr": subprocess.DEVNULL, "close_fds": True}
    if os.name == "nt":
        options["creationflags"] = (getattr(subprocess, "DETACHED_PROCESS", 0x8)
                                    | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200))
    else:
        options["start_new_session"] = True
    try:
        subprocess.Popen(argv, **options)  # type: ignore[call-overload]  # noqa: S603 - no shell
    except OSError as exc:
        raise UsageError(f"cannot start the window: {exc.strerror or 'the system refused'}") from None


def add_window_options(parser: argparse.ArgumentParser) -> None:
    """``--frames``, ``--screenshot`` and ``--size``, shared with ``sightline lessons``."""
    parser.add_argument("--frames", type=int, metavar="N", help="run N frames, then exit")
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="OUT.png",
        help=f"save the screen after the frames (alone: after {SCREENSHOT_FRAMES}); the folder must exist",
    )
    parser.add_argument("--size", metavar="WxH", default="1280x800", help="window size (default 1280x800)")
    parser.add_argument(
        "--ui-scale", metavar="S", type=ui_scale_option, default=None,
        help="size of the panel's type, the dice and the help (0.75 to 3; default: follows the window)",
    )


def ui_scale_option(text: str) -> float:
    """``--ui-scale``: a number from 0.75 to 3 (argparse turns the error into one line, exit 2).

    >>> ui_scale_option("1.5")
    1.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r} (e.g. 1.5)") from None
    if not 0.75 <= value <= 3.0:
        raise argparse.ArgumentTypeError(f"{text} is outside 0.75 to 3")
    return value


def window_size(text: str) -> tuple[int, int]:
    """``1280x800`` → (1280, 800); UsageError otherwise.

    >>> window_size("1024x700")
    (1024, 700)
    """
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UsageError(f"not a window size: {text!r} (write WxH, e.g. 1280x800)")
    width, height = int(parts[0]), int(parts[1])
    if width < 400 or height < 300:
        raise UsageError(f"window size {width}x{height} is too small (at least 400x300)")
    return width, height


def check_window_options(args: argparse.Namespace) -> tuple[int, int]:
    """Validate ``--frames``/``--screenshot``/``--size`` before anything runs; returns the size.

    ``--screenshot`` must name a ``.png`` in a folder that exists (as ``render -o`` does);
    without ``--frames`` it means ``--frames 3`` (:data:`SCREENSHOT_FRAMES`; sets
    ``args.frames``): a picture is taken after the frames, never on quit, so a headless run
    cannot wait for ever.

    >>> args = argparse.Namespace(frames=None, screenshot=Path("shot.png"), size="900x600")
    >>> check_window_options(args), args.frames
    ((900, 600), 3)
    """
    if args.frames is not None and args.frames < 1:
        raise UsageError(f"--frames must be at least 1, not {args.frames}")
    size = window_size(args.size)
    if args.screenshot is not None:
        args.screenshot = png_output(str(args.screenshot), "--screenshot")
        if args.frames is None:
            args.frames = SCREENSHOT_FRAMES
    return size


def shown_path(path: Path) -> str:
    """A path as the person would type it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def run(args: argparse.Namespace) -> int:
    """Open the map and run the window."""
    size = check_window_options(args)
    map_path = Path(args.map) if args.map else bundled_maps() / "demo.tmx"
    if not map_path.exists():
        raise UsageError(f"no such map: {map_path}")
    options = map_options(args)  # --classes, --tiles, --property, --preset (checked before reading)
    if getattr(args, "detach", False):
        start_detached(detached_argv(args, map_path))
        return 0
    from game.play.session import Session

    session = Session.open(map_path, options=options, fresh=args.fresh, defer_lint=True,
                           ruleset_file=getattr(args, "ruleset_file", None))
    from game.commands._common import rule_option

    # --rule and the map's los_rule are checked here (one line, exit 2 when wrong); the window's
    # sight (rays, F) follows the rule, the attack rules judge sight by the map's rule
    rule = rule_option(session.board, args.rule)
    from game.ui.app import run_window

    return run_window(
        session, frames=args.frames, screenshot=args.screenshot, size=size, map_hint=shown_path(map_path),
        ui_scale=getattr(args, "ui_scale", None), rule=rule if args.rule is not None else None,
    )
