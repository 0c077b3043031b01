"""Notice when a map (or a tileset, template or image it uses) changes on disk.

Polled from the window's frame loop about four times a second: no threads, no extra
dependency. A file's signature is its modification time (nanoseconds) and size; a file that
disappears or appears also counts as a change (editors often save by delete + rename).

>>> import tempfile, pathlib, os
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "m.tmx").write_text("a")
1
>>> clock = [0.0]
>>> watcher = FileWatcher([folder / "m.tmx"], time_source=lambda: clock[0])
>>> watcher.poll()
False
>>> (folder / "m.tmx").write_text("bb"); clock[0] += 1.0
2
>>> watcher.poll(), watcher.poll()
(True, False)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

#: seconds between two looks at the files
POLL_INTERVAL = 0.25

Signature = tuple[int, int] | None


def signature(path: Path) -> Signature:
    """(mtime in ns, size) of a file, or None when it cannot be read."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class FileWatcher:
    """Compares the signatures of some files every :data:`POLL_INTERVAL` seconds."""

    def __init__(
        self,
        paths: Iterable[Path],
        *,
        interval: float = POLL_INTERVAL,
        time_source: Callable[[], float] = time.monotonic,
    ) -> None:
        self.interval = interval
        self._time = time_source
        self._next = 0.0
        self.watch(paths)

    def watch(self, paths: Iterable[Path]) -> None:
        """Start over with this set of files (after a reload the dependencies may differ)."""
        self.paths = tuple(dict.fromkeys(Path(p) for p in paths))
        self._seen = {path: signature(path) for path in self.paths}
        self._next = self._time() + self.interval

    def poll(self, force: bool = False) -> bool:
        """True once when any file changed since the last look; cheap when called every frame."""
        now = self._time()
        if not force and now < self._next:
            return False
        self._next = now + self.interval
        changed = False
        for path in self.paths:
            current = signature(path)
            if current != self._seen.get(path):
                self._seen[path] = current
                changed = True
        return changed
