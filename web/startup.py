#!/usr/bin/python3
"""Where the time to the first frame goes (docs/web-first-frame.md): loads each site in turn
(interleaved, a fresh browser profile each time) in the same headless Chromium as
web/bench.py and prints the median of each phase of the start, from the page's own
timeline: the Resource Timing of the glue and the module, marks the page gets around
WebAssembly's instantiation, and the User Timing marks the app and the floor set
(`hs-start` when their Rust starts, `hs-run` when the event loop is started,
`hs-before-render` and `hotseat-first-frame` around the first frame; the app's
`hs-build`…`hs-mobile` inside `ui::start_app`).

    web/startup.py SITE [SITE…] [--runs N] [--cpu-profile PREFIX]

--cpu-profile writes a DevTools CPU profile of each load (PREFIX-<site>-<load>.cpuprofile,
for Chromium's DevTools or `speedscope`); build the site without wasm-bindgen's
`--remove-name-section` to see Rust's function names in it.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "browser"))
from common import Site, chromium  # noqa: E402

# Marks around the module's compilation and instantiation, whichever call the glue makes.
HOOK = r"""
(() => {
  const W = WebAssembly;
  for (const name of ["instantiateStreaming", "instantiate", "compileStreaming", "compile"]) {
    const f = W[name];
    if (!f) continue;
    W[name] = function (...a) {
      performance.mark("wasm-" + name + "-begin");
      return f.apply(this, a).then((r) => { performance.mark("wasm-" + name + "-end"); return r; });
    };
  }
})();
"""

# Everything in ms since navigation, read once the first frame is drawn.
READ = """
const o = {};
const nav = performance.getEntriesByType('navigation')[0];
o['html'] = nav.responseEnd;
for (const r of performance.getEntriesByType('resource')) {
  const n = r.name.split('/').pop();
  if (n.endsWith('.js')) { o['js-start'] = r.startTime; o['js-end'] = r.responseEnd; }
  if (n.endsWith('.wasm')) { o['wasm-start'] = r.startTime; o['wasm-end'] = r.responseEnd; }
}
for (const m of performance.getEntriesByType('mark')) { if (!(m.name in o)) o[m.name] = m.startTime; }
return o;
"""

# (phase, from, to): a phase's length in each load is `to` − `from` (`from` None: navigation).
PHASES = [
    ("navigation → glue (JS) loaded", None, "js-end"),
    ("glue loaded → module requested", "js-end", "wasm-start"),
    ("module download", "wasm-start", "wasm-end"),
    ("instantiateStreaming (compiles while it downloads)", "wasm-instantiateStreaming-begin",
     "wasm-instantiateStreaming-end"),
    ("instantiated → Rust's start", "wasm-instantiateStreaming-end", "hs-start"),
    ("Rust's start → event loop (app: `ui::start_app`)", "hs-start", "hs-run"),
    ("… `AppWindow::new`", "hs-build", "hs-window-made"),
    ("… settings, setup, rules, Continue, wiring", "hs-window-made", "hs-mobile"),
    ("event loop → first frame begins (GL context, shaders, layout)", "hs-run", "hs-before-render"),
    ("first frame drawn", "hs-before-render", "hotseat-first-frame"),
    ("instantiated → first frame", "wasm-instantiateStreaming-end", "hotseat-first-frame"),
    ("navigation → first frame", None, "hotseat-first-frame"),
]


def load(site, work, tag, profile=None):
    s = Site(site)
    driver = chromium(os.path.join(work, f"profile-{tag}"))
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        if profile:
            # Profiling starts on a page of the same origin, so that the navigation stays in
            # the same renderer process and the profile sees the whole load.
            driver.get(s.url + "no-such-page")
            driver.execute_cdp_cmd("Profiler.enable", {})
            driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
            driver.execute_cdp_cmd("Profiler.start", {})
        driver.get(s.url)
        deadline = time.time() + 120
        while time.time() < deadline:
            if driver.execute_script("return performance.getEntriesByName('hotseat-first-frame').length > 0"):
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"no first frame in {site}")
        if profile:
            with open(profile, "w") as f:
                json.dump(driver.execute_cdp_cmd("Profiler.stop", {})["profile"], f)
        return driver.execute_script(READ)
    finally:
        driver.quit()
        s.close()


def main():
    a = argparse.ArgumentParser()
    a.add_argument("sites", nargs="+")
    a.add_argument("--runs", type=int, default=9)
    a.add_argument("--cpu-profile")
    a.add_argument("--save", help="write every load's timeline (JSON) here")
    args = a.parse_args()
    work = tempfile.mkdtemp(prefix="hotseat-startup-")
    loads = {s: [] for s in args.sites}
    for i in range(args.runs):
        for j, s in enumerate(args.sites):
            prof = f"{args.cpu_profile}-{j}-{i}.cpuprofile" if args.cpu_profile else None
            loads[s].append(load(s, work, f"{j}-{i}", prof))
    if args.save:
        with open(args.save, "w") as f:
            json.dump(loads, f, indent=1)
    print(f"Medians in ms ({args.runs} loads of each, interleaved; load average "
          f"{os.getloadavg()[0]:.1f} at the end)\n")
    print("| phase | " + " | ".join(args.sites) + " |")
    print("| --- |" + " ---: |" * len(args.sites))
    for name, begin, end in PHASES:
        cells = []
        for s in args.sites:
            v = [r[end] - (r[begin] if begin else 0) for r in loads[s] if end in r and (begin is None or begin in r)]
            cells.append(f"{statistics.median(v):.0f}" if v else "—")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nnavigation → first frame, each load: " + "; ".join(
        f"{s}: " + ", ".join(f"{r['hotseat-first-frame']:.0f}" for r in loads[s]) for s in args.sites))


if __name__ == "__main__":
    sys.exit(main())
