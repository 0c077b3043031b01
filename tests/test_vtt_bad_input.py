"""Bad virtual-tabletop files through the real commands: one line in the file's terms, exit 2.

Every kind of issue 23's item 6 (wrong types, huge coordinates, NaN, a huge picture, a wall list of
a million points) in a Universal VTT file and a Foundry scene, through ``check``, ``los``,
``render``, ``reach`` and ``play``; the big ones in a fresh process, with their time and peak
memory bounded (the budgets of Tiled maps).
"""

from __future__ import annotations

import base64
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.tiled.vtt_json import MAX_OBJECTS

REPO = Path(__file__).resolve().parent.parent


def uvtt(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3},
                                      "pixels_per_grid": 50},
        "line_of_sight": [[{"x": 1, "y": 0}, {"x": 1, "y": 3}]], "portals": [], "lights": [],
    }
    doc.update(changes)
    return doc


def scene(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"name": "Hall", "width": 400, "height": 300, "padding": 0,
                           "grid": {"type": 1, "size": 100},
                           "walls": [{"c": [100, 0, 100, 300], "move": 20, "sight": 20, "door": 0}],
                           "tokens": []}
    doc.update(changes)
    return doc


BAD = [
    ("types.dd2vtt", uvtt(resolution={"map_size": {"x": 4, "y": "3"}, "pixels_per_grid": 50}),
     'expected a number at resolution.map_size.y, found "3"'),
    ("types.uvtt", uvtt(portals=[{"bounds": [{"x": 1, "y": 1}, {"x": 2, "y": 1}], "closed": "yes"}]),
     'expected true or false at portals[0].closed, found "yes"'),
    ("far.df2vtt", uvtt(line_of_sight=[[{"x": 1e300, "y": 2}, {"x": 1, "y": 2}]]),
     "line_of_sight[0][0] is (1e+300, 2) squares from the map's corner, far outside the 4x3 map "
     "(coordinates are in squares, not pixels)"),
    ("huge.dd2vtt", uvtt(resolution={"map_size": {"x": 1e9, "y": 1e9}, "pixels_per_grid": 50}),
     "the map is 1000000000x1000000000 squares, over the limit of 250,000 squares"),
    ("nan.dd2vtt", b'{"format": 0.3, "resolution": {"map_size": {"x": NaN, "y": 3}, "pixels_per_grid": 5}}',
     "line 1, column 50: NaN is not a number JSON has"),
    ("types.json", scene(walls=[{"c": [100, 0, "100", 300]}]), 'expected a number at walls[0].c[2], found "100"'),
    ("far.json", scene(walls=[{"c": [100, 0, 1e12, 300]}]),
     "walls[0].c has the point (1e+12, 300), far outside the 400x300 pixel scene"),
    ("hex.json", scene(grid={"type": 2, "size": 100}), "the scene's grid is hexagonal; Sightline reads square grids"),
    ("nan.json", b'{"name": "x", "width": 400, "height": 300, "grid": 100, "walls": [{"c": [Infinity, 0, 1, 1]}]}',
     "line 1, column 74: Infinity is not a number JSON has"),
    ("truncated.json", b'{"name": "x", "width": 400, "height": 300, "grid": 100, "walls": [{"c": [1, 0',
     "not valid JSON"),
    ("exponent.dd2vtt", json.dumps(uvtt()).replace('"x": 1, "y": 0', '"x": 1e999999999, "y": 0').encode(),
     "a number's exponent 999999999 is too large (at most 3 digits)"),
    ("digits.json", json.dumps(scene()).replace("[100, 0, 100, 300]", "[100, 0." + "3" * 1_000_000 + ", 100, 300]").encode(),
     "a number has 1000000 digits (at most 40)"),
    ("outline.uvtt", uvtt(resolution={"map_size": {"x": 200, "y": 200}, "pixels_per_grid": 10},
                          objects_line_of_sight=[[{"x": 100 + 99 * math.cos(i / 8000), "y": 100 + 99 * math.sin(i / 8000)}
                                                  for i in range(50_000)]]),
     "the obstacle outlines (up to objects_line_of_sight[0]) have too many points over too many squares to fill"),
]


def _write(folder: Path, name: str, doc: Any) -> Path:
    path = folder / name
    path.write_bytes(doc if isinstance(doc, bytes) else json.dumps(doc).encode())
    return path


COMMANDS = [
    ("los", "M", "0,0"),
    ("reach", "M", "0,0", "2"),
    ("render", "M", "-o", "OUT"),
    ("play", "M", "--frames", "1", "--screenshot", "OUT"),
    ("check", "M"),
]


@pytest.mark.parametrize(("name", "doc", "expected"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_bad_file_is_one_line_and_exit_2_on_every_command(
        tmp_path: Path, name: str, doc: Any, expected: str, command: tuple[str, ...],
        capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, name, doc)
    argv = [str(path) if a == "M" else str(tmp_path / "out.png") if a == "OUT" else a for a in command]
    capsys.readouterr()
    start = time.perf_counter()
    code = main(argv)
    seconds = time.perf_counter() - start
    captured = capsys.readouterr()
    assert code == 2
    err = captured.err
    assert err.count("\n") == 1 and f"{path}: " in err and expected in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert not (tmp_path / "out.png").exists()
    assert seconds < 10  # generous: the work is bounded by the file's limits, not its claims


def test_a_picture_the_header_says_is_huge_is_a_warning_and_the_board_is_drawn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A JPEG's size is only in its frame header, read when the picture is drawn: a 30000x30000
    one is not decoded; ``render`` says why in one line and draws the board."""
    jpeg = b"\xff\xd8\xff\xc0\x00\x11\x08" + (30000).to_bytes(2, "big") * 2 + b"\x03" + bytes(9) + b"\xff\xd9"
    doc = uvtt(image=base64.b64encode(jpeg + bytes(5000)).decode())
    path = _write(tmp_path, "bomb.dd2vtt", doc)
    capsys.readouterr()
    assert main(["render", str(path), "-o", str(tmp_path / "out.png")]) == 0
    err = capsys.readouterr().err
    assert err == ("sightline render: warning: the map's picture is 30000x30000 pixels, over the 64-megapixel "
                   "budget; drawing the board without it\n")
    assert (tmp_path / "out.png").is_file()


def _fresh(*argv: str) -> tuple[int, str, float, float]:
    """``sightline ARGV`` in a fresh process: exit code, stderr, seconds, peak memory in MiB (the
    process's own high-water mark, VmHWM: ``ru_maxrss`` would count the forking parent's too)."""
    if not Path("/proc/self/status").is_file():
        pytest.skip("measures memory through /proc (Linux)")
    code = ("import atexit, sys\n"
            "def peak():\n"
            "    line = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "    sys.stderr.write('peak_kb=%s\\n' % line.split()[1])\n"
            "atexit.register(peak)\n"
            "from game.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=REPO,
                          timeout=120, env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"})
    seconds = time.perf_counter() - start
    err, _, peak = done.stderr.rpartition("peak_kb=")
    return done.returncode, err, seconds, int(peak.split()[0]) / 1024


@pytest.mark.parametrize("command", [("check",), ("los", "0,0"), ("play", "--frames", "1")], ids=lambda c: c[0])
def test_a_million_wall_points_is_refused_in_bounded_time_and_memory(tmp_path: Path, command: tuple[str, ...]) -> None:
    points = ",".join(f'{{"x":{i % 50},"y":1}}' for i in range(1_000_000))
    path = tmp_path / "million.dd2vtt"
    path.write_text('{"format":0.3,"resolution":{"map_size":{"x":50,"y":50},"pixels_per_grid":64},'
                    '"line_of_sight":[[' + points + "]]}")
    argv = [command[0], str(path), *command[1:]]
    code, err, seconds, mib = _fresh(*argv)
    assert code == 2 and err.count("\n") == 1
    assert f"the file holds more than {MAX_OBJECTS:,} JSON objects (points, walls, lights ...)" in err
    assert seconds < 10 and mib < 400


@pytest.mark.slow
def test_a_100_mb_picture_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.dd2vtt"
    with path.open("wb") as handle:
        handle.write(b'{"format": 0.3, "resolution": {"map_size": {"x": 5, "y": 5}, "pixels_per_grid": 20},'
                     b' "image": "iVBORw0KGgo')
        block = b"A" * (1 << 20)
        for _ in range(100):
            handle.write(block)
        handle.write(b'"}')
    code, err, seconds, mib = _fresh("check", str(path))
    assert code == 2 and err == f"sightline check: {path}: Universal VTT file is 100 MiB, over the 64 MiB limit\n"
    assert seconds < 10 and mib < 200
