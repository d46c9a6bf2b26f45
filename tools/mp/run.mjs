// Runs firmware tests under real MicroPython (the WebAssembly port) and exits non-zero on failure.
// Usage: node tools/mp/run.mjs <lib dir> <data dir> <test.py>...
// The lib dir is copied to /lib (on MicroPython's sys.path), the data dir to /data. Each test file's
// test_* functions run in order; the last line printed is "N passed, M failed".
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const [libDir, dataDir, ...tests] = process.argv.slice(2);
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(from, to) {
  mp.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = to + "/" + entry.name;
    if (entry.isDirectory()) copyTree(src, dst);
    else if (entry.name.endsWith(".py") || entry.name.endsWith(".json") || entry.name.endsWith(".jsonl"))
      mp.FS.writeFile(dst, fs.readFileSync(src));
  }
}
copyTree(libDir, "/lib");
if (dataDir && fs.existsSync(dataDir)) copyTree(dataDir, "/data");
mp.FS.mkdirTree("/tmp");

let failed = 0;
let passed = 0;
for (const test of tests) {
  const source = fs.readFileSync(test, "utf8");
  const runner = `
_passed = 0
_failed = 0
for _name in sorted(k for k in list(globals()) if k.startswith("test_")):
    try:
        globals()[_name]()
        _passed += 1
    except Exception as _exc:
        import sys
        print("FAILED", "${path.basename(test)}", _name)
        sys.print_exception(_exc)
        _failed += 1
`;
  try {
    mp.runPython(source + "\n" + runner);
    passed += mp.globals.get("_passed");
    failed += mp.globals.get("_failed");
    if (mp.globals.get("heap_setup") !== undefined) {
      // Heap budget: steps driven from here, collecting between them like a device's main loop.
      mp.runPython("import gc");
      mp.runPython("heap_setup()");
      mp.runPython("gc.collect()");
      mp.runPython("_base = gc.mem_alloc()");
      let live = 0, peak = 0, steps = 0;
      for (;;) {
        mp.runPython(`_more = heap_step(${steps})`);
        if (!mp.globals.get("_more")) break;
        steps += 1;
        mp.runPython("_used = gc.mem_alloc() - _base");
        peak = Math.max(peak, mp.globals.get("_used"));
        mp.runPython("gc.collect(); _used = gc.mem_alloc() - _base");
        live = Math.max(live, mp.globals.get("_used"));
      }
      mp.runPython(`heap_report(${live}, ${peak}, ${steps})`);
      passed += 1;
    }
  } catch (error) {
    console.error(`ERROR ${test}: ${error.type || ""} ${error.message || error}`);
    failed += 1;
  }
}
console.log(`micropython: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
