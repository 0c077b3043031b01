"""The hex LOS spec's vectors H1-H6 and the presets they are checked under."""

from __future__ import annotations

#: (name, board width, height, A, B, walls between cell pairs, blocked cells,
#:  expected in sight under gloomhaven, hexside, hex-strict)
VECTORS = [
    ("H1", 3, 1, (0, 0), (2, 0), [], [], (True, True, True)),
    ("H2", 3, 1, (0, 0), (2, 0), [((0, 0), (1, 0))], [], (False, False, False)),
    ("H3", 3, 1, (0, 0), (2, 0), [], [(1, 0)], (True, False, False)),
    ("H4", 2, 2, (0, 0), (0, 1), [], [], (True, True, True)),
    ("H5", 3, 3, (1, 0), (1, 2), [], [(0, 1)], (True, True, False)),
    ("H6", 3, 3, (1, 0), (1, 2), [], [(0, 1), (1, 1)], (True, False, False)),
]


PRESETS = ("gloomhaven", "hexside", "hex-strict")

