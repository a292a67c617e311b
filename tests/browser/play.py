#!/usr/bin/python3
"""Hotseat in a real browser: headless Chromium as a 412x915 touch phone, driven by taps.

The page is the browser build (web/build.sh) served on loopback. The canvas has no element
tree, so `hotseat mirror` (the same screens in the native software renderer) says where
each control is; the test taps that point in Chromium (DevTools `Input.dispatchTouchEvent`)
and presses the same control in the mirror, so both stay on the same screen. It checks:
the page loads with no console error; the home screen looks like the native one; a tap
starts a game and the cover comes up; a reload shows Continue; a whole IOTA game against
the app is played to its end by taps, and lands in the history; a damaged save in the
browser's storage is kept aside with a notice; with the server gone, the page starts
from the service worker's copy.

    tests/browser/play.py SITE_DIR HOTSEAT_BINARY [--shots DIR]
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

from PIL import Image, ImageChops
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

WIDTH, HEIGHT = 412, 915


def log(*words):
    print("browser:", *words, flush=True)


class Mirror:
    """`hotseat mirror`: where a control is, and the same press on the native side."""

    def __init__(self, binary, data, size=(WIDTH, HEIGHT)):
        env = dict(os.environ, HOTSEAT_DATA_DIR=data)
        self.proc = subprocess.Popen(
            [binary, "mirror", "--size", f"{size[0]}x{size[1]}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = []
        while True:
            got = self.proc.stdout.readline()
            if got == "":
                raise RuntimeError(f"the mirror ended at '{line}'")
            got = got.rstrip("\n")
            if got == ".":
                return out
            out.append(got)

    def find(self, label, prefix=False):
        answer = self.ask(("find-part " if prefix else "find ") + label)
        if answer[0] == "none":
            raise AssertionError(f"no '{label}' on the mirror's screen; it shows:\n" +
                                 "\n".join(self.ask("labels")))
        x, y, w, h = map(float, answer[0].split())
        return (x + w / 2, y + h / 2), (answer[1] if prefix else label)

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait(timeout=10)


class Site:
    """The built site on 127.0.0.1, on a port of its own."""

    def __init__(self, root):
        handler = functools.partial(Quiet, directory=root)
        self.server = socketserver.TCPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".webmanifest": "application/manifest+json"}

    def log_message(self, *args):
        pass


def chromium(profile, size=(WIDTH, HEIGHT), touch=True):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--use-angle=swiftshader",
                 "--enable-unsafe-swiftshader", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    opts.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 1.0, "touch": touch},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                     "(KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


class Phone:
    def __init__(self, driver, mirror, shots):
        self.d, self.mirror, self.shots = driver, mirror, shots

    def tap_at(self, x, y):
        point = [{"x": x, "y": y, "id": 1}]
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
        time.sleep(0.05)
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def tap(self, label, prefix=False, mirror=True):
        """Taps the control reading `label` in the browser, and presses it in the mirror."""
        (x, y), label = self.mirror.find(label, prefix)
        log(f"tap '{label}' at {x:.0f},{y:.0f}")
        self.tap_at(x, y)
        if mirror:
            assert self.mirror.ask("press " + label) == ["ok"], label
        time.sleep(0.4)
        return label

    def storage(self, name):
        return self.d.execute_script(f"return localStorage.getItem('hotseat/{name}')")

    def keys(self):
        return self.d.execute_script("return Object.keys(localStorage)")

    def wait_started(self):
        deadline = time.time() + 120
        while time.time() < deadline:
            state = self.d.execute_script(
                "const s = document.getElementById('status');"
                "return [s.hidden, document.getElementById('status-text').textContent];")
            if state[0]:
                time.sleep(1.5)  # the first frames
                return
            if "could not" in state[1] or "no WebGL" in state[1]:
                raise AssertionError("the page says: " + state[1])
            time.sleep(0.2)
        raise AssertionError("the app did not start within 120 s")

    def errors(self):
        return [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"]

    def looks_like_mirror(self, name, at_least):
        """The browser's picture against the mirror's of the same screen: the share of
        pixels that differ by no more than 40 levels in any channel."""
        browser = os.path.join(self.shots, f"{name}-browser.png")
        native = os.path.join(self.shots, f"{name}-native.png")
        self.d.save_screenshot(browser)
        assert self.mirror.ask("shot " + native) == ["ok"]
        a = Image.open(browser).convert("RGB").resize((WIDTH, HEIGHT))
        b = Image.open(native).convert("RGB")
        diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
        same = 1 - sum(1 for v in diff.getdata() if v) / (WIDTH * HEIGHT)
        log(f"{name}: {same:.1%} of pixels as the native renderer draws them")
        assert same >= at_least, f"{name} differs from the native picture ({same:.1%})"


def main():
    args = argparse.ArgumentParser()
    args.add_argument("site")
    args.add_argument("hotseat")
    args.add_argument("--shots", default=None)
    a = args.parse_args()
    work = tempfile.mkdtemp(prefix="hotseat-browser-")
    shots = a.shots or os.path.join(work, "shots")
    os.makedirs(shots, exist_ok=True)
    data = os.path.join(work, "data")
    os.makedirs(data, exist_ok=True)
    site, mirror, driver = Site(a.site), Mirror(a.hotseat, data), None
    try:
        driver = chromium(os.path.join(work, "profile"))
        phone = Phone(driver, mirror, shots)
        started = time.time()
        driver.get(site.url)
        phone.wait_started()
        log(f"the home screen is up {time.time() - started:.1f} s after navigation")
        assert not phone.errors(), f"console errors: {phone.errors()}"
        phone.looks_like_mirror("home", 0.90)

        # A game against the app: IOTA, two seats, the second played by the app.
        phone.tap("IOTA")
        phone.tap("Player 2: the app, medium")
        phone.looks_like_mirror("setup", 0.90)
        phone.tap("Start")
        (x, y), cover = mirror.find(", tap to reveal", prefix=True)
        log("the cover reads:", cover)
        assert phone.storage("current-game.json"), "the new game is not saved in the browser"
        phone.looks_like_mirror("cover", 0.85)

        # Closing the tab and coming back: Continue, behind the cover.
        driver.refresh()
        phone.wait_started()
        assert mirror.ask("restart") == ["ok"]
        phone.tap("Continue", prefix=True)
        phone.looks_like_mirror("continue-cover", 0.85)
        phone.tap(", tap to reveal", prefix=True)

        # The person passes whenever it is their turn; the app plays its cards. IOTA ends
        # when the pile runs out (docs/rules.md §2), and the game goes to the history.
        taps, deadline = 0, time.time() + 300
        while not phone.storage("history.json"):
            assert time.time() < deadline, "the game did not end within 5 minutes"
            assert taps < 400, "the game did not end within 400 passes"
            phone.tap("Pass", mirror=False)
            taps += 1
            time.sleep(0.6)
        history = json.loads(phone.storage("history.json"))
        assert len(history) == 1, history
        log(f"the game ended after {taps} taps on Pass: {json.dumps(history[0])[:300]}")
        assert not phone.storage("current-game.json"), "the finished game is still saved"
        driver.save_screenshot(os.path.join(shots, "end-browser.png"))
        assert not phone.errors(), f"console errors: {phone.errors()}"

        # A damaged save (cut short, or left by something else): the same notice as on the
        # desktop, and the entry kept aside under another name, never dropped.
        broken = '{"version": 1, "game": "iota", "act'
        driver.execute_script("localStorage.setItem('hotseat/current-game.json', arguments[0])", broken)
        # The mirror's folder as the browser's storage is now: no save but the broken one.
        for name in os.listdir(data):
            if name.startswith("current-game"):
                os.remove(os.path.join(data, name))
        with open(os.path.join(data, "current-game.json"), "w") as f:
            f.write(broken)
        driver.refresh()
        phone.wait_started()
        assert mirror.ask("restart") == ["ok"]
        phone.tap("Continue", prefix=True)
        kept = [k for k in phone.keys() if k.startswith("hotseat/current-game.broken-")]
        assert len(kept) == 1, f"the damaged save is not kept aside: {phone.keys()}"
        assert driver.execute_script("return localStorage.getItem(arguments[0])", kept[0]) == broken
        assert not phone.storage("current-game.json")
        (_, _), notice = mirror.find("This saved game could not be read", prefix=True)
        log("the notice:", notice)
        # The notice names where the entry went, which differs from the mirror's folder:
        # the picture is kept for a look, the storage above is the check.
        driver.save_screenshot(os.path.join(shots, "damaged-browser.png"))

        # Offline: the service worker keeps the whole site; with the server gone the app
        # still starts (a café without Wi-Fi).
        caches = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.ready.then(() => caches.keys()).then(done, (e) => done(String(e)));")
        log("service worker caches:", caches)
        assert any(c.startswith("hotseat-") for c in caches), caches
        site.close()
        driver.refresh()
        phone.wait_started()
        assert mirror.ask("restart") == ["ok"]
        phone.looks_like_mirror("offline-home", 0.85)
        assert not phone.errors(), f"console errors: {phone.errors()}"
        log("passed")
    finally:
        if driver:
            driver.quit()
        mirror.close()
        try:
            site.close()
        except OSError:
            pass
        if not a.shots:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
