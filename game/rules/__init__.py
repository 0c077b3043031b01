"""Rulesets: one interface (``game.rules.base``), one module per game."""
