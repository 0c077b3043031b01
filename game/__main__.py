"""``python -m game`` runs the ``sightline`` command."""

from game.cli import main

raise SystemExit(main())
