"""Tiled's JSON formats (``.tmj``/``.json`` maps, ``.tsj`` tilesets, ``.tj`` templates) as TMX trees.

One reader feeds one board model: a JSON file is turned into the very element tree its TMX twin
parses to (same tags, attributes and ``<properties>``), and everything after that is shared. Tile
data given as a JSON array becomes CSV text; base64 data keeps its encoding and compression.

>>> root = json_to_element({"type": "map", "orientation": "orthogonal", "width": 2, "height": 1,
...     "tilewidth": 8, "tileheight": 8, "layers": [{"type": "tilelayer", "name": "g", "width": 2,
...     "height": 1, "data": [1, 0]}], "tilesets": []}, "m.tmj")
>>> root.tag, root.find("layer/data").text
('map', '1,0')
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree as ET

from game.core.errors import MapError

JsonObject = dict[str, Any]

_MAP_ATTRS = (
    "version", "tiledversion", "class", "orientation", "renderorder", "width", "height",
    "tilewidth", "tileheight", "hexsidelength", "staggeraxis", "staggerindex", "backgroundcolor",
    "nextlayerid", "nextobjectid", "infinite", "compressionlevel", "parallaxoriginx",
    "parallaxoriginy",
)
_LAYER_ATTRS = (
    "id", "name", "class", "x", "y", "width", "height", "opacity", "visible", "tintcolor",
    "offsetx", "offsety", "parallaxx", "parallaxy", "locked", "color", "draworder",
)
_TILESET_ATTRS = (
    "firstgid", "source", "name", "class", "tilewidth", "tileheight", "spacing", "margin",
    "tilecount", "columns", "objectalignment", "tilerendersize", "fillmode",
)
_OBJECT_ATTRS = (
    "id", "name", "type", "class", "x", "y", "width", "height", "rotation", "gid", "visible",
    "template",
)


def parse_json_bytes(data: bytes, shown: str) -> ET.Element:
    """Parse a Tiled JSON file into its TMX element tree; one-line MapError when it cannot."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MapError("the JSON file is not UTF-8", path=shown, hint="save it again from Tiled") from None
    except json.JSONDecodeError as exc:
        raise MapError(
            f"not valid JSON ({exc.msg}, line {exc.lineno}, column {exc.colno})",
            path=shown,
            hint="the file may be truncated or not a Tiled file; save it again from Tiled",
        ) from None
    except RecursionError:
        raise MapError("the JSON file is nested too deeply to read", path=shown) from None
    if not isinstance(doc, dict):
        raise MapError("not a Tiled JSON file (it is not a JSON object)", path=shown)
    return json_to_element(doc, shown)


def json_to_element(doc: JsonObject, shown: str) -> ET.Element:
    """A Tiled JSON map, tileset or template as the element tree of its TMX/TSX/TX twin."""
    kind = doc.get("type")
    if kind == "map" or (kind is None and "layers" in doc):
        return _map(doc, shown)
    if kind == "tileset" or (kind is None and "tilewidth" in doc and "layers" not in doc):
        return _tileset(doc, "tileset")
    if kind == "template":
        return _template(doc)
    raise MapError(
        f"not a Tiled map, tileset or template (JSON type {kind!r})",
        path=shown,
        hint="open the map in Tiled and use File > Save As... (.tmj or .tmx)",
    )


def _text(value: Any) -> str:
    """A JSON value as TMX attribute text (bools 1/0, whole floats without .0)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _attrs(elem: ET.Element, doc: JsonObject, names: tuple[str, ...]) -> None:
    """Copy the scalar ``names`` of a JSON object onto an element (an empty class or type left out)."""
    for name in names:
        value = doc.get(name)
        if value is None or isinstance(value, dict | list):
            continue
        if name in ("class", "type") and value == "":
            continue
        elem.set(name, _text(value))


def _properties(elem: ET.Element, doc: JsonObject) -> None:
    """A JSON object's custom properties as ``<properties>`` (the old name -> value form too)."""
    props = doc.get("properties")
    if not props:
        return
    out = ET.SubElement(elem, "properties")
    if isinstance(props, dict):  # the old (Tiled < 1.2) form: name -> value, types aside
        types = doc.get("propertytypes", {}) or {}
        props = [{"name": k, "value": v, "type": types.get(k, "string")} for k, v in props.items()]
    for prop in props:
        if not isinstance(prop, dict):
            continue
        # a property without a name is kept nameless: the reader reports it (property-nameless)
        out.append(_property(prop) if "name" in prop else ET.Element("property"))


def _property(prop: JsonObject) -> ET.Element:
    """One JSON property as a ``<property>`` (a class property's members nested)."""
    elem = ET.Element("property", name=str(prop["name"]))
    kind = str(prop.get("type", "string"))
    if kind != "string":
        elem.set("type", kind)
    if prop.get("propertytype"):
        elem.set("propertytype", str(prop["propertytype"]))
    value = prop.get("value")
    if kind == "class":
        members = value if isinstance(value, dict) else {}
        nested = ET.SubElement(elem, "properties")
        for name, member in members.items():
            nested.append(_member(name, member))
        return elem
    if value is not None:
        if isinstance(value, bool):
            elem.set("value", "true" if value else "false")
        elif isinstance(value, str) and "\n" in value:
            elem.text = value
        else:
            elem.set("value", _text(value))
    return elem


def _member(name: str, value: Any) -> ET.Element:
    """A member of a class-typed property (JSON keeps only values; types follow the JSON type)."""
    if isinstance(value, dict):
        return _property({"name": name, "type": "class", "value": value})
    if isinstance(value, bool):
        return _property({"name": name, "type": "bool", "value": value})
    if isinstance(value, int):
        return _property({"name": name, "type": "int", "value": value})
    if isinstance(value, float):
        return _property({"name": name, "type": "float", "value": value})
    return _property({"name": name, "value": "" if value is None else str(value)})


def _map(doc: JsonObject, shown: str) -> ET.Element:
    """A JSON map as ``<map>``: attributes, properties, tilesets, layers."""
    root = ET.Element("map")
    _attrs(root, doc, _MAP_ATTRS)
    _properties(root, doc)
    for ts in doc.get("tilesets", []) or []:
        if isinstance(ts, dict):
            root.append(_tileset(ts, "tileset"))
    _layers(root, doc.get("layers", []) or [], shown)
    return root


def _layers(parent: ET.Element, layers: list[Any], shown: str) -> None:
    """JSON layers as TMX layer elements under ``parent`` (groups nested)."""
    for layer in layers:
        if not isinstance(layer, dict):
            continue
        kind = layer.get("type")
        if kind == "tilelayer":
            parent.append(_tile_layer(layer, shown))
        elif kind == "objectgroup":
            group = ET.SubElement(parent, "objectgroup")
            _attrs(group, layer, _LAYER_ATTRS)
            group.attrib.pop("width", None)
            group.attrib.pop("height", None)
            _properties(group, layer)
            for obj in layer.get("objects", []) or []:
                if isinstance(obj, dict):
                    group.append(_object(obj))
        elif kind == "group":
            group = ET.SubElement(parent, "group")
            _attrs(group, layer, _LAYER_ATTRS)
            _properties(group, layer)
            _layers(group, layer.get("layers", []) or [], shown)
        elif kind == "imagelayer":
            image_layer = ET.SubElement(parent, "imagelayer")
            _attrs(image_layer, layer, _LAYER_ATTRS)
            _properties(image_layer, layer)
            if layer.get("image"):
                ET.SubElement(image_layer, "image", source=str(layer["image"]))


def _data(parent: ET.Element, block: JsonObject, encoding: str | None, compression: str | None,
          tag: str) -> ET.Element:
    """A tile layer's (or chunk's) data: a JSON array as CSV, a string as its encoding says."""
    data = block.get("data")
    elem = ET.SubElement(parent, tag)
    if isinstance(data, list):
        if tag == "data":
            elem.set("encoding", "csv")
        elem.text = ",".join(str(int(v)) for v in data)
    elif isinstance(data, str):
        if tag == "data":
            elem.set("encoding", encoding or "base64")
            if compression:
                elem.set("compression", compression)
        elem.text = data
    return elem


def _tile_layer(layer: JsonObject, shown: str) -> ET.Element:
    """A JSON tile layer as ``<layer>`` (an infinite map's chunks as ``<chunk>`` elements)."""
    elem = ET.Element("layer")
    _attrs(elem, layer, _LAYER_ATTRS)
    _properties(elem, layer)
    encoding = layer.get("encoding") if layer.get("encoding") != "csv" else None
    compression = layer.get("compression") or None
    chunks = layer.get("chunks")
    if isinstance(chunks, list):
        data = ET.SubElement(elem, "data")
        data.set("encoding", "csv" if encoding is None else str(encoding))
        if compression:
            data.set("compression", str(compression))
        for chunk in chunks:
            if not isinstance(chunk, dict):
                continue
            piece = _data(data, chunk, encoding, compression, "chunk")
            for key in ("x", "y", "width", "height"):
                piece.set(key, _text(chunk.get(key, 0)))
        return elem
    _data(elem, layer, encoding, compression, "data")
    return elem


def _object(obj: JsonObject) -> ET.Element:
    """A JSON object as ``<object>`` with its shape element."""
    elem = ET.Element("object")
    _attrs(elem, obj, _OBJECT_ATTRS)
    if obj.get("visible") is True:
        elem.attrib.pop("visible", None)
    for key in ("rotation",):
        if elem.get(key) == "0":
            del elem.attrib[key]
    _properties(elem, obj)
    if obj.get("ellipse"):
        ET.SubElement(elem, "ellipse")
    elif obj.get("point"):
        ET.SubElement(elem, "point")
    elif isinstance(obj.get("polygon"), list) or isinstance(obj.get("polyline"), list):
        shape = "polygon" if isinstance(obj.get("polygon"), list) else "polyline"
        points = " ".join(f"{_text(p.get('x', 0))},{_text(p.get('y', 0))}" for p in obj[shape])
        ET.SubElement(elem, shape, points=points)
    elif isinstance(obj.get("text"), dict):
        ET.SubElement(elem, "text").text = str(obj["text"].get("text", ""))
    return elem


def _tileset(ts: JsonObject, tag: str) -> ET.Element:
    """A JSON tileset as ``<tileset>`` (or a reference to an external one)."""
    elem = ET.Element(tag)
    _attrs(elem, ts, _TILESET_ATTRS)
    if "source" in ts:
        return elem
    offset = ts.get("tileoffset")
    if isinstance(offset, dict):
        ET.SubElement(elem, "tileoffset", x=_text(offset.get("x", 0)), y=_text(offset.get("y", 0)))
    _properties(elem, ts)
    if ts.get("image"):
        image = ET.SubElement(elem, "image", source=str(ts["image"]))
        for ours, theirs in (("width", "imagewidth"), ("height", "imageheight"),
                             ("trans", "transparentcolor")):
            if ts.get(theirs) not in (None, ""):
                image.set(ours, _text(ts[theirs]).lstrip("#") if ours == "trans" else _text(ts[theirs]))
    for tile in ts.get("tiles", []) or []:
        if not isinstance(tile, dict):
            continue
        t = ET.SubElement(elem, "tile", id=_text(tile.get("id", 0)))
        for key in ("type", "class", "x", "y", "width", "height"):
            if tile.get(key) not in (None, ""):
                t.set(key, _text(tile[key]))
        _properties(t, tile)
        if tile.get("image"):
            image = ET.SubElement(t, "image", source=str(tile["image"]))
            for ours, theirs in (("width", "imagewidth"), ("height", "imageheight")):
                if tile.get(theirs) not in (None, ""):
                    image.set(ours, _text(tile[theirs]))
        group = tile.get("objectgroup")
        if isinstance(group, dict):
            og = ET.SubElement(t, "objectgroup")
            _attrs(og, group, _LAYER_ATTRS)
            for obj in group.get("objects", []) or []:
                if isinstance(obj, dict):
                    og.append(_object(obj))
    return elem


def _template(doc: JsonObject) -> ET.Element:
    """A JSON template as ``<template>``: its tileset and its object."""
    root = ET.Element("template")
    ts = doc.get("tileset")
    if isinstance(ts, dict):
        root.append(_tileset(ts, "tileset"))
    obj = doc.get("object")
    if isinstance(obj, dict):
        root.append(_object(obj))
    return root
