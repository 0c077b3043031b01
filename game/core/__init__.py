"""The pure core: board, line of sight, dice, odds, errors, findings and words.

Nothing here reads files, imports pygame or pytmx, or looks at the clock; modules of ``core``
import only each other (``tests/test_project.py`` enforces it).
"""
