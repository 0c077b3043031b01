/*
 * Test-only Tiled extension for tests/test_tiled_extension.py (never installed for users).
 *
 * Loaded beside the real extension (sightline.js) into a private Tiled config folder. When the
 * test hands a map to the running Tiled, this saves it (so the real extension's assetSaved hook
 * runs `sightline check --json`), activates the issues the extension posted and records what got
 * selected, checks an unreadable map and a missing program, writes everything to the JSON file
 * named by $SIGHTLINE_TEST_RESULTS, and quits Tiled. Whatever fails, it still writes and quits.
 */

(function () {
    "use strict";
    var env = new Process();
    var resultsPath = env.getEnv("SIGHTLINE_TEST_RESULTS");
    var brokenMap = env.getEnv("SIGHTLINE_TEST_BROKEN_MAP");
    var classMap = env.getEnv("SIGHTLINE_TEST_CLASS_MAP");
    var hostileMap = env.getEnv("SIGHTLINE_TEST_HOSTILE_MAP");
    var recorder = env.getEnv("SIGHTLINE_TEST_RECORDER");
    env.close();
    if (!resultsPath)
        return;

    function write(path, text) {
        var file = new TextFile(path, TextFile.WriteOnly);
        file.write(text);
        file.commit();
    }

    write(resultsPath + ".ready", tiled.version + "\n");

    function issues(from) {
        return Sightline.posted.slice(from).map(function (p) {
            return { severity: p.severity, text: p.text, object_id: p.objectId,
                     square: p.square, file: p.file };
        });
    }

    function selection(map) {
        return {
            objects: map.selectedObjects.map(function (o) { return o.id; }),
            layer: map.currentLayer ? map.currentLayer.name : null,
            area: [map.selectedArea.boundingRect.x, map.selectedArea.boundingRect.y,
                   map.selectedArea.boundingRect.width, map.selectedArea.boundingRect.height],
        };
    }

    var done = false;
    tiled.assetOpened.connect(function (asset) {
        if (done || !asset.isTileMap)
            return;
        done = true;
        var results = { tiled: tiled.version, menu: [], actions: [] };
        try {
            results.actions = tiled.actions.filter(function (a) { return /^Sightline/.test(a); });
            results.selected_before = selection(asset);
            asset.setProperty("saved_by_test", true);  // a real edit, so the save writes the file
            var before = Sightline.posted.length;
            tiled.trigger("Save");
            results.saved = issues(before);
            results.check = Sightline.lastCheck;
            results.activated = {};
            Sightline.posted.slice(before).forEach(function (p) {
                asset.selectedObjects = [];
                p.activate();
                results.activated[String(p.objectId)] = selection(asset);
            });

            before = Sightline.posted.length;
            if (brokenMap)
                Sightline.check(brokenMap);
            results.unreadable = issues(before);

            before = Sightline.posted.length;
            var installed = SIGHTLINE_PROGRAM;
            results.installed_program = installed;
            SIGHTLINE_PROGRAM = "/nonexistent/sightline";
            try {
                Sightline.check(asset.fileName);
            } finally {
                SIGHTLINE_PROGRAM = installed;
            }
            results.missing = issues(before);

            asset.selectedObjects = [];
            results.selected_after_clear = selection(asset);

            Sightline.reveal(asset.fileName, null, [2, 1]);  // a finding with a square only
            results.square = selection(asset);

            var byId = {};
            asset.layerAt(0).objects.forEach(function (o) { byId[o.id] = o; });
            asset.selectedObjects = [byId[4], byId[5]];  // Ann, then her target the Goblin
            tiled.trigger("SightlineLos");
            results.los_pair = Sightline.lastLos;
            asset.selectedObjects = [byId[4]];
            tiled.trigger("SightlineLos");
            results.los_fov = Sightline.lastLos;

            // "open in Sightline": the command for hostile names on each platform, then a real
            // launch of a map named to break a shell, by a program that records its arguments
            var hostileNames = ["C:\\maps\\a&calc&.tmx", "C:\\maps\\%PATH%.tmx",
                                "C:\\maps\\\"x\" & del *.tmx", "/maps/a;$(touch pwned)`id`.tmx"];
            var programs = ["C:\\Py\\Scripts\\sightline.exe", "C:\\Py\\Scripts\\sightline.cmd",
                            "C:\\Py\\Scripts\\SIGHTLINE.BAT", "C:\\Py\\Scripts\\sightline.bat.",
                            "/usr/bin/sightline"];
            results.launch = [];
            ["windows", "linux", "macos"].forEach(function (platform) {
                programs.forEach(function (program) {
                    hostileNames.forEach(function (name) {
                        results.launch.push({ platform: platform, program: program, map: name,
                                              command: Sightline.launchCommand(platform, program, name) });
                    });
                });
            });
            if (hostileMap && recorder) {
                var hostile = tiled.open(hostileMap);
                installed = SIGHTLINE_PROGRAM;
                SIGHTLINE_PROGRAM = recorder;
                try {
                    tiled.activeAsset = hostile;
                    tiled.trigger("SightlineOpen");
                } finally {
                    SIGHTLINE_PROGRAM = installed;
                }
                results.opened = Sightline.lastOpen;
                results.opened_file = hostile ? hostile.fileName : null;
                if (hostile)
                    tiled.close(hostile);
            }

            before = Sightline.posted.length;  // a map written by Tiled 1.9+ (class="...")
            var other = classMap ? tiled.open(classMap) : null;
            results.class_map = issues(before);
            if (other)
                tiled.close(other);
        } catch (e) {
            results.exception = String(e) + (e && e.stack ? "\n" + e.stack : "");
        }
        write(resultsPath, JSON.stringify(results, null, 1));
        tiled.trigger("Quit");
    });
})();
