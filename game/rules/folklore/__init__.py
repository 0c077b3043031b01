"""the 2D6 folklore TRPG: the ruleset (``RULESET``) and its parts. See ``docs/folklore.md``."""

from game.rules.folklore.ruleset import RULESET

__all__ = ["RULESET"]
