"""The ruleset registry: the map property ``ruleset`` → a :class:`~game.rules.base.Ruleset`.

The one place game names live outside their own packages. Each ruleset lives in a package
(``game/rules/<name>/``) that exposes ``RULESET`` (an instance); :data:`RULESETS` maps the name a
map writes to that module, one line per game, and :data:`DEFAULT_RULESET` names the one a map
without the property plays. Packages are imported lazily: a map is never slowed down by the
rules of another game. What the rest of the house asks of a game, its ruleset declares:
the grids it plays on (:attr:`Ruleset.grids <game.rules.base.Ruleset.grids>`, asked through
:func:`grid_refusal` and :func:`rulesets_on`: square boards, and hex boards for rules that do
not depend on squares), diagonal counting (:attr:`Ruleset.diagonal_distance <game.rules.base.Ruleset.diagonal_distance>`,
asked through :func:`counts_diagonals`), the properties the linter knows
(``known_properties``), the values it refuses (``figure_problems``, ``nonsense``), the attacks
no figure can make (``unreachable_attacks``) and the page its hints point to (``doc_page``).

A ruleset written as a file (``docs/rulesets.md``) is a ruleset *instance*: the play layer reads
the file (``game.play.ruleset_file``; the rules never open files) and registers what it read
under a ``file:`` name (:func:`register_ruleset` with the instance, :func:`file_ruleset_name`
for the name), which the board then plays like any other name. A ``file:`` name nobody
registered is one line saying the file was not read.

>>> get_ruleset("arcadia").title
'Arcadia Quest'
>>> get_ruleset("").name == DEFAULT_RULESET
True
>>> counts_diagonals("conquest"), counts_diagonals("arcadia")
(True, False)
>>> get_ruleset("chess")
Traceback (most recent call last):
...
game.core.errors.UsageError: unknown ruleset 'chess' (known: arcadia, mage_knight, conquest, folklore)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from game.core.errors import UsageError
from game.core.grid import GridKind
from game.rules.base import Ruleset

#: ruleset name (as the map property writes it) → the module that defines its ``RULESET``
RULESETS: dict[str, str] = {
    "arcadia": "game.rules.arcadia",
    "mage_knight": "game.rules.mage_knight",
    "conquest": "game.rules.conquest",
    "folklore": "game.rules.folklore",
}

#: the ruleset a map plays when it names none (a board's ``ruleset`` is then "")
DEFAULT_RULESET = "arcadia"

#: other spellings a map may use → the ruleset name
ALIASES: dict[str, str] = {
    "arcadia_quest": "arcadia",
    "mageknight": "mage_knight",
    "mage-knight": "mage_knight",
}

#: the prefix of a map's ``ruleset`` that names a ruleset file (``file:skirmish.toml``)
FILE_PREFIX = "file:"

_CACHE: dict[str, Ruleset] = {}
#: rulesets registered as instances (read from files), by their exact name
_INSTANCES: dict[str, Ruleset] = {}


def is_file_ruleset(name: str | None) -> bool:
    """Whether a map's ``ruleset`` names a ruleset file (``file:...``, any case of ``file``).

    >>> is_file_ruleset("file:skirmish.toml"), is_file_ruleset("FILE:a.toml"), is_file_ruleset("arcadia")
    (True, True, False)
    """
    return (name or "").strip()[: len(FILE_PREFIX)].lower() == FILE_PREFIX


def file_ruleset_name(path: str) -> str:
    """The ``file:`` name of the ruleset file at ``path`` (its full path, as the caller made it:
    the play layer passes the resolved one, so one file has one name).

    >>> file_ruleset_name("/maps/skirmish.toml")
    'file:/maps/skirmish.toml'
    """
    return FILE_PREFIX + path


def register_ruleset(name: str, module: str | Ruleset, *, aliases: Iterable[str] = ()) -> None:
    """Add a game: maps whose ``ruleset`` is ``name`` (or one of ``aliases``) play the
    ``RULESET`` of ``module`` (an importable module name), imported when first asked for — or
    ``module`` itself when it is a :class:`Ruleset` instance (a ruleset read from a file,
    registered under its ``file:`` name; registering it again replaces it).

    The same as a line in :data:`RULESETS`, for a game that lives outside this package (a
    plug-in, or a test's toy ruleset); :func:`forget_ruleset` takes it back out. Instances are
    not listed by :func:`ruleset_names` (they are files, not games a map names by a word).
    """
    if isinstance(module, Ruleset):
        key = name.strip()
        _INSTANCES[key] = module
        return
    key = name.strip().lower()
    RULESETS[key] = module
    for alias in aliases:
        ALIASES[alias.strip().lower()] = key
    _CACHE.pop(key, None)


def forget_ruleset(name: str) -> None:
    """Remove a game added by :func:`register_ruleset` (and its aliases)."""
    _INSTANCES.pop(name.strip(), None)
    key = name.strip().lower()
    RULESETS.pop(key, None)
    _CACHE.pop(key, None)
    for alias in [a for a, target in ALIASES.items() if target == key]:
        del ALIASES[alias]


def ruleset_names() -> tuple[str, ...]:
    """Every known ruleset name, in registry order."""
    return tuple(RULESETS)


def ruleset_key(name: str | None) -> str:
    """The registry name ``name`` means: lower case, aliases resolved, the default for none.

    >>> ruleset_key("Mage-Knight"), ruleset_key(""), ruleset_key("chess")
    ('mage_knight', 'arcadia', 'chess')
    """
    key = (name or DEFAULT_RULESET).strip().lower()
    return ALIASES.get(key, key)


def get_ruleset(name: str | None) -> Ruleset:
    """The ruleset called ``name`` (case-insensitive; "" or None: :data:`DEFAULT_RULESET`);
    UsageError naming the known ones otherwise. A ``file:`` name is the instance registered
    under it (exactly as written); UsageError when no file was read under that name.

    >>> get_ruleset("file:skirmish.toml")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: the ruleset file 'skirmish.toml' was not read (open the map with sightline, which reads it beside the map)
    """
    if name is not None and is_file_ruleset(name):
        found = _INSTANCES.get(name.strip())
        if found is None:
            written = name.strip()[len(FILE_PREFIX):]
            raise UsageError(f"the ruleset file {written!r} was not read (open the map with "
                             "sightline, which reads it beside the map)")
        return found
    key = ruleset_key(name)
    if key in _CACHE:
        return _CACHE[key]
    if key not in RULESETS:
        raise UsageError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
    module = importlib.import_module(RULESETS[key])
    ruleset = getattr(module, "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        raise UsageError(f"the {key} ruleset module defines no RULESET")
    _CACHE[key] = ruleset
    return ruleset


def ruleset_label(name: str | None) -> str:
    """A board's ruleset in a person's words: the name a map writes for a game (``arcadia``), a
    ruleset file's title and file name (``Lantern Skirmish (skirmish.toml)``), or the ``file:``
    name as written when no file was read under it.

    >>> ruleset_label("conquest"), ruleset_label(""), ruleset_label("file:x.toml")
    ('conquest', 'arcadia', 'file:x.toml')
    """
    if name is not None and is_file_ruleset(name):
        found = _INSTANCES.get(name.strip())
        if found is None:
            return name.strip()
        base = name.strip().replace("\\", "/").rsplit("/", 1)[-1]
        return f"{found.title or found.name} ({base})"
    return (name or "").strip() or DEFAULT_RULESET


def rulesets_on(kind: GridKind) -> tuple[str, ...]:
    """The games (registry names, in registry order) whose rules play on a ``kind`` grid
    (:attr:`Ruleset.grids <game.rules.base.Ruleset.grids>`); a game that cannot be loaded is
    left out.

    >>> rulesets_on("hex")
    ('arcadia', 'mage_knight', 'folklore')
    """
    out = []
    for name in RULESETS:
        try:
            if kind in get_ruleset(name).grids:
                out.append(name)
        except (UsageError, ImportError):
            continue
    return tuple(out)


def grid_refusal(ruleset: Ruleset, kind: GridKind) -> str | None:
    """None when ``ruleset`` plays on a ``kind`` grid; else one sentence saying why not and
    naming the games that do (:meth:`Ruleset.grid_refusal <game.rules.base.Ruleset.grid_refusal>`).

    >>> grid_refusal(get_ruleset("conquest"), "hex").endswith("(rulesets that play on hex boards: arcadia, mage_knight, folklore, and ruleset files without diagonal ranges)")
    True
    """
    why = ruleset.grid_refusal(kind)
    if why is None:
        return None
    others = ", ".join(rulesets_on(kind)) or "none"
    return f"{why} (rulesets that play on {kind} boards: {others}, and ruleset files without diagonal ranges)"


def counts_diagonals(name: str | None) -> bool:
    """Whether the ruleset ``name`` counts distances with a diagonal step as one (its
    ``diagonal_distance``); an unknown ruleset counts orthogonal steps only."""
    try:
        return get_ruleset(name).diagonal_distance
    except UsageError:
        return False
