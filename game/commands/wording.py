"""The command line's words for the rules' structured errors (``game/core/errors.py``).

The rules say what is wrong in their own terms ("the play 'ranged fire' is not [TYPE] VALUE
[ELEMENT]"); the command line names the flag the person typed it with (``--play``, ``--faces``,
``--phase``, ``--block-stat``). The window phrases the same errors in its own words
(``game/ui/attack_panel.py``).

>>> from game.core.errors import FacesError, OptionError, PlayBlocksError, PlayError
>>> cli_words(FacesError("the attack pool needs 1 more face (2 dice)", pool="attack"))
'--faces: the attack pool needs 1 more face (2 dice)'
>>> cli_words(PlayError("ranged fire"))
'--play: \\'ranged fire\\' is not [TYPE] VALUE [ELEMENT] (e.g. "ranged 3 fire, siege 2")'
>>> cli_words(OptionError("block_stat", "luck", ("defence", "evasion")))
"--block-stat must be defence or evasion, not 'luck'"
>>> cli_reason("Orcs has 1 attack but the play has 2 ';'-separated blocks.", PlayBlocksError("Orcs", 1, 2))
"Orcs has 1 attack but --play has 2 ';'-separated blocks."
"""

from __future__ import annotations

from game.core.errors import (
    AttackNameError,
    FacesError,
    OptionError,
    PlayBlocksError,
    PlayError,
    SightlineError,
)
from game.core.words import plural

#: the flag each option of the rules is given with (options key → flag)
OPTION_FLAGS: dict[str, str] = {"phase": "--phase", "play": "--play", "block_stat": "--block-stat"}


def flag_of(option: str) -> str:
    """The command-line flag of a rules option (``block_stat`` → ``--block-stat``)."""
    return OPTION_FLAGS.get(option, "--" + option.replace("_", "-"))


def cli_words(error: SightlineError) -> str:
    """One line for stderr: the error in the command line's words (its flags named)."""
    if isinstance(error, FacesError):
        return f"--faces: {error.problem}"
    if isinstance(error, PlayError):
        if error.problem is None:
            return f'--play: {error.item!r} is not [TYPE] VALUE [ELEMENT] (e.g. "{PlayError.EXAMPLE}")'
        return f"--play: {error.item!r}: {error.problem}"
    if isinstance(error, PlayBlocksError):
        return (f"{error.figure} has {plural(error.attacks, 'attack')} but --play has "
                f"{error.blocks} ';'-separated blocks")
    if isinstance(error, OptionError):
        return f"{flag_of(error.option)} must be {error.listing()}, not {error.value!r}"
    if isinstance(error, AttackNameError):
        tail = f" or {flag_of(error.or_option)}" if error.or_option else ""
        return f"unknown {error.rules} attack {error.attack!r} (use {', '.join(error.known)}{tail})"
    return str(error)


def cli_reason(reason: str, problem: SightlineError | None) -> str:
    """A refusal's sentence for the command line: ``reason`` as the rules wrote it, or, when a
    structured ``problem`` is behind it, that problem in the command line's words (as a
    sentence, like the reason)."""
    if problem is None:
        return reason
    text = cli_words(problem)
    text = text[:1].upper() + text[1:]
    return text + "." if reason.endswith(".") and not text.endswith(".") else text
