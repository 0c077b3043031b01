"""Universal VTT files (game/tiled/uvtt.py): every field read or refused with a reason.

Hand-written files of Dungeondraft's shape (tests/data/vtt/uvtt, made by make_files.py), the real
export of tests/data/vtt/real (see SOURCES.md), and hostile files: each refusal is one line naming
the field, and the worst files (a million points, a picture of 100 MB) are refused in bounded time
and memory, measured in a fresh interpreter.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from game.core.board import DoorState
from game.tiled.uvtt import parse_uvtt, read_uvtt

DATA = Path(__file__).resolve().parent / "data" / "vtt"
REPO = Path(__file__).resolve().parent.parent


def minimal(**changes: Any) -> dict[str, Any]:
    """A small valid file, with top-level keys replaced by ``changes``."""
    doc: dict[str, Any] = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3}, "pixels_per_grid": 50},
        "line_of_sight": [[{"x": 1, "y": 0}, {"x": 1, "y": 3}]],
        "objects_line_of_sight": [],
        "portals": [],
        "lights": [],
    }
    doc.update(changes)
    return doc


def test_the_hand_written_room_is_read_field_by_field() -> None:
    uvtt = read_uvtt(DATA / "uvtt" / "room.dd2vtt")
    assert (uvtt.format, uvtt.size, uvtt.pixels_per_grid) == (0.3, (8, 6), 32)
    assert [len(p) for p in uvtt.line_of_sight] == [5, 3, 2]
    assert uvtt.objects_line_of_sight[0][0] == (F("5.2"), F("2.2"))  # exactly as written
    door, window = uvtt.portals
    assert (door.bounds, door.closed, door.freestanding) == (((F(3), F(1)), (F(4), F(1))), True, False)
    assert (window.closed, window.rotation) == (False, F("1.570796"))
    assert uvtt.lights[0].color == "ffeccd8b" and uvtt.lights[0].range == 4
    assert uvtt.environment == {"baked_lighting": True, "ambient_light": "ffffffff"}
    assert uvtt.image is not None and (uvtt.image.kind, uvtt.image.width, uvtt.image.height) == ("png", 256, 192)
    assert [f.code for f in uvtt.findings] == ["vtt-lighting-ignored"]


def test_the_room_in_grid_units_has_a_door_a_window_and_a_pillar() -> None:
    scene = read_uvtt(DATA / "uvtt" / "room.dd2vtt").scene()
    assert [(p.source, p.role) for p in scene.paths] == [
        ("line_of_sight[0]", "wall"), ("line_of_sight[1]", "wall"), ("line_of_sight[2]", "wall"),
        ("portals[1]", "window")]
    assert [(d.source, d.state) for d in scene.doors] == [("portals[0]", DoorState.CLOSED)]
    assert [(a.source, a.role) for a in scene.areas] == [("objects_line_of_sight[0]", "blocked")]
    assert (scene.width, scene.height, scene.pixels_per_square, scene.fmt) == (8, 6, 32, "uvtt")
    assert scene.picture is not None and scene.picture.data()[:4] == b"\x89PNG"


def test_points_are_read_from_the_map_origin() -> None:
    """cave.uvtt was exported with map_origin (3, 2): its walls are written in absolute squares."""
    uvtt = read_uvtt(DATA / "uvtt" / "cave.uvtt")
    assert uvtt.origin == (3, 2) and uvtt.format == 0.2
    assert uvtt.line_of_sight[1] == ((F("4.2"), F("2.1")), (F("7.8"), F("5.9")))
    assert uvtt.portals[0].bounds == ((F(8), F(13, 2)), (F(8), F(15, 2)))


def test_the_real_dungeondraft_export_is_read() -> None:
    """oganm/dd2vtt_importer's test.dd2vtt (MIT, Dungeondraft, format 0.3): its picture was made
    smaller for this repository (SOURCES.md), which the reader reports."""
    uvtt = read_uvtt(DATA / "real" / "oganm-test.dd2vtt")
    assert (uvtt.format, uvtt.size, uvtt.pixels_per_grid) == (0.3, (20, 20), 64)
    assert (len(uvtt.line_of_sight), len(uvtt.objects_line_of_sight), len(uvtt.portals)) == (9, 2, 3)
    assert sum(len(p) for p in uvtt.line_of_sight) == 206
    assert [p.rotation for p in uvtt.portals] == [0, F("-1.570796"), F("3.141593")]
    assert [f.code for f in uvtt.findings] == ["vtt-picture-size", "vtt-lighting-ignored"]
    assert "320x320 pixels" in uvtt.findings[0].message and "1280x1280" in uvtt.findings[0].message


def test_unknown_keys_and_portal_extent_are_reported_not_dropped_silently() -> None:
    doc = minimal(software="MapMaker 2", portals=[{"position": {"x": 1, "y": 1}, "closed": True}])
    uvtt = parse_uvtt(json.dumps(doc).encode(), "m.uvtt")
    assert [f.code for f in uvtt.findings] == ["vtt-unread"]
    assert "software" in uvtt.findings[0].message
    scene = uvtt.scene()
    assert [f.code for f in scene.findings] == ["vtt-unread", "vtt-portal-unplaced"]
    assert scene.doors == () and "portals[0] has no bounds" in scene.findings[1].message


def test_a_broken_or_huge_picture_is_a_finding_and_the_board_is_read() -> None:
    header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (20000).to_bytes(4, "big") * 2
    huge = parse_uvtt(json.dumps(minimal(image=base64.b64encode(header).decode())).encode(), "m.uvtt")
    assert huge.image is None and [f.code for f in huge.findings] == ["vtt-picture-too-big"]
    text = parse_uvtt(json.dumps(minimal(image="bm90IGFuIGltYWdl")).encode(), "m.uvtt")
    assert text.image is None and [f.code for f in text.findings] == ["vtt-picture-unreadable"]


def test_a_long_picture_is_cut_out_before_parsing() -> None:
    text = (DATA / "real" / "oganm-test.dd2vtt").read_text()
    uvtt = parse_uvtt(text.replace('"image": "', '"image" :\t"').encode(), "m.dd2vtt")
    assert uvtt.image is not None and len(uvtt.image.text) == 187_700 and uvtt.image.kind == "png"
    assert (uvtt.image.width, uvtt.image.height) == (320, 320)


@pytest.mark.parametrize(("doc", "expected"), [
    (b"[1, 2]", "the file is not a JSON object"),
    (b'{"format": 0.3, "resolution": ', "not valid JSON: line 1, column 31: expected a value here"),
    (b"\xff\xfe{}", "the file is not UTF-8 text"),
    ({"format": 0.3}, "no resolution: this is not a Universal VTT file"),
    (minimal(format="new"), "format must be a number, not 'new'"),
    (minimal(format=-1), "format must be a positive number, not -1"),
    (minimal(resolution={"map_size": {"x": 4, "y": 3}}), "resolution has no pixels_per_grid"),
    (minimal(resolution={"map_size": {"x": 0, "y": 3}, "pixels_per_grid": 50}), "resolution.map_size is 0x3"),
    (minimal(resolution={"map_size": {"x": 1e9, "y": 1e9}, "pixels_per_grid": 50}), "over the limit of 250,000 squares"),
    (minimal(resolution={"map_size": {"x": 4, "y": 3}, "pixels_per_grid": 2.5}),
     "expected a whole number at resolution.pixels_per_grid, found 2.5"),
    (minimal(resolution={"map_size": {"x": 4, "y": "3"}, "pixels_per_grid": 50}),
     'expected a number at resolution.map_size.y, found "3"'),
    (minimal(line_of_sight={"x": 1}), "expected a list at line_of_sight, found an object"),
    (minimal(line_of_sight=[[{"x": 1, "y": "2"}]]), 'expected a number at line_of_sight[0][0].y, found "2"'),
    (minimal(line_of_sight=[[{"x": 1}]]), "line_of_sight[0][0] has no y"),
    (minimal(line_of_sight=[[{"x": True, "y": 1}]]), "expected a number at line_of_sight[0][0].x, found true"),
    (minimal(line_of_sight=[[{"x": 1e300, "y": 2}]]), "line_of_sight[0][0] is (1e+300, 2) squares from the map's corner, far outside the 4x3 map"),
    (json.dumps(minimal()).replace('"x": 1, "y": 0', '"x": 1e999, "y": 0').encode(),
     "line_of_sight[0][0] is (1e+999, 0) squares from the map's corner, far outside the 4x3 map"),
    (b'{"format": 0.3, "resolution": {"map_size": {"x": NaN, "y": 3}}}', "line 1, column 50: NaN is not a number JSON has"),
    (b'{"format": Infinity}', "line 1, column 12: Infinity is not a number JSON has"),
    (b'{"format": 1' + b"0" * 5000 + b"}", "a number has 5001 digits (at most 40)"),
    (b"[" * 100_000 + b"]" * 100_000, "lists and objects are nested more than 100 deep"),
    (minimal(portals=[{"position": {"x": 1, "y": 1}, "bounds": [{"x": 1, "y": 1}] * 3}]),
     "portals[0].bounds has 3 points; a portal's bounds are two points"),
    (minimal(portals=[{"bounds": [{"x": 1, "y": 1}, {"x": 2, "y": 1}], "closed": "yes"}]),
     'expected true or false at portals[0].closed, found "yes"'),
    (minimal(portals=[{"closed": True}]), "portals[0] has neither a position nor bounds"),
    (minimal(lights=[{"position": {"x": 1, "y": 1}, "color": "red"}]), "lights[0].color is 'red'"),
    (minimal(lights=[{"position": {"x": 1, "y": 1}, "range": "far"}]), 'expected a number at lights[0].range, found "far"'),
    (minimal(environment={"baked_lighting": 1}), "expected true or false at environment.baked_lighting, found 1"),
    (minimal(image=42), "expected text at image, found 42"),
    (minimal(sightline={"door_squares": [{"square": [1, 1], "state": "ajar"}]}),
     "sightline.door_squares[0].state is 'ajar'; a door is closed, open or locked"),
    (minimal(sightline={"void": [[1, 2, 3]]}), "sightline.void[0] must be a square [x, y]"),
    (minimal(sightline={"properties": {"capacity": [2]}}), "expected text, a number, true or false at sightline.properties.capacity, found a list of 1 item"),
    (minimal(portals=[{"bounds": [{"x": 1, "y": 1}, {"x": 2, "y": 1}], "sightline": {"kind": "gate"}}]),
     "portals[0].sightline.kind is 'gate'; it must be door or window"),
])
def test_bad_input_is_one_line_naming_the_field(doc: dict[str, Any] | bytes, expected: str,
                                                vtt_refusal: Callable[..., str]) -> None:
    assert expected in vtt_refusal(parse_uvtt, doc)


def test_too_many_points_is_one_line(vtt_refusal: Callable[..., str]) -> None:
    points = [{"x": i % 4, "y": 1} for i in range(200_001)]
    assert "more than 200,000 points (at line_of_sight[0])" in vtt_refusal(parse_uvtt, minimal(line_of_sight=[points]))


def _read_in_fresh_interpreter(path: Path) -> tuple[str, float, int]:
    """Read a file in a new interpreter: the one line printed, seconds, peak memory in MiB."""
    if not Path("/proc/self/status").is_file():
        pytest.skip("measures memory through /proc (Linux)")
    code = (
        "import sys, time\n"
        "from game.core.errors import MapError\nfrom game.tiled.uvtt import read_uvtt\n"
        "start = time.perf_counter()\n"
        "try:\n    read_uvtt(sys.argv[1]); line = 'read'\n"
        "except MapError as error:\n    line = str(error)\n"
        "seconds = time.perf_counter() - start\n"
        "peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(line); print(seconds); print(int(peak) // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=REPO,
                         check=True, timeout=120).stdout.splitlines()
    return out[0], float(out[1]), int(out[2])


def test_a_60_mb_picture_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """Under the file limit, the picture is cut out of the text and sniffed, not decoded."""
    path = tmp_path / "big.dd2vtt"
    header = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (3000).to_bytes(4, "big") * 2)
    with path.open("wb") as handle:
        handle.write(b'{"format": 0.3, "resolution": {"map_size": {"x": 30, "y": 30}, "pixels_per_grid": 100},'
                     b' "image": "' + header)
        for _ in range(60):
            handle.write(b"A" * (1 << 20))
        handle.write(b'"}')
    line, seconds, mib = _read_in_fresh_interpreter(path)
    assert line == "read" and seconds < 10 and mib < 400
