/*
 * Test-only Tiled extension for tests/test_hex_infinite.py (never installed for users).
 *
 * Loaded into a private Tiled config folder (it writes $SIGHTLINE_INFINITE_DONE.ready once loaded;
 * the test then hands the map to the running Tiled, as tests/tiled/harness.js is handed its own). When Tiled opens the map named by
 * $SIGHTLINE_INFINITE_SOURCE, this ticks Map > Map Properties > Infinite on it, writes it with
 * Tiled's own TMX and JSON writers to $SIGHTLINE_INFINITE_TMX and $SIGHTLINE_INFINITE_TMJ (tile
 * layers in chunks), undoes the change on the opened copy (so that quitting asks nothing), writes
 * what happened to $SIGHTLINE_INFINITE_DONE and quits Tiled. Whatever fails, it still writes and quits.
 */

(function () {
    "use strict";
    var env = new Process();
    var source = env.getEnv("SIGHTLINE_INFINITE_SOURCE");
    var tmx = env.getEnv("SIGHTLINE_INFINITE_TMX");
    var tmj = env.getEnv("SIGHTLINE_INFINITE_TMJ");
    var done = env.getEnv("SIGHTLINE_INFINITE_DONE");
    env.close();
    if (!source || !done)
        return;

    var ready = new TextFile(done + ".ready", TextFile.WriteOnly);  // loaded: hand the map over now
    ready.write(tiled.version + "\n");
    ready.commit();

    var handled = false;
    tiled.assetOpened.connect(function (asset) {
        if (handled || !asset.isTileMap)
            return;
        handled = true;
        var result = { tiled: tiled.version };
        try {
            asset.infinite = true;
            result.infinite = asset.infinite;
            result.tmx = tiled.mapFormat("tmx").write(asset, tmx) || "";
            result.tmj = tiled.mapFormat("json").write(asset, tmj) || "";
        } catch (e) {
            result.exception = String(e) + (e && e.stack ? "\n" + e.stack : "");
        }
        try {
            asset.undo();  // the opened copy back as it was: Quit then asks nothing
            result.undone = !asset.infinite && !asset.modified;
        } catch (e) {
            result.undo = String(e);
        }
        var file = new TextFile(done, TextFile.WriteOnly);
        file.write(JSON.stringify(result));
        file.commit();
        tiled.trigger("Quit");
    });
})();
