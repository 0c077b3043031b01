"""Tools for map designers: the linter, line-of-sight coverage, map diffs and report data.

Nothing here draws: pictures come from ``game.ui`` and are handed in by the commands."""
