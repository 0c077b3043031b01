"""Sightline: a tactical-board visualiser with exact line of sight.

Layers (see ``docs/architecture.md``): ``board``, ``los``, ``dice`` and ``rules`` are pure;
``tiled`` is the only module that reads Tiled maps; ``ui`` is the only package that draws.
"""

__version__ = "0.1.0"
