"""Conquest: First Blood: the ruleset (``RULESET``) and its parts. See ``docs/conquest.md``."""

from game.rules.conquest.ruleset import RULESET

__all__ = ["RULESET"]
