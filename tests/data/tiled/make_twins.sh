#!/bin/sh
# Rebuild the JSON twins of this folder's TMX maps with the real Tiled editor (Debian package
# `tiled`, 1.8): every MAP.tmx -> MAP.tmj, outdoor.tsx -> outdoor.tsj. The .tj templates and the
# 1.9+ `class` files are written by hand (Tiled's command line exports no templates, and 1.8
# writes `type`). external.tmj and templates.tmj are then pointed at the JSON tileset/templates.
set -e
# the TMX sources here use `type` (Tiled 1.8 reads and writes no `class`)
cd "$(dirname "$0")"
export QT_QPA_PLATFORM=offscreen
for map in walls doors figures nonsquare encoding_zlib external templates; do
    tiled --export-map json "$map.tmx" "$map.tmj"
done
tiled --export-tileset json outdoor.tsx outdoor.tsj
sed -i 's/"outdoor.tsx"/"outdoor.tsj"/' external.tmj
sed -i 's/hero\.tx"/hero.tj"/; s/door\.tx"/door.tj"/' templates.tmj
