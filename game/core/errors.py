"""The error types every layer raises: each carries one line a person can act on."""

from __future__ import annotations


class SightlineError(Exception):
    """Base of every error Sightline reports to a user as one line (exit code 2)."""


class UsageError(SightlineError):
    """Input is malformed (the faces of a roll, a square, a figure name...)."""


class MapError(SightlineError):
    """A map cannot be read or used.

    >>> str(MapError("wall is diagonal", path="maps/x.tmx", object_id=12, hint="snap it to the grid"))
    'maps/x.tmx: object 12: wall is diagonal (snap it to the grid)'
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        object_id: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.object_id = object_id
        self.hint = hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The error as the single line printed on stderr."""
        parts = []
        if self.path:
            parts.append(f"{self.path}:")
        if self.object_id is not None:
            parts.append(f"object {self.object_id}:")
        parts.append(self.message)
        line = " ".join(parts)
        if self.hint:
            line += f" ({self.hint})"
        return line


class PlacementError(SightlineError, ValueError):
    """A figure cannot stand on a square (off the board, void, blocked terrain)."""


class CapacityError(PlacementError):
    """A square already holds as many figures as the board's capacity allows."""


class IllegalAttackError(SightlineError, ValueError):
    """An attack that the rules do not allow was asked to resolve."""


# --- the rules' structured errors: fields, and a sentence in the rules' own words -------------
#
# The command line (``game/commands/wording.py``) and the window (``game/ui/attack_panel.py``)
# each phrase these in their own words (the command line names its flags); ``str()`` is the
# rules' sentence, which names no flag.


class FacesError(UsageError):
    """The faces given for a physical roll do not fit the rules' pools: ``problem`` says how (the
    rules' sentence), ``pool`` names the pool concerned (None: the faces as a whole).

    >>> str(FacesError("'blank' is not a face of the attack die (faces: bow)", pool="attack"))
    "'blank' is not a face of the attack die (faces: bow)"
    """

    def __init__(self, problem: str, *, pool: str | None = None) -> None:
        self.problem = problem
        self.pool = pool
        super().__init__(problem)


class PlayError(UsageError):
    """A typed play (what a player plays, such as ``ranged 3 fire``) that cannot be
    read: ``item`` is the piece of it at fault, ``problem`` what is wrong with it (None: it is not
    ``[TYPE] VALUE [ELEMENT]`` at all).

    >>> str(PlayError("ranged fire"))
    'the play \\'ranged fire\\' is not [TYPE] VALUE [ELEMENT] (e.g. "ranged 3 fire, siege 2")'
    >>> str(PlayError("ranged -3", "values are whole numbers of 0 or more, not negative"))
    "the play 'ranged -3': values are whole numbers of 0 or more, not negative"
    """

    #: an example of a play that reads
    EXAMPLE = "ranged 3 fire, siege 2"

    def __init__(self, item: str, problem: str | None = None) -> None:
        self.item = item
        self.problem = problem
        if problem is None:
            text = f'the play {item!r} is not [TYPE] VALUE [ELEMENT] (e.g. "{self.EXAMPLE}")'
        else:
            text = f"the play {item!r}: {problem}"
        super().__init__(text)


class PlayBlocksError(UsageError):
    """A play with more ``;``-separated blocks than the enemy has attacks.

    >>> str(PlayBlocksError("Orcs", 1, 2))
    "Orcs has 1 attack but the play has 2 ';'-separated blocks"
    """

    def __init__(self, figure: str, attacks: int, blocks: int) -> None:
        self.figure = figure
        self.attacks = attacks
        self.blocks = blocks
        noun = "attack" if attacks == 1 else "attacks"
        super().__init__(f"{figure} has {attacks} {noun} but the play has {blocks} ';'-separated blocks")


class OptionError(UsageError):
    """An option of the rules (``option``: its key, such as ``phase`` or ``block_stat``) given a
    value the rules do not know; ``allowed`` are the values they do.

    >>> str(OptionError("block_stat", "luck", ("defence", "evasion")))
    "the block stat must be defence or evasion, not 'luck'"
    >>> str(OptionError("phase", "dance", ("ranged", "block", "attack")))
    "the phase must be one of ranged, block, attack, not 'dance'"
    """

    def __init__(self, option: str, value: object, allowed: tuple[str, ...]) -> None:
        self.option = option
        self.value = value
        self.allowed = allowed
        super().__init__(f"the {option.replace('_', ' ')} must be {self.listing()}, not {value!r}")

    def listing(self) -> str:
        """The allowed values in words: ``a or b``, ``one of a, b, c``."""
        if len(self.allowed) == 2:
            return " or ".join(self.allowed)
        return "one of " + ", ".join(self.allowed)


class AttackNameError(UsageError):
    """An attack name the rules do not know; ``known`` are the names they do, and
    ``or_option`` an option that may be given instead of a name (a tally game's phase).

    >>> str(AttackNameError("Skirmish", "Dance", ("Attack", "Block"), or_option="phase"))
    "unknown Skirmish attack 'Dance' (use Attack, Block or name the phase)"
    """

    def __init__(self, rules: str, attack: str, known: tuple[str, ...], *,
                 or_option: str | None = None) -> None:
        self.rules = rules
        self.attack = attack
        self.known = known
        self.or_option = or_option
        tail = f" or name the {or_option.replace('_', ' ')}" if or_option else ""
        super().__init__(f"unknown {rules} attack {attack!r} (use {', '.join(known)}{tail})")
