"""Saying what is wrong when a reader gives up on a map (private to :mod:`game.tiled`): the first
attribute or element that cannot be what Tiled writes, in the map's terms."""

from __future__ import annotations

import math
from xml.etree import ElementTree as ET

# --- saying what is wrong when a reader gives up ---------------------------------------------

#: attributes Tiled writes as whole numbers / as numbers (what the readers convert)
_INT_ATTRS = frozenset({"columns", "duration", "firstgid", "gid", "id", "margin", "nextobjectid",
                        "spacing", "tile", "tilecount", "tileheight", "tileid", "tilewidth",
                        "nextlayerid"})
_FLOAT_ATTRS = frozenset({"height", "width", "x", "y", "opacity", "rotation", "probability",
                          "offsetx", "offsety", "parallaxx", "parallaxy"})
_NEEDS = {"tileset": ("firstgid",), "property": ("name",), "image": ("source",),
          "layer": ("width", "height"), "map": ("width", "height", "tilewidth", "tileheight")}


def explain_unreadable(root: ET.Element) -> str:
    """What in the tree a reader could not take, in the map's terms (element, attribute, object
    id) — never the reader's exception text; a general sentence when nothing stands out.

    >>> explain_unreadable(ET.fromstring('<map width="2" height="2" tilewidth="8" tileheight="8">'
    ...     '<objectgroup><object id="4" x="abc"/></objectgroup></map>'))
    "<object id=4> x='abc' is not a number"
    >>> explain_unreadable(ET.fromstring('<tileset><properties><property value="1"/></properties></tileset>'))
    '<property value=1> has no name attribute'
    """
    parents = {child: parent for parent in root.iter() for child in parent}
    for elem in root.iter():
        owner = parents.get(parents.get(elem, elem))
        if elem.tag in ("polyline", "polygon") and elem.get("points") is None:
            return f"{_where(parents.get(elem, elem))} has a <{elem.tag}> without points"
        problem = _property_problem(elem, owner) or _attribute_problem(elem, elem is root)
        if problem:
            return problem
    return "an element or attribute is not as Tiled writes it"


def _property_problem(elem: ET.Element, owner: ET.Element | None) -> str | None:
    """What is wrong with a ``<property>`` (no value, a number that is not one), or None."""
    if elem.tag != "property" or elem.get("name") is None:
        return None
    kind, value = elem.get("type", "string"), elem.get("value", elem.text)
    shown = f"{_where(owner) if owner is not None else '<map>'} property {elem.get('name')!r}"
    if value is None:
        return f"{shown} has no value"
    try:
        if kind in ("int", "object"):
            int(value.strip())
        elif kind == "float" and not math.isfinite(float(value)):
            return f"{shown} = {value[:20]!r} is not a finite number"
    except ValueError:
        return f"{shown} = {value[:20]!r} is not {'a whole number' if kind != 'float' else 'a number'} (its type is {kind})"
    return None


def _attribute_problem(elem: ET.Element, is_root: bool) -> str | None:
    """A missing attribute an element needs, or a number attribute that is not one, or None."""
    where = _where(elem)
    for attr in _NEEDS.get(elem.tag, ()):
        if elem.get(attr) is None and not (elem.tag == "tileset" and is_root):
            return f"{where} has no {attr} attribute"
    for attr, text in elem.attrib.items():
        if attr in _INT_ATTRS:
            try:
                int(text.strip())
            except ValueError:
                return f"{where} {attr}={text[:20]!r} is not a whole number"
        elif attr in _FLOAT_ATTRS:
            try:
                number = float(text)
            except ValueError:
                return f"{where} {attr}={text[:20]!r} is not a number"
            if not math.isfinite(number):
                return f"{where} {attr}={text[:20]!r} is not a finite number"
    return None


def _where(elem: ET.Element) -> str:
    """An element for a message: its tag and the first of id, name, firstgid, value it has."""
    for key in ("id", "name", "firstgid", "value"):
        if elem.get(key) is not None:
            return f"<{elem.tag} {key}={elem.get(key, '')[:20]}>"
    return f"<{elem.tag}>"
