"""A toy fifth game for the registry test (``tests/test_registry.py``): its package, and one
``register_ruleset`` line, are all a game needs. Not shipped: it lives beside the tests."""

from toygame.ruleset import RULESET

__all__ = ["RULESET"]
