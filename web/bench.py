#!/usr/bin/python3
"""The browser benchmark behind web/bench.sh: prints the Markdown table of docs/performance.md.

    web/bench.py APP_SITE FLOOR_SITE HOTSEAT_BINARY [--runs N] [--profile NAME]
"""
import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "browser"))
from play import Mirror, Phone, Site, chromium  # noqa: E402


def sizes(site, name):
    wasm = open(os.path.join(site, name), "rb").read()
    return len(wasm), len(gzip.compress(wasm, 9))


def first_frame(site, work, i):
    """ms from navigation start to the first drawn frame, in a fresh browser profile."""
    s = Site(site)
    driver = chromium(os.path.join(work, f"profile-{os.path.basename(site)}-{i}"))
    try:
        driver.get(s.url)
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
TIME_FRAMES = """
window.hotseatFrames = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((t) => {
  const start = performance.now();
  try { cb(t); } finally {
    const ms = performance.now() - start;
    if (ms > 0.2 && window.hotseatFrames.length < 10000) window.hotseatFrames.push(ms);
  }
});
"""


def frames(driver):
    got = driver.execute_script("const f = window.hotseatFrames || []; window.hotseatFrames = []; return f;")
    return [float(x) for x in got]


def move_frames(site, binary, work):
    """Frame times (ms) of moves in an IOTA game against the app: the person's pass, the
    app's placement, as drawn after each tap."""
    s = Site(site)
    mirror = Mirror(binary, os.path.join(work, "data"))
    driver = chromium(os.path.join(work, "profile-moves"))
    try:
        phone = Phone(driver, mirror, work)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIME_FRAMES})
        driver.get(s.url)
        phone.wait_started()
        phone.tap("IOTA")
        phone.tap("Player 2: the app, medium")
        phone.tap("Start")
        phone.tap(", tap to reveal", prefix=True)
        time.sleep(1)
        frames(driver)
        moves = []
        for _ in range(12):
            phone.tap("Pass", mirror=False)
            time.sleep(1.5)
            moves += frames(driver)
        return moves
    finally:
        driver.quit()
        mirror.close()
        s.close()




def floor_frames(site, work):
    """Frame times (ms) of the floor page: it draws its one Text and nothing more."""
    s = Site(site)
    driver = chromium(os.path.join(work, "profile-floor-frames"))
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIME_FRAMES})
        driver.get(s.url)
        time.sleep(4)
        return frames(driver)
    finally:
        driver.quit()
        s.close()


def main():
    a = argparse.ArgumentParser()
    a.add_argument("app")
    a.add_argument("floor")
    a.add_argument("hotseat")
    a.add_argument("--runs", type=int, default=5)
    a.add_argument("--profile", default="web")
    args = a.parse_args()
    work = tempfile.mkdtemp(prefix="hotseat-bench-")
    app_size = sizes(args.app, "hotseat_web_bg.wasm")
    floor_size = sizes(args.floor, "hotseat_web_floor_bg.wasm")
    # Interleaved, so that the machine's other work weighs on both alike.
    app_ff, floor_ff = [], []
    for i in range(args.runs):
        app_ff.append(first_frame(args.app, work, i))
        floor_ff.append(first_frame(args.floor, work, i))
    moves = move_frames(args.app, args.hotseat, work)
    floor = floor_frames(args.floor, work)
    med = statistics.median
    p95 = lambda xs: sorted(xs)[max(0, int(len(xs) * 0.95) - 1)]  # noqa: E731
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


if __name__ == "__main__":
    sys.exit(main())
