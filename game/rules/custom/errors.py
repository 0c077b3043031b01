"""The one error a ruleset file raises: a line naming the file, the line, the problem and the fix."""

from __future__ import annotations

from game.core.errors import UsageError


class RulesetFileError(UsageError):
    """A ruleset file that cannot be used.

    >>> str(RulesetFileError("unknown key 'explod' in step 2", source="skirmish.toml", line=14,
    ...                      fix="did you mean 'explode'?"))
    "skirmish.toml:14: unknown key 'explod' in step 2 (did you mean 'explode'?)"
    """

    def __init__(self, problem: str, *, source: str, line: int, fix: str = "") -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.fix = fix
        super().__init__(f"{source}:{line}: {problem}" + (f" ({fix})" if fix else ""))
