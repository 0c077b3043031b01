"""Play: the board in play, undo/redo, the attack flow, the dice-seed stream, the roll log and
autosave. No pygame: the window drives it, the command line reuses it."""
