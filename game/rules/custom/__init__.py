"""Rulesets written as a file (``docs/rulesets.md``): load the TOML text of one with
:func:`load_ruleset` and use it as any :class:`~game.rules.base.Ruleset`.

Pure: the text comes in as a string (reading the file is the caller's job,
:mod:`game.play.ruleset_file`); every problem in it is one
:class:`~game.rules.custom.errors.RulesetFileError` naming the file and the line.
"""

from game.rules.custom.errors import RulesetFileError
from game.rules.custom.ruleset import CustomRuleset, load_ruleset

__all__ = ["CustomRuleset", "RulesetFileError", "load_ruleset"]
