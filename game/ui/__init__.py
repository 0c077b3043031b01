"""The pygame window and the headless PNG renderer: the only package that imports pygame."""
