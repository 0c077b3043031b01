"""Arcadia Quest: the ruleset (``RULESET``) and its parts. See ``docs/arcadia.md``."""

from game.rules.arcadia.ruleset import RULESET

__all__ = ["RULESET"]
