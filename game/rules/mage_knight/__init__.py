"""Mage Knight: the ruleset (``RULESET``) and its parts. See ``docs/mage-knight.md``."""

from game.rules.mage_knight.ruleset import RULESET

__all__ = ["RULESET"]
