"""Tiled's JSON formats (``.tmj``/``.json`` maps, ``.tsj`` tilesets, ``.tj`` templates) as TMX trees.

One reader feeds one board model: a JSON file is turned into the very element tree its TMX twin
parses to (same tags, attributes and ``<properties>``), and everything after that is shared. Tile
data given as a JSON array becomes CSV text; base64 data keeps its encoding and compression.

The text is parsed by :func:`game.core.safe_json.loads` (size, depth and number limits, every
refusal in our words) and every field is read through a :class:`~game.core.safe_json.Field` as
the type Tiled writes it, so a wrong type is one line naming the file and the field's place
(``m.tmj: expected a list at layers[0].polyline, found true``), never an exception further on.

>>> root = json_to_element({"type": "map", "orientation": "orthogonal", "width": 2, "height": 1,
...     "tilewidth": 8, "tileheight": 8, "layers": [{"type": "tilelayer", "name": "g", "width": 2,
...     "height": 1, "data": [1, 0]}], "tilesets": []}, "m.tmj")
>>> root.tag, root.find("layer/data").text
('map', '1,0')
>>> json_to_element({"type": "map", "width": 2, "layers": True}, "m.tmj")
Traceback (most recent call last):
...
game.core.errors.MapError: m.tmj: expected a list at layers, found true (open the file in Tiled and save it again)
"""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

from game.core.errors import MapError
from game.core.safe_json import Field, JsonError, loads

JsonObject = dict[str, Any]

#: how a field is read: a whole number, a number, text, true/false (or 0/1), text or a number
WHOLE, NUMBER, TEXT, FLAG, VERSION = "whole", "number", "text", "flag", "version"
#: the range of Tiled's whole numbers (ids and sizes are 32-bit, gids unsigned)
WHOLE_LOW, WHOLE_HIGH = -(2**31), 2**32 - 1
HINT = "open the file in Tiled and save it again"

_MAP_ATTRS = {
    "version": VERSION, "tiledversion": TEXT, "class": TEXT, "orientation": TEXT,
    "renderorder": TEXT, "width": WHOLE, "height": WHOLE, "tilewidth": WHOLE, "tileheight": WHOLE,
    "hexsidelength": WHOLE, "staggeraxis": TEXT, "staggerindex": TEXT, "backgroundcolor": TEXT,
    "nextlayerid": WHOLE, "nextobjectid": WHOLE, "infinite": FLAG, "compressionlevel": WHOLE,
    "parallaxoriginx": NUMBER, "parallaxoriginy": NUMBER,
}
_LAYER_ATTRS = {
    "id": WHOLE, "name": TEXT, "class": TEXT, "x": WHOLE, "y": WHOLE, "width": WHOLE,
    "height": WHOLE, "opacity": NUMBER, "visible": FLAG, "tintcolor": TEXT, "offsetx": NUMBER,
    "offsety": NUMBER, "parallaxx": NUMBER, "parallaxy": NUMBER, "locked": FLAG, "color": TEXT,
    "draworder": TEXT,
}
_TILESET_ATTRS = {
    "firstgid": WHOLE, "source": TEXT, "name": TEXT, "class": TEXT, "tilewidth": WHOLE,
    "tileheight": WHOLE, "spacing": WHOLE, "margin": WHOLE, "tilecount": WHOLE, "columns": WHOLE,
    "objectalignment": TEXT, "tilerendersize": TEXT, "fillmode": TEXT,
}
_OBJECT_ATTRS = {
    "id": WHOLE, "name": TEXT, "type": TEXT, "class": TEXT, "x": NUMBER, "y": NUMBER,
    "width": NUMBER, "height": NUMBER, "rotation": NUMBER, "gid": WHOLE, "visible": FLAG,
    "template": TEXT,
}
_TILE_ATTRS = {"type": TEXT, "class": TEXT, "x": WHOLE, "y": WHOLE, "width": WHOLE, "height": WHOLE}
_IMAGE_ATTRS = {"imagewidth": WHOLE, "imageheight": WHOLE}
_CHUNK_ATTRS = ("x", "y", "width", "height")


def parse_json_bytes(data: bytes, shown: str) -> ET.Element:
    """Parse a Tiled JSON file into its TMX element tree; one-line MapError when it cannot."""
    try:
        doc = loads(data)
    except JsonError as exc:
        raise MapError(
            f"not valid JSON: {exc}", path=shown,
            hint="the file may be truncated or not a Tiled file; save it again from Tiled",
        ) from None
    if not isinstance(doc, dict):
        raise MapError("not a Tiled JSON file (it is not a JSON object)", path=shown)
    return json_to_element(doc, shown)


def json_to_element(doc: JsonObject, shown: str) -> ET.Element:
    """A Tiled JSON map, tileset or template as the element tree of its TMX/TSX/TX twin; a field
    of the wrong type is a one-line MapError naming ``shown`` and the field's place."""
    top = Field(doc)
    try:
        kind = top.key("type").text(default=None)
        if kind == "map" or (kind is None and "layers" in doc):
            return _map(top)
        if kind == "tileset" or (kind is None and "tilewidth" in doc and "layers" not in doc):
            return _tileset(top, "tileset")
        if kind == "template":
            return _template(top)
    except JsonError as exc:
        raise MapError(str(exc), path=shown, hint=HINT) from None
    raise MapError(
        f"not a Tiled map, tileset or template (its JSON type is {kind[:40]!r})" if kind else
        "not a Tiled map, tileset or template (its JSON object has no type)",
        path=shown,
        hint="open the map in Tiled and use File > Save As... (.tmj or .tmx)",
    )


def _text(value: Any) -> str:
    """A JSON value as TMX attribute text (bools 1/0, whole floats without .0, other floats as
    Python writes them shortest: ``1e+100``, which the XML reader's number limits then judge)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    return str(value)


def _scalar(field: Field, kind: str) -> Any:
    """A field read as ``kind`` (None when absent or null); a JsonError when of another type."""
    if not field.present:
        return None
    if kind == WHOLE:
        return field.whole(low=WHOLE_LOW, high=WHOLE_HIGH)
    if kind == NUMBER:
        return field.number()
    if kind == FLAG:
        if field.value in (0, 1) and not isinstance(field.value, bool):
            return bool(field.value)  # Tiled reads 0/1 as false/true too
        return field.flag()
    if kind == VERSION and not isinstance(field.value, str):
        return field.number()  # Tiled before 1.6 wrote "version": 1.2
    return field.text()


def _attrs(elem: ET.Element, doc: Field, kinds: dict[str, str]) -> None:
    """Copy the fields ``kinds`` names from a JSON object onto an element, each read as its kind
    (an empty class or type left out, as Tiled does)."""
    for name, kind in kinds.items():
        value = _scalar(doc.key(name), kind)
        if value is None or (name in ("class", "type") and value == ""):
            continue
        elem.set(name, _text(value))


def _properties(elem: ET.Element, doc: Field) -> None:
    """A JSON object's custom properties as ``<properties>`` (the old name -> value form too)."""
    props = doc.key("properties")
    if not props.present or props.value in ([], {}):
        return
    out = ET.SubElement(elem, "properties")
    if isinstance(props.value, dict):  # the old (Tiled < 1.2) form: name -> value, types aside
        types = doc.key("propertytypes")
        for name, value in props.entries():
            kind = types.key(name).text(default="string") if types.present else "string"
            out.append(_property(name, kind, None, value))
        return
    for prop in props.items():
        if not prop.key("name").present:  # kept nameless: the reader reports it (property-nameless)
            prop.object()
            out.append(ET.Element("property"))
            continue
        kind = prop.key("type").text(default="string")
        out.append(_property(prop.key("name").text(), kind, prop.key("propertytype").text(default=None),
                             prop.key("value")))


def _property(name: str, kind: str, propertytype: str | None, value: Field) -> ET.Element:
    """One JSON property as a ``<property>`` (a class property's members nested), its value read
    as its type says."""
    elem = ET.Element("property", name=name)
    if kind != "string":
        elem.set("type", kind)
    if propertytype:
        elem.set("propertytype", propertytype)
    if kind == "class":
        nested = ET.SubElement(elem, "properties")
        for member, member_value in value.entries(default={}):
            nested.append(_member(member, member_value))
        return elem
    if not value.present:
        return elem
    if kind == "bool":
        elem.set("value", "true" if _scalar(value, FLAG) else "false")
    elif kind in ("int", "object"):
        elem.set("value", _text(value.whole(low=WHOLE_LOW, high=WHOLE_HIGH)))
    elif kind == "float":
        elem.set("value", _text(value.number()))
    else:
        text = value.text()
        if "\n" in text:
            elem.text = text
        else:
            elem.set("value", text)
    return elem


def _member(name: str, value: Field) -> ET.Element:
    """A member of a class-typed property (JSON keeps only values; types follow the JSON type)."""
    found = value.value
    if isinstance(found, dict):
        return _property(name, "class", None, value)
    if isinstance(found, bool):
        return _property(name, "bool", None, value)
    if isinstance(found, int):
        return _property(name, "int", None, value)
    if isinstance(found, float):
        return _property(name, "float", None, value)
    if found is None or isinstance(found, str):
        return _property(name, "string", None, Field(found or "", value.where))
    raise value.fail("text, a number, true, false or an object")


def _map(doc: Field) -> ET.Element:
    """A JSON map as ``<map>``: attributes, properties, tilesets, layers."""
    root = ET.Element("map")
    _attrs(root, doc, _MAP_ATTRS)
    _properties(root, doc)
    for ts in doc.key("tilesets").items(default=()):
        root.append(_tileset(ts, "tileset"))
    _layers(root, doc.key("layers").items(default=()))
    return root


def _layers(parent: ET.Element, layers: list[Field]) -> None:
    """JSON layers as TMX layer elements under ``parent`` (groups nested; a layer type Sightline
    does not know is left out)."""
    for layer in layers:
        kind = layer.key("type").text()
        if kind == "tilelayer":
            parent.append(_tile_layer(layer))
        elif kind == "objectgroup":
            group = ET.SubElement(parent, "objectgroup")
            _attrs(group, layer, _LAYER_ATTRS)
            group.attrib.pop("width", None)
            group.attrib.pop("height", None)
            _properties(group, layer)
            for obj in layer.key("objects").items(default=()):
                group.append(_object(obj))
        elif kind == "group":
            group = ET.SubElement(parent, "group")
            _attrs(group, layer, _LAYER_ATTRS)
            _properties(group, layer)
            _layers(group, layer.key("layers").items(default=()))
        elif kind == "imagelayer":
            image_layer = ET.SubElement(parent, "imagelayer")
            _attrs(image_layer, layer, _LAYER_ATTRS)
            _properties(image_layer, layer)
            image = layer.key("image").text(default="")
            if image:
                ET.SubElement(image_layer, "image", source=image)


def _data(parent: ET.Element, block: Field, encoding: str | None, compression: str | None,
          tag: str) -> ET.Element:
    """A tile layer's (or chunk's) data: a JSON array of gids as CSV, a string as its encoding
    says; anything else names the field."""
    data = block.key("data")
    elem = ET.SubElement(parent, tag)
    if isinstance(data.value, str):
        if tag == "data":
            elem.set("encoding", encoding or "base64")
            if compression:
                elem.set("compression", compression)
        elem.text = data.value
        return elem
    if not isinstance(data.value, list):
        raise data.fail("a list of tile numbers or base64 text")
    if tag == "data":
        elem.set("encoding", "csv")
    elem.text = ",".join(map(str, data.wholes(low=0, high=2**32 - 1)))
    return elem


def _tile_layer(layer: Field) -> ET.Element:
    """A JSON tile layer as ``<layer>`` (an infinite map's chunks as ``<chunk>`` elements)."""
    elem = ET.Element("layer")
    _attrs(elem, layer, _LAYER_ATTRS)
    _properties(elem, layer)
    written = layer.key("encoding").text(default="csv")
    encoding = None if written == "csv" else written
    compression = layer.key("compression").text(default="") or None
    chunks = layer.key("chunks")
    if chunks.present:
        data = ET.SubElement(elem, "data")
        data.set("encoding", "csv" if encoding is None else encoding)
        if compression:
            data.set("compression", compression)
        for chunk in chunks.items():
            piece = _data(data, chunk, encoding, compression, "chunk")
            for key in _CHUNK_ATTRS:
                piece.set(key, _text(chunk.key(key).whole(default=0, low=WHOLE_LOW, high=WHOLE_HIGH)))
        return elem
    _data(elem, layer, encoding, compression, "data")
    return elem


def _object(obj: Field) -> ET.Element:
    """A JSON object as ``<object>`` with its shape element."""
    elem = ET.Element("object")
    _attrs(elem, obj, _OBJECT_ATTRS)
    if elem.get("visible") == "1":
        elem.attrib.pop("visible", None)
    if elem.get("rotation") == "0":
        del elem.attrib["rotation"]
    _properties(elem, obj)
    shapes = {name: obj.key(name) for name in ("ellipse", "point", "polygon", "polyline", "text")}
    if _scalar(shapes["ellipse"], FLAG):
        ET.SubElement(elem, "ellipse")
    elif _scalar(shapes["point"], FLAG):
        ET.SubElement(elem, "point")
    elif shapes["polygon"].present or shapes["polyline"].present:
        shape = "polygon" if shapes["polygon"].present else "polyline"
        points = " ".join(
            f"{_text(p.key('x').number(default=0))},{_text(p.key('y').number(default=0))}"
            for p in shapes[shape].items()
        )
        ET.SubElement(elem, shape, points=points)
    elif shapes["text"].present:
        ET.SubElement(elem, "text").text = shapes["text"].key("text").text(default="")
    return elem


def _image(owner: ET.Element, doc: Field, source: str) -> ET.Element:
    """An ``<image>`` under ``owner`` with the image size the JSON gives (``imagewidth``...)."""
    image = ET.SubElement(owner, "image", source=source)
    for ours, theirs in (("width", "imagewidth"), ("height", "imageheight")):
        value = _scalar(doc.key(theirs), _IMAGE_ATTRS[theirs])
        if value is not None:
            image.set(ours, _text(value))
    return image


def _tileset(ts: Field, tag: str) -> ET.Element:
    """A JSON tileset as ``<tileset>`` (or a reference to an external one)."""
    elem = ET.Element(tag)
    _attrs(elem, ts, _TILESET_ATTRS)
    if ts.key("source").present:
        return elem
    offset = ts.key("tileoffset")
    if offset.present:
        ET.SubElement(elem, "tileoffset", x=_text(offset.key("x").whole(default=0)),
                      y=_text(offset.key("y").whole(default=0)))
    _properties(elem, ts)
    source = ts.key("image").text(default="")
    if source:
        image = _image(elem, ts, source)
        trans = ts.key("transparentcolor").text(default="")
        if trans:
            image.set("trans", trans.lstrip("#"))
    for tile in ts.key("tiles").items(default=()):
        t = ET.SubElement(elem, "tile", id=_text(tile.key("id").whole(default=0, low=0, high=WHOLE_HIGH)))
        _attrs(t, tile, _TILE_ATTRS)
        _properties(t, tile)
        source = tile.key("image").text(default="")
        if source:
            _image(t, tile, source)
        group = tile.key("objectgroup")
        if group.present:
            og = ET.SubElement(t, "objectgroup")
            _attrs(og, group, _LAYER_ATTRS)
            for obj in group.key("objects").items(default=()):
                og.append(_object(obj))
    return elem


def _template(doc: Field) -> ET.Element:
    """A JSON template as ``<template>``: its tileset and its object."""
    root = ET.Element("template")
    ts = doc.key("tileset")
    if ts.present:
        root.append(_tileset(ts, "tileset"))
    obj = doc.key("object")
    if obj.present:
        root.append(_object(obj))
    return root
