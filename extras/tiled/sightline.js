/*
 * Sightline for Tiled: the map checks of `sightline check` in Tiled's Issues view on every save,
 * and three actions in the Map menu (check map, open in Sightline, line of sight from selection).
 *
 * Install it with `sightline tiled install` (copies this file into Tiled's extensions folder and
 * writes the path of the `sightline` program below). Written for Tiled 1.8's scripting API
 * (Process, TextFile, File, FileInfo, tiled.error/warn with an activation callback); see
 * docs/designers.md ("Sightline inside Tiled") for what it does and which versions are tested.
 */

/* The absolute path of the `sightline` program; `sightline tiled install` fills it in.
 * Empty: `sightline` is looked up on PATH. */
var SIGHTLINE_PROGRAM = "";  // sightline-program

var Sightline = (function () {
    "use strict";

    /** Longest a save-check may take before it is stopped (Tiled waits for it). */
    var CHECK_LIMIT_MS = 20000;
    /** Longest a line-of-sight query or FOV render may take. */
    var LOS_LIMIT_MS = 20000;
    /** How long `sightline play --detach` (which starts the window and returns) may take. */
    var OPEN_LIMIT_MS = 15000;

    var api = {
        /** Every issue this extension posted: {severity, text, objectId, square, file, activate}. */
        posted: [],
        /** The last check: {file, ms, errors, warnings, exitCode} or {file, problem}. */
        lastCheck: null,
        /** The last line-of-sight report (the lines written to the Console), for tests. */
        lastLos: null,
        /** The last "open in Sightline": {program, args, started, said}, for tests. */
        lastOpen: null,
    };

    function windows() {
        return tiled.platform === "windows";
    }

    /** The `sightline` program: the installed path when it still exists, else the first on PATH. */
    function findProgram() {
        if (SIGHTLINE_PROGRAM && File.exists(SIGHTLINE_PROGRAM))
            return SIGHTLINE_PROGRAM;
        var probe = new Process();
        var path = probe.getEnv("PATH") || "";
        probe.close();
        var names = windows() ? ["sightline.exe"] : ["sightline"];
        var folders = path.split(windows() ? ";" : ":");
        for (var i = 0; i < folders.length; ++i) {
            if (!folders[i])
                continue;
            for (var j = 0; j < names.length; ++j) {
                var candidate = FileInfo.joinPaths(folders[i], names[j]);
                if (File.exists(candidate))
                    return candidate;
            }
        }
        return null;
    }

    /**
     * Why `program` must not be started on `platform` (a `tiled.platform` value), or null.
     * On Windows only a real program (.exe) is started: Windows runs a .cmd or .bat script
     * through cmd.exe, which reads the arguments again, so a map named `a&calc&.tmx` or holding
     * `%VAR%` could run a command.
     */
    function programProblem(platform, program) {
        if (platform === "windows" && !/\.exe$/i.test(program))
            return "Sightline: " + program + " is not a .exe program; Windows would run it through " +
                   "cmd.exe, which could run parts of a map's name as commands (install Sightline " +
                   "with pip, which makes sightline.exe, then run `sightline tiled install` again)";
        return null;
    }

    /**
     * How "open in Sightline" starts the window: `program play --detach FILE`, no shell on any
     * platform (QProcess hands each argument over as it is; `--detach` makes Sightline start
     * the window as a process of its own and return). {program, args} or {problem}.
     */
    function launchCommand(platform, program, fileName) {
        var problem = programProblem(platform, program);
        if (problem)
            return { problem: problem };
        return { program: program, args: ["play", "--detach", fileName] };
    }

    function missingText() {
        var where = SIGHTLINE_PROGRAM ? " (" + SIGHTLINE_PROGRAM + " is gone, and none is on PATH)"
                                      : " (none on PATH)";
        return "Sightline: cannot find the sightline program" + where +
               "; install Sightline, then run `sightline tiled install` again";
    }

    /**
     * Run `sightline ARGS` and wait at most limitMs. Never throws: the result says what happened,
     * {missing} | {failed} | {timeout} | {exitCode, stdout, stderr}, always with the time in ms.
     */
    function run(args, limitMs) {
        var program = findProgram();
        var started = Date.now();
        if (!program)
            return { missing: true, ms: 0 };
        var refused = programProblem(tiled.platform, program);
        if (refused)
            return { refused: refused, ms: 0 };
        var process = new Process();
        process.codec = "UTF-8";
        process.setEnv("PYGAME_HIDE_SUPPORT_PROMPT", "1");
        if (!process.start(program, args)) {
            process.close();
            return { failed: true, program: program, ms: Date.now() - started };
        }
        if (!process.waitForFinished(limitMs)) {
            process.kill();
            process.waitForFinished(1000);
            process.close();
            return { timeout: true, program: program, ms: Date.now() - started };
        }
        var result = {
            program: program,
            exitCode: process.exitCode,
            stdout: process.readStdOut(),
            stderr: process.readStdErr(),
            ms: Date.now() - started,
        };
        process.close();
        return result;
    }

    /** One sentence for a run that gave no output to read (missing, not started, too slow). */
    function runProblem(result, what) {
        if (result.missing)
            return missingText();
        if (result.refused)
            return result.refused;
        if (result.failed)
            return "Sightline: " + result.program + " could not be started for " + what +
                   " (is it executable? run `sightline tiled install` again)";
        if (result.timeout)
            return "Sightline: " + what + " took longer than " + Math.round(result.ms / 1000) +
                   " s and was stopped";
        return null;
    }

    function firstLine(text) {
        var lines = (text || "").split(/\r?\n/).filter(function (l) { return l.trim() !== ""; });
        return lines.length ? lines[0].trim() : "";
    }

    /** The open map with this file name, or null (the asset the issue was made for may be gone). */
    function openMap(fileName) {
        var assets = tiled.openAssets;
        for (var i = 0; i < assets.length; ++i)
            if (assets[i].isTileMap && assets[i].fileName === fileName)
                return assets[i];
        return null;
    }

    function eachLayer(container, visit) {
        for (var i = 0; i < container.layerCount; ++i) {
            var layer = container.layerAt(i);
            if (visit(layer))
                return layer;
            if (layer.isGroupLayer) {
                var found = eachLayer(layer, visit);
                if (found)
                    return found;
            }
        }
        return null;
    }

    function findObject(map, id) {
        var found = null;
        eachLayer(map, function (layer) {
            if (!layer.isObjectLayer)
                return false;
            var objects = layer.objects;
            for (var i = 0; i < objects.length; ++i) {
                if (objects[i].id === id) {
                    found = objects[i];
                    return true;
                }
            }
            return false;
        });
        return found;
    }

    function centreView(map, x, y) {
        try {
            if (tiled.activeAsset === map && tiled.mapEditor && tiled.mapEditor.currentMapView)
                tiled.mapEditor.currentMapView.centerOn(x, y);
        } catch (e) {
            // no view (headless, or another editor in front): selecting is what matters
        }
    }

    /** Activate an issue: bring its map to the front, select its object or its square. */
    function reveal(fileName, objectId, square) {
        var map = openMap(fileName) || tiled.open(fileName);
        if (!map || !map.isTileMap) {
            tiled.log("Sightline: " + fileName + " is not open any more");
            return;
        }
        tiled.activeAsset = map;
        if (objectId !== null && objectId !== undefined) {
            var object = findObject(map, objectId);
            if (object) {
                map.currentLayer = object.layer;
                map.selectedObjects = [object];
                centreView(map, object.x, object.y);
                return;
            }
            tiled.log("Sightline: object " + objectId + " is no longer in the map");
        }
        if (square) {
            var current = map.currentLayer;
            var tiles = current && current.isTileLayer ? current
                      : eachLayer(map, function (layer) { return layer.isTileLayer; });
            if (tiles)
                map.currentLayer = tiles;
            map.selectedArea.set(Qt.rect(square[0], square[1], 1, 1));
            centreView(map, (square[0] + 0.5) * map.tileWidth, (square[1] + 0.5) * map.tileHeight);
        }
    }

    /** Post one line to the Issues view (and remember it in api.posted). */
    function post(severity, text, fileName, objectId, square) {
        var activate = function () { reveal(fileName, objectId, square); };
        if (severity === "error")
            tiled.error(text, activate);
        else
            tiled.warn(text, activate);
        api.posted.push({ severity: severity, text: text, objectId: objectId, square: square,
                          file: fileName, activate: activate });
    }

    /** `Sightline: demo.tmx: object 12 (3,4): message (hint) [code]` */
    function issueText(fileName, finding) {
        var place = [];
        if (finding.object_id !== null && finding.object_id !== undefined)
            place.push("object " + finding.object_id);
        if (finding.square)
            place.push("(" + finding.square[0] + "," + finding.square[1] + ")");
        var where = FileInfo.fileName(fileName) + (place.length ? ": " + place.join(" ") : "");
        var hint = finding.hint ? " (" + finding.hint + ")" : "";
        return "Sightline: " + where + ": " + finding.message + hint + " [" + finding.code + "]";
    }

    /** Run `sightline check --json` on the saved file and post every finding. */
    function checkFile(fileName) {
        var name = FileInfo.fileName(fileName);
        var result = run(["check", "--json", fileName], CHECK_LIMIT_MS);
        var problem = runProblem(result, "checking " + name);
        var doc = null;
        if (!problem) {
            try {
                doc = JSON.parse(result.stdout);
            } catch (e) {
                var said = firstLine(result.stderr) || firstLine(result.stdout) || "no output";
                problem = "Sightline: checking " + name + " failed: " + said;
            }
        }
        var entry = doc && doc.maps && doc.maps.length ? doc.maps[0] : null;
        if (!problem && !entry)
            problem = "Sightline: checking " + name + " gave no result: " + (firstLine(result.stderr) || "no output");
        if (!problem && entry.error)
            problem = "Sightline: cannot read " + name + ": " + entry.error;
        if (problem) {
            post("error", problem, fileName, null, null);
            api.lastCheck = { file: fileName, problem: problem, ms: result.ms };
            return api.lastCheck;
        }
        entry.errors.forEach(function (f) {
            post("error", issueText(fileName, f), fileName, f.object_id, f.square);
        });
        entry.warnings.forEach(function (f) {
            post("warning", issueText(fileName, f), fileName, f.object_id, f.square);
        });
        api.lastCheck = { file: fileName, ms: result.ms, errors: entry.errors.length,
                          warnings: entry.warnings.length, exitCode: result.exitCode };
        tiled.log("Sightline: " + name + ": " + entry.errors.length + " error(s), " +
                  entry.warnings.length + " warning(s), checked in " + result.ms + " ms");
        return api.lastCheck;
    }

    function activeMap() {
        var asset = tiled.activeAsset;
        if (!asset || !asset.isTileMap) {
            tiled.log("Sightline: open a map first");
            return null;
        }
        if (!asset.fileName) {
            tiled.log("Sightline: save the map first (Sightline reads the file)");
            return null;
        }
        if (asset.modified)
            tiled.log("Sightline: the map has unsaved changes; Sightline reads the saved file");
        return asset;
    }

    /** The square an object stands on: its point, or its centre (tile objects hang from y). */
    function squareOf(map, object) {
        var cx = object.x, cy = object.y;
        if (object.shape !== MapObject.Point) {
            cx += object.width / 2;
            cy += object.tile ? -object.height / 2 : object.height / 2;
        }
        return [Math.floor(cx / map.tileWidth), Math.floor(cy / map.tileHeight)];
    }

    function fmt(square) {
        return square[0] + "," + square[1];
    }

    function label(object, square) {
        var name = object.name ? object.name + " (object " + object.id + ")" : "object " + object.id;
        return name + " on (" + fmt(square) + ")";
    }

    /** Line of sight from the first selected object to the others, or its field of view. */
    function losFromSelection() {
        var map = activeMap();
        if (!map)
            return;
        var selected = map.selectedObjects;
        var lines = [];
        var say = function (line) { lines.push(line); tiled.log(line); };
        if (!selected.length) {
            say("Sightline: select a figure (and, to test lines of sight, its targets) first");
            api.lastLos = lines;
            return;
        }
        var viewer = selected[0];
        var from = squareOf(map, viewer);
        var name = FileInfo.fileName(map.fileName);
        if (selected.length === 1) {
            var fov = run(["los", "--json", map.fileName, fmt(from)], LOS_LIMIT_MS);
            var problem = runProblem(fov, "line of sight");
            if (problem || fov.exitCode !== 0) {
                say(problem || "Sightline: " + (firstLine(fov.stderr) || "los failed"));
                api.lastLos = lines;
                return;
            }
            var visible = JSON.parse(fov.stdout).visible.length;
            say("Sightline: " + label(viewer, from) + " sees " + visible + " square(s) in " + name);
            var png = FileInfo.joinPaths(FileInfo.path(map.fileName),
                                         FileInfo.completeBaseName(map.fileName) + "-fov-" +
                                         from[0] + "-" + from[1] + ".png");
            var render = run(["render", map.fileName, "-o", png, "--from", fmt(from), "--fov"],
                             LOS_LIMIT_MS);
            var renderProblem = runProblem(render, "rendering the field of view");
            if (renderProblem || render.exitCode !== 0)
                say(renderProblem || "Sightline: " + (firstLine(render.stderr) || "render failed"));
            else
                say("Sightline: field of view drawn in " + png);
            api.lastLos = lines;
            return;
        }
        for (var i = 1; i < selected.length; ++i) {
            var to = squareOf(map, selected[i]);
            var result = run(["los", "--json", map.fileName, fmt(from), fmt(to)], LOS_LIMIT_MS);
            var bad = runProblem(result, "line of sight");
            if (bad || result.exitCode !== 0) {
                say(bad || "Sightline: " + (firstLine(result.stderr) || "los failed"));
                continue;
            }
            var verdict = JSON.parse(result.stdout);
            say("Sightline: " + label(viewer, from) + " -> " + label(selected[i], to) + ": " +
                verdict.explanation);
        }
        api.lastLos = lines;
    }

    /** Start `sightline play MAP` without waiting for it (it reloads the map on every save). */
    function openInSightline() {
        var map = activeMap();
        if (!map)
            return;
        var program = findProgram();
        if (!program) {
            post("error", missingText(), map.fileName, null, null);
            return;
        }
        var launch = launchCommand(tiled.platform, program, map.fileName);
        if (launch.problem) {
            post("error", launch.problem, map.fileName, null, null);
            return;
        }
        var process = new Process();
        process.codec = "UTF-8";
        process.setEnv("PYGAME_HIDE_SUPPORT_PROMPT", "1");
        var started = process.start(launch.program, launch.args);
        var finished = started && process.waitForFinished(OPEN_LIMIT_MS);
        var exitCode = finished ? process.exitCode : null;
        var said = finished && exitCode !== 0 ? firstLine(process.readStdErr()) || "no output" : "";
        process.close();
        var name = FileInfo.fileName(map.fileName);
        api.lastOpen = { program: launch.program, args: launch.args, started: started,
                         exitCode: exitCode, said: said };
        if (!started)
            tiled.log("Sightline: " + program + " could not be started");
        else if (said)
            post("error", "Sightline: opening " + name + " failed: " + said, map.fileName, null, null);
        else
            tiled.log("Sightline: opened " + name + " in Sightline (it reloads when you save)");
    }

    /** Tiled before 1.9 reads only `type=`; a map written by 1.9+ keeps its classes in `class=`. */
    function warnIfClassesWouldBeLost(asset) {
        if (!asset.isTileMap || !asset.fileName || !/^1\.[0-8]\./.test(tiled.version))
            return;
        var text = "";
        try {
            var file = new TextFile(asset.fileName, TextFile.ReadOnly);
            text = file.readAll();
            file.close();
        } catch (e) {
            return;
        }
        if (/<object\b[^>]*\sclass="[^"]/.test(text))
            post("warning", "Sightline: " + FileInfo.fileName(asset.fileName) +
                 " was written by Tiled 1.9 or later: its object classes are in class=\"...\", " +
                 "which Tiled " + tiled.version + " ignores, so saving here drops every wall, " +
                 "door and figure class (edit it in Tiled 1.9+, or rename class= to type= first)",
                 asset.fileName, null, null);
    }

    api.check = checkFile;
    api.losFromSelection = losFromSelection;
    api.openInSightline = openInSightline;
    api.launchCommand = launchCommand;
    api.findProgram = findProgram;
    api.reveal = reveal;

    var check = tiled.registerAction("SightlineCheck", function () {
        var map = activeMap();
        if (map)
            checkFile(map.fileName);
    });
    check.text = "Sightline: check map";
    var open = tiled.registerAction("SightlineOpen", openInSightline);
    open.text = "Sightline: open in Sightline";
    var los = tiled.registerAction("SightlineLos", losFromSelection);
    los.text = "Sightline: line of sight from selection";
    tiled.extendMenu("Map", [
        { separator: true },
        { action: "SightlineCheck" },
        { action: "SightlineOpen" },
        { action: "SightlineLos" },
    ]);

    tiled.assetSaved.connect(function (asset) {
        if (asset.isTileMap && asset.fileName)
            checkFile(asset.fileName);
    });
    tiled.assetOpened.connect(warnIfClassesWouldBeLost);

    return api;
})();
