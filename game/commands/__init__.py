"""Subcommands of ``sightline``: each module has ``configure(parser)`` and ``run(args) -> int``."""
