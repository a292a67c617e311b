#!/usr/bin/python3
"""The browser benchmark behind web/bench.sh: prints the Markdown tables of docs/performance.md
(size, first frame and a move's frames beside the floor's; the opponent's thinking).
With `--browsers chromium,webkit`: the first frame and a move's frames in each browser side
by side, on the same build (WebKit: WebKitGTK's MiniBrowser on an Xvfb display of its own,
as tests/browser/webkit.py runs it); FLOOR_SITE `-` leaves the floor out there.
With `--a11y`: the first frame and a move's frames with the screen-reader layer on and off
(`?a11y=off`), and what its syncs cost (FLOOR_SITE is not used).

    web/bench.py APP_SITE FLOOR_SITE HOTSEAT_BINARY [--runs N] [--profile NAME] [--decisions N]
                 [--only first-frame] [--browsers chromium,webkit] [--a11y]
"""
import argparse
import gzip
import math
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "browser"))
from common import (ChromiumPhone, Mirror, Site, WebKitPhone, Xvfb, chromium, reveal_point,  # noqa: E402
                    webkit)


def browser(name, profile):
    """A fresh browser (`chromium` with the profile folder given, or `webkit`) and its Phone."""
    if name == "webkit":
        return webkit(), WebKitPhone
    return chromium(profile), ChromiumPhone


def sizes(site, name):
    wasm = open(os.path.join(site, name), "rb").read()
    return len(wasm), len(gzip.compress(wasm, 9))


def first_frame(site, work, i, name="chromium", query=""):
    """ms from navigation start to the first drawn frame, in a fresh browser profile.
    `query`: what the address adds (`?a11y=off`: the page without its screen-reader layer)."""
    s = Site(site)
    driver, _ = browser(name, os.path.join(work, f"profile-{name}-{os.path.basename(site)}-{i}{query}"))
    try:
        driver.get(s.url + query)
        deadline = time.time() + 120
        while time.time() < deadline:
            t = driver.execute_script(
                "const e = performance.getEntriesByName('hotseat-first-frame');"
                "return e.length ? e[0].startTime : null;")
            if t is not None:
                return t
            time.sleep(0.05)
        raise AssertionError(f"no first frame in {site}")
    finally:
        driver.quit()
        s.close()


# Slint draws inside winit's requestAnimationFrame callback: timing each callback times
# each frame (layout, drawing and the WebGL calls), for the app and the floor alike.
# Callbacks under 0.2 ms drew nothing.
# Also counted: the WebGL framebuffers made (FemtoVG makes one for each new texture it
# draws into: a layer, a shadow). Making one asks the GPU process whether it is complete,
# a synchronous call that waits for all the drawing queued before it; with SwiftShader
# that wait is most of a slow frame (docs/performance.md).
TIME_FRAMES = """
window.hotseatFrames = [];
window.hotseatStalls = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((t) => {
  const start = performance.now();
  try { cb(t); } finally {
    const ms = performance.now() - start;
    if (ms > 0.2 && window.hotseatFrames.length < 10000) window.hotseatFrames.push(ms);
  }
});
for (const C of [window.WebGL2RenderingContext, window.WebGLRenderingContext]) {
  if (!C) continue;
  const check = C.prototype.checkFramebufferStatus;
  C.prototype.checkFramebufferStatus = function (...a) {
    const start = performance.now();
    try { return check.apply(this, a); } finally {
      if (window.hotseatStalls.length < 10000) window.hotseatStalls.push(performance.now() - start);
    }
  };
}
"""


def frames(driver):
    got = driver.execute_script("const f = window.hotseatFrames || []; window.hotseatFrames = []; return f;")
    return [float(x) for x in got]


def stalls(driver):
    got = driver.execute_script("const f = window.hotseatStalls || []; window.hotseatStalls = []; return f;")
    return [float(x) for x in got]


# The screen-reader layer's own count of its syncs and their time (web/a11y/dom.rs).
SYNCED = """
const l = document.getElementById('a11y');
return l ? [Number(l.dataset.syncs || 0), Number(l.dataset.syncMs || 0)] : [0, 0];
"""


def a11y_cost(args, work):
    """The screen-reader layer on and off (`?a11y=off`), on the same build: the first
    frame (interleaved loads) and a move's frames; and the layer's syncs during the moves,
    which run in a timer task of their own, outside any frame."""
    med = statistics.median
    p95 = lambda xs: sorted(xs)[max(0, math.ceil(len(xs) * 0.95) - 1)]  # noqa: E731
    ff = {"on": [], "off": []}
    for i in range(args.runs):
        ff["on"].append(first_frame(args.app, work, i))
        ff["off"].append(first_frame(args.app, work, i, query="?a11y=off"))
    # The move sessions interleaved too, on then off, `--move-runs` times, their frames
    # pooled: one session each measured the machine's load of that minute as much as the
    # layer (two single sessions differed by 6 % between runs, on/off alike).
    layer, on, off, pairs = [0, 0.0], [], [], []
    for i in range(args.move_runs):
        synced = []
        got_on = move_frames(args.app, args.hotseat, work, layer=synced, run=i, same_game=True)[0]
        got_off = move_frames(args.app, args.hotseat, work, query="?a11y=off", run=i, same_game=True)[0]
        on += got_on
        off += got_off
        layer = [layer[0] + synced[0], layer[1] + synced[1]]
        pairs.append((med(got_on) / med(got_off), len(got_on), len(got_off)))
    print(f"The screen-reader layer on and off ({args.profile} profile; headless Chromium, 412x915, "
          f"SwiftShader WebGL; {args.runs} loads each, interleaved; load average {os.getloadavg()[0]:.1f}):\n")
    print("| figure | layer on | layer off (`?a11y=off`) | on / off |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| navigation → first frame, median (min–max) | {med(ff['on']):.0f} ms ({min(ff['on']):.0f}–{max(ff['on']):.0f}) "
          f"| {med(ff['off']):.0f} ms ({min(ff['off']):.0f}–{max(ff['off']):.0f}) | {med(ff['on']) / med(ff['off']):.3f}× |")
    print(f"| a frame during moves ({args.move_runs} sessions each of 12 IOTA passes and the app's replies), "
          f"median / p95 / max "
          f"| {med(on):.1f} / {p95(on):.1f} / {max(on):.1f} ms ({len(on)}) "
          f"| {med(off):.1f} / {p95(off):.1f} / {max(off):.1f} ms ({len(off)}) | {med(on) / med(off):.3f}× |")
    syncs, spent = layer
    print(f"\nDuring those moves ({args.move_runs} × 18 s) the layer synced {syncs:.0f} times, {spent:.1f} ms in all "
          f"({spent / max(syncs, 1):.2f} ms a sync), outside the frames.")
    print("\nEach move session's median frame, on / off (frames on/off): "
          + ", ".join(f"{r:.3f}× ({a}/{b})" for r, a, b in pairs))
    print("\nEach load, on / off (ms): " + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(ff["on"], ff["off"])))


# The same game in every session (--a11y): the app seeds a deal from the clock and draws
# the first seat and its own choices from the browser's random numbers; with both fixed,
# the layer on and off draw the same moves, and their frames differ by the layer alone
# (else each session's deal and replies weigh more than the layer: 0.99-1.29x apart).
SAME_GAME = """
Date.now = () => 1764720000000;
{
  let x = 0x9e3779b9;
  crypto.getRandomValues = (a) => {
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; b[i] = x & 255; }
    return a;
  };
}
"""


def move_frames(site, binary, work, name="chromium", query="", layer=None, run=0, same_game=False):
    """Frame times (ms) of moves in an IOTA game against the app: the person's pass, the
    app's placement, as drawn after each tap. `layer`, a list, gets the screen-reader
    layer's syncs during the moves and the time they took in all (web/a11y)."""
    s = Site(site, inject=(SAME_GAME if same_game else "") + TIME_FRAMES)
    # A fresh mirror and profile each session (`run`): no saved game to resume.
    mirror = Mirror(binary, os.path.join(work, f"data-{name}{query}-{run}"))
    driver, kind = browser(name, os.path.join(work, f"profile-moves{query}-{run}"))
    try:
        phone = kind(driver, mirror, work)
        driver.get(s.url + query)
        phone.wait_started()
        phone.tap("IOTA")
        phone.tap("Player 2: the app, medium")
        phone.tap("Start")
        phone.tap(", tap to reveal", prefix=True)
        time.sleep(1)
        frames(driver)
        stalls(driver)
        moves = []
        synced = SYNCED
        before = driver.execute_script(synced)
        for _ in range(12):
            phone.tap("Pass", mirror=False)
            time.sleep(1.5)
            moves += frames(driver)
        if layer is not None:
            after = driver.execute_script(synced)
            layer += [after[0] - before[0], after[1] - before[1]]
        return moves, stalls(driver)
    finally:
        driver.quit()
        mirror.close()
        s.close()




# While the app thinks: every animation frame's time (a frame the page did not get to
# shows as a gap between two), and when each touch reached the page.
WATCH_THINKING = """
window.hotseatTicks = [];
window.hotseatTouches = [];
window.hotseatDrawn = [];
const tick = (t) => { window.hotseatTicks.push(t); requestAnimationFrame(tick); };
requestAnimationFrame(tick);
window.addEventListener('pointerdown', (e) => window.hotseatTouches.push([e.timeStamp, performance.now()]), true);
const raf2 = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf2((t) => {
  const start = performance.now();
  try { cb(t); } finally {
    const end = performance.now();
    if (end - start > 0.2) window.hotseatDrawn.push([start, end]);
  }
});
"""

READ_THINKING = """
const m = (n) => performance.getEntriesByName(n).map((e) => [e.startTime, e.duration]);
const out = {thinking: m('hotseat-thinking'), slices: m('hotseat-slice'),
             ticks: window.hotseatTicks, touches: window.hotseatTouches, drawn: window.hotseatDrawn};
window.hotseatTicks = []; window.hotseatTouches = []; window.hotseatDrawn = [];
return out;
"""


def thinking(site, binary, work, decisions):
    """While the hard IOTA opponent (two players) thinks: the slices it thinks in (the
    page's `hotseat-slice` measures, src/platform/work.rs), the longest gap between two
    animation frames, and how soon a tap on the game's Back (‹, "Leave the game": the home
    screen comes) during the thinking is handled by the page (its pointerdown listener
    runs) and drawn (the end of the first frame drawn after that). The same tap with
    nothing thinking is the control. After each
    Back, Continue and the cover's reveal bring the game back."""
    s = Site(site)
    mirror = Mirror(binary, os.path.join(work, "data-thinking"))
    driver = chromium(os.path.join(work, "profile-thinking"))
    out = {"slices": [], "gaps": [], "answers": [], "idle": [], "decisions": [], "drawing": []}

    def answered(got, since, until=None):
        """(touch → the page handles it, touch → the frame showing it drawn), in ms."""
        for touch, handled in got["touches"]:
            if touch >= since and (until is None or touch <= until):
                drawn = [e for st, e in got["drawn"] if st >= handled]
                return (handled - touch, min(drawn) - touch) if drawn else None
        return None

    try:
        phone = ChromiumPhone(driver, mirror, work)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_THINKING})
        driver.get(s.url)
        phone.wait_started()
        phone.tap("IOTA")
        phone.tap("Player 2: the app, hard")
        phone.tap("Start")
        phone.tap(", tap to reveal", prefix=True)
        (bx, by), _ = mirror.find("Leave the game")
        # Where Continue is on the home screen (asked of the mirror, which then comes back).
        assert mirror.ask("press Leave the game") == ["ok"]
        (cx, cy), label = mirror.find("Continue", prefix=True)
        assert mirror.ask("press " + label) == ["ok"]
        phone.tap(", tap to reveal", prefix=True)

        def come_back():
            phone.tap_at(cx, cy)
            time.sleep(1.0)
            phone.tap_at(*reveal_point(driver))
            time.sleep(0.8)

        time.sleep(1)
        driver.execute_script(READ_THINKING)
        for i in range(decisions):
            if i % 2 == 0:
                # The control: Back with nothing thinking.
                since = driver.execute_script("return performance.now()")
                phone.tap_at(bx, by)
                time.sleep(0.6)
                got = driver.execute_script(READ_THINKING)
                a = answered(got, since)
                if a is not None:
                    out["idle"].append(a)
                come_back()
                driver.execute_script(READ_THINKING)
            (px, py), _ = mirror.find("Pass")
            phone.tap_at(px, py)
            # Every other decision, Back is tapped 30 ms into the thinking (among its slices).
            asked = False
            if i % 2 == 1:
                deadline = time.time() + 2
                while time.time() < deadline:
                    if driver.execute_script("return performance.getEntriesByName('hotseat-thinking', 'mark').length"):
                        time.sleep(0.03)
                        phone.tap_at(bx, by)
                        asked = True
                        break
                    time.sleep(0.005)
            deadline = time.time() + 10
            while time.time() < deadline and not driver.execute_script(
                    "return performance.getEntriesByName('hotseat-thinking', 'measure').length"):
                time.sleep(0.05)
            time.sleep(0.5)
            got = driver.execute_script(READ_THINKING)
            if asked:
                come_back()
                # Coming back, the app thinks its turn again; that decision is not counted.
                deadline = time.time() + 10
                while time.time() < deadline and not driver.execute_script(
                        "return performance.getEntriesByName('hotseat-thinking', 'measure').length"):
                    time.sleep(0.05)
                time.sleep(0.5)
                driver.execute_script(READ_THINKING)
            if not got["thinking"]:
                continue
            start, length = got["thinking"][0]
            end = start + length
            slices = [d for _, d in got["slices"]]
            out["slices"] += slices
            out["decisions"].append((length, len(slices)))
            # The frames from the start of the thinking to the first after its end.
            ticks = [t for t in got["ticks"] if start <= t <= end]
            ticks += [t for t in got["ticks"] if t > end][:1]
            gaps = [b - a for a, b in zip(ticks, ticks[1:])]
            if gaps:
                out["gaps"].append(max(gaps))
            if not asked:
                # What the page drew while it thought (nothing changes on screen then):
                # how many frames, and how long they took in all.
                drawn = [e - st for st, e in got["drawn"] if start <= st <= end]
                out["drawing"].append((len(drawn), sum(drawn), len(ticks)))
            if asked:
                a = answered(got, start, end)
                if a is not None:
                    out["answers"].append(a)
        return out
    finally:
        driver.quit()
        mirror.close()
        s.close()


def floor_frames(site, work, name="chromium"):
    """Frame times (ms) of the floor page: it draws its one Text and nothing more."""
    s = Site(site, inject=TIME_FRAMES)
    driver, _ = browser(name, os.path.join(work, f"profile-floor-frames-{name}"))
    try:
        driver.get(s.url)
        time.sleep(4)
        return frames(driver)
    finally:
        driver.quit()
        s.close()


def beside(args, work, names):
    """The first frame (app and floor) and a move's frames in each browser, side by side.
    FLOOR_SITE `-`: the app alone."""
    med = statistics.median
    p95 = lambda xs: sorted(xs)[max(0, math.ceil(len(xs) * 0.95) - 1)]  # noqa: E731
    sites = {"app": args.app} if args.floor == "-" else {"app": args.app, "floor": args.floor}
    ff = {(n, w): [] for n in names for w in sites}
    # Interleaved (app, floor, each browser in turn), so that the machine's other work
    # weighs on all alike.
    for i in range(args.runs):
        for n in names:
            for w, site in sites.items():
                ff[(n, w)].append(first_frame(site, work, i, n))
    moves = {n: move_frames(args.app, args.hotseat, work, n)[0] for n in names}
    floor = {n: floor_frames(args.floor, work, n) for n in names} if "floor" in sites else {}
    title = {"chromium": "Chromium (headless, SwiftShader WebGL)",
             "webkit": "WebKit (WebKitGTK MiniBrowser, Xvfb, Mesa llvmpipe WebGL)"}
    print(f"The same {args.profile} build in each browser, page 412x915; {args.runs} loads each, "
          f"interleaved, fresh session each time; load average {os.getloadavg()[0]:.1f} at the end:\n")
    print("| figure | " + " | ".join(title.get(n, n) for n in names) + " |")
    print("| --- |" + " ---: |" * len(names))

    def spread(xs):
        return f"{med(xs):.0f} ms ({min(xs):.0f}–{max(xs):.0f})"

    print("| navigation → first frame, app, median (min–max) | "
          + " | ".join(spread(ff[(n, "app")]) for n in names) + " |")
    if floor:
        print("| navigation → first frame, floor (one Text) | "
              + " | ".join(spread(ff[(n, "floor")]) for n in names) + " |")
        print("| app / floor | " + " | ".join(f"{med(ff[(n, 'app')]) / med(ff[(n, 'floor')]):.2f}×" for n in names) + " |")

    def frames_cell(xs):
        return f"{med(xs):.1f} / {p95(xs):.1f} / {max(xs):.1f} ms ({len(xs)} frames)" if xs else "none timed"

    print("| a frame during moves (12 IOTA passes and the app's replies), median / p95 / max | "
          + " | ".join(frames_cell(moves[n]) for n in names) + " |")
    if floor:
        print("| a frame of the floor, median / p95 / max | " + " | ".join(frames_cell(floor[n]) for n in names) + " |")
    print("\nEach load (ms): " + "; ".join(
        f"{n} {w}: " + ", ".join(f"{t:.0f}" for t in ff[(n, w)]) for n in names for w in sites))


def main():
    a = argparse.ArgumentParser()
    a.add_argument("app")
    a.add_argument("floor")
    a.add_argument("hotseat")
    a.add_argument("--runs", type=int, default=5)
    a.add_argument("--profile", default="web")
    a.add_argument("--decisions", type=int, default=12)
    # The sizes and the first frame only (a few minutes less; HOTSEAT_BINARY is not used).
    a.add_argument("--only", choices=["first-frame"])
    a.add_argument("--move-runs", type=int, default=3,
                   help="with --a11y: move sessions with the layer on and off, interleaved")
    a.add_argument("--a11y", action="store_true",
                   help="the screen-reader layer on and off: first frame and a move's frames")
    a.add_argument("--browsers", default="chromium",
                   help="chromium,webkit: the first frame and a move's frames in each, side by side")
    args = a.parse_args()
    work = tempfile.mkdtemp(prefix="hotseat-bench-")
    names = args.browsers.split(",")
    if args.a11y:
        return a11y_cost(args, work)
    if names != ["chromium"]:
        display = Xvfb() if "webkit" in names else None
        try:
            return beside(args, work, names)
        finally:
            if display:
                display.close()
    app_size = sizes(args.app, "hotseat_web_bg.wasm")
    floor_size = sizes(args.floor, "hotseat_web_floor_bg.wasm")
    # Interleaved, so that the machine's other work weighs on both alike.
    app_ff, floor_ff = [], []
    for i in range(args.runs):
        app_ff.append(first_frame(args.app, work, i))
        floor_ff.append(first_frame(args.floor, work, i))
    med = statistics.median
    if args.only == "first-frame":
        print(f"Browser figures ({args.profile} profile; headless Chromium, 412x915, SwiftShader "
              f"WebGL; {args.runs} loads each, interleaved, fresh profile each time; load average "
              f"{os.getloadavg()[0]:.1f} at the end):\n")
        print("| figure | Hotseat | floor (one Text) | ratio |")
        print("| --- | ---: | ---: | ---: |")
        print(f"| wasm size | {app_size[0]:,} B | {floor_size[0]:,} B | {app_size[0] / floor_size[0]:.2f}× |")
        print(f"| navigation → first frame, median (min–max) | {med(app_ff):.0f} ms ({min(app_ff):.0f}–{max(app_ff):.0f}) "
              f"| {med(floor_ff):.0f} ms ({min(floor_ff):.0f}–{max(floor_ff):.0f}) | {med(app_ff) / med(floor_ff):.2f}× |")
        print("\nEach load, app / floor (ms): " + ", ".join(f"{a:.0f}/{f:.0f}" for a, f in zip(app_ff, floor_ff)))
        return
    moves, made = move_frames(args.app, args.hotseat, work)
    floor = floor_frames(args.floor, work)
    think = thinking(args.app, args.hotseat, work, args.decisions)
    p95 = lambda xs: sorted(xs)[max(0, math.ceil(len(xs) * 0.95) - 1)]  # noqa: E731
    print(f"Browser figures ({args.profile} profile; headless Chromium, 412x915, SwiftShader "
          f"WebGL; {args.runs} loads each, fresh profile each time):\n")
    print("| figure | Hotseat | floor (one Text) | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| wasm size | {app_size[0]:,} B | {floor_size[0]:,} B | {app_size[0] / floor_size[0]:.2f}× |")
    print(f"| wasm gzipped (-9) | {app_size[1]:,} B | {floor_size[1]:,} B | {app_size[1] / floor_size[1]:.2f}× |")
    print(f"| navigation → first frame, median (min–max) | {med(app_ff):.0f} ms ({min(app_ff):.0f}–{max(app_ff):.0f}) "
          f"| {med(floor_ff):.0f} ms ({min(floor_ff):.0f}–{max(floor_ff):.0f}) | {med(app_ff) / med(floor_ff):.2f}× |")
    if moves and floor:
        print(f"| a frame: the app's during moves (IOTA passes and the app's replies) / the floor's, "
              f"median / p95 / max | {med(moves):.1f} / {p95(moves):.1f} / {max(moves):.1f} ms ({len(moves)} frames) "
              f"| {med(floor):.1f} / {p95(floor):.1f} / {max(floor):.1f} ms ({len(floor)} frames) | {med(moves) / med(floor):.2f}× |")
    else:
        print(f"no frames timed (app {len(moves)}, floor {len(floor)})")
    print(f"\nDuring the moves: {len(made)} WebGL framebuffers made, waiting {sum(made):.0f} ms in all "
          f"(longest {max(made, default=0):.0f} ms).")
    sl, gaps, answers, idle = think["slices"], think["gaps"], think["answers"], think["idle"]
    print(f"\nWhile the hard IOTA opponent thinks (2 players, {len(think['decisions'])} decisions, "
          f"{len(sl)} slices):\n")
    print("| figure | median | p95 | max |")
    print("| --- | ---: | ---: | ---: |")
    if sl:
        print(f"| a slice (a main-thread task of the opponent's) | {med(sl):.1f} ms | {p95(sl):.1f} ms | {max(sl):.1f} ms |")
    dec = [d for d, _ in think["decisions"]]
    if dec:
        print(f"| a decision, wall time | {med(dec):.0f} ms | {p95(dec):.0f} ms | {max(dec):.0f} ms |")
    if gaps:
        print(f"| the longest gap between two animation frames, per decision | {med(gaps):.1f} ms | {p95(gaps):.1f} ms | {max(gaps):.1f} ms |")
    for taps, what in ((answers, "a tap on Back while it thinks"), (idle, "the same tap with nothing thinking")):
        if taps:
            handled, drawn = [h for h, _ in taps], [d for _, d in taps]
            print(f"| {what} ({len(taps)} taps): touch → the page handles it "
                  f"| {med(handled):.1f} ms | {p95(handled):.1f} ms | {max(handled):.1f} ms |")
            print(f"| … touch → the frame that shows it drawn "
                  f"| {med(drawn):.1f} ms | {p95(drawn):.1f} ms | {max(drawn):.1f} ms |")


if __name__ == "__main__":
    sys.exit(main())
