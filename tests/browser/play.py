#!/usr/bin/python3
"""Hotseat in a real browser: headless Chromium as a 412x915 touch phone, driven by taps.

The page is the browser build (web/build.sh) served on loopback. The canvas has no element
tree, so `hotseat mirror` (the same screens in the native software renderer) says where
each control is; the test taps that point in Chromium (DevTools `Input.dispatchTouchEvent`)
and presses the same control in the mirror, so both stay on the same screen. It checks:
the page loads with no console error; the home screen looks like the native one; a tap
starts a game and the cover comes up; a reload shows Continue; a whole IOTA game against
the app is played to its end by taps, and lands in the history; a damaged save in the
browser's storage is kept aside with a notice; two fingers at once in face-to-face Omiga
(one DevTools touch event with two points) each select a card in their own player's hand;
in the page opened with `?kiosk`, a short tap on the staff corner does nothing and a long
press opens the PIN pad; with the server gone, the page starts from the service worker's
copy.

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
    # The server has one thread: a connection Chromium opens and leaves idle would hold it
    # (and `Site.close`, for minutes) without a bound on each read.
    timeout = 5
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

    def touch(self, kind, fingers):
        """One DevTools touch event, `fingers` {id: (x, y)}: touchStart puts them down
        (those not down yet), touchEnd lifts them (with none: every finger still down)."""
        points = [{"x": x, "y": y, "id": i} for i, (x, y) in fingers.items()]
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def tap_at(self, x, y, hold=0.05):
        self.touch("touchStart", {1: (x, y)})
        time.sleep(hold)
        self.touch("touchEnd", {})

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

    def picture(self, name):
        """The browser's picture now, at the page's size (also kept as NAME-browser.png)."""
        path = os.path.join(self.shots, f"{name}-browser.png")
        self.d.save_screenshot(path)
        return Image.open(path).convert("RGB").resize((WIDTH, HEIGHT))

    def native(self, name):
        """The mirror's picture of its screen now (kept as NAME-native.png)."""
        path = os.path.join(self.shots, f"{name}-native.png")
        assert self.mirror.ask("shot " + path) == ["ok"]
        return Image.open(path).convert("RGB")

    def looks_like_mirror(self, name, at_least):
        """The browser's picture against the mirror's of the same screen: the share of
        pixels that differ by no more than 40 levels in any channel."""
        same = alike(self.picture(name), self.native(name))
        log(f"{name}: {same:.1%} of pixels as the native renderer draws them")
        assert same >= at_least, f"{name} differs from the native picture ({same:.1%})"
        return same


def alike(a, b, box=None):
    """The share of pixels of two pictures (or of the box (x, y, w, h) in both) that
    differ by no more than 40 levels in any channel."""
    if box:
        x, y, w, h = (round(v) for v in box)
        a, b = a.crop((x, y, x + w, y + h)), b.crop((x, y, x + w, y + h))
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return 1 - sum(1 for v in diff.getdata() if v) / (a.width * a.height)


# Every pointer event the page receives, in order (the browser's side of a touch).
LOG_POINTERS = """
window.hotseatPointers = [];
for (const kind of ["pointerdown", "pointerup", "pointercancel"])
  window.addEventListener(kind, (e) => window.hotseatPointers.push([kind, e.pointerId]), true);
"""


def face_to_face(phone, mirror, driver, url, data):
    """Omiga face to face: White (bottom) and Black (top, turned towards its player) tap
    their own hands with two fingers at once. Taps are judged by what the browser draws: a
    selected card is lifted and outlined, so its place on the screen changes, and the other
    cards' places do not (the browser is compared with itself, before and after: the
    mirror's clock stands still, so its "Ready?" countdown never ends)."""
    # Omiga's setup is taller than a phone and its Start is out of sight: the mirror
    # starts the match (a press reaches a control anywhere), and the browser continues
    # the very same deal from the mirror's save.
    assert mirror.ask("restart") == ["ok"]
    for label in ("Omiga", "Player 2: a person", "Start"):
        assert mirror.ask("press " + label) == ["ok"], label
    with open(os.path.join(data, "current-game.json")) as f:
        save = f.read()
    driver.execute_script("localStorage.setItem('hotseat/current-game.json', arguments[0])", save)
    driver.get(url)
    phone.wait_started()
    assert mirror.ask("restart") == ["ok"]
    phone.tap("Continue", prefix=True)

    # Black's hand is turned 180° about its area's centre (ui/omiga/omiga.slint,
    # `turned-to-black`); the mirror tells where its cards are before the turn.
    x, y, w, h = map(float, mirror.ask("find Player 2's hand")[0].split())
    cx, cy = x + w / 2, y + h / 2
    cards = {}
    for side in ("White", "Black"):
        for n in (1, 2, 3):
            answer = mirror.ask(f"find-part {side} card {n}/3")
            assert answer[0] != "none", f"no {side} card {n} on the mirror's screen"
            x, y, w, h = map(float, answer[0].split())
            if side == "Black":
                x, y = 2 * cx - x - w, 2 * cy - y - h
            cards[(side, n)] = (x, y, w, h)
    at = {k: (x + w / 2, y + h / 2) for k, (x, y, w, h) in cards.items()}
    time.sleep(4.5)  # "Ready?": the three-second countdown before both may play
    driver.execute_script(LOG_POINTERS)

    def changed(before, after):
        same = {k: alike(before, after, box) for k, box in cards.items()}
        log("  share of each card's place unchanged:",
            ", ".join(f"{s[0]} {n} {v:.0%}" for (s, n), v in sorted(same.items())))
        return {k for k, v in same.items() if v < 0.95}

    def pointers():
        return driver.execute_script(
            "const p = window.hotseatPointers; window.hotseatPointers = []; return p;")

    def two_fingers(name, white, black, first_up):
        """White's finger lands, Black's lands too (one touch event), then `first_up`'s
        finger lifts, then the other's. Returns the cards whose place changed."""
        before = phone.picture(name + "-before")
        fingers = {1: at[("White", white)], 2: at[("Black", black)]}
        phone.touch("touchStart", fingers)
        time.sleep(0.08)
        lift = 1 if first_up == "White" else 2
        phone.touch("touchEnd", {lift: fingers[lift]})
        time.sleep(0.08)
        phone.touch("touchEnd", {})
        time.sleep(0.8)
        events = pointers()
        log(f"{name}: the page saw {events}")
        downs = [e[1] for e in events if e[0] == "pointerdown"]
        assert [e[0] for e in events] == ["pointerdown", "pointerdown", "pointerup", "pointerup"] \
            and len(set(downs)) == 2, f"the browser did not deliver two fingers at once: {events}"
        return changed(before, phone.picture(name))

    # Both fingers land in one touch event; the first to land lifts first: both taps land.
    moved = two_fingers("omiga-two-fingers", 1, 1, first_up="White")
    log("two fingers down together, the first down lifted first: changed", sorted(moved))
    assert moved == {("White", 1), ("Black", 1)}, \
        f"both players' taps should select their card; changed: {sorted(moved)}"

    # The same, but the second finger to land lifts first. The page gets both fingers
    # (two pointers, each its own id), but Slint 1.18.1 makes one pointer of them
    # (docs/omiga-touch.md) and this second tap is lost. Checked, so that docs/web.md
    # stays true: when Slint delivers it, this fails and the docs need updating.
    moved = two_fingers("omiga-second-lifted-first", 2, 2, first_up="Black")
    log("two fingers down together, the second down lifted first: changed", sorted(moved))
    assert moved == {("White", 1), ("White", 2)}, \
        f"expected White's selection to move to card 2 and Black's tap to be lost; changed: {sorted(moved)}"

    # Two fingers one after the other, quickly (50 ms apart): both land, whoever is first.
    for first, second, n in (("Black", "White", 3), ("White", "Black", 2)):
        before = phone.picture(f"omiga-{first}-then-{second}-before")
        phone.tap_at(*at[(first, n)])
        time.sleep(0.05)
        phone.tap_at(*at[(second, n)])
        time.sleep(0.8)
        moved = {k for k in changed(before, phone.picture(f"omiga-{first}-then-{second}")) if k[1] == n}
        log(f"{first} then {second}, 50 ms apart: changed", sorted(moved))
        assert moved == {(first, n), (second, n)}, \
            f"both quick taps should select card {n}; changed: {sorted(moved)}"


def reveal_point(driver):
    """Where the cover's reveal button is in the browser's picture: its place depends on
    the words above it, so it is found by its colour (the theme's accent, #0072B2, the
    lowest thing in it on the cover)."""
    png = os.path.join(tempfile.gettempdir(), f"hotseat-bench-{os.getpid()}.png")
    driver.save_screenshot(png)
    picture = Image.open(png).convert("RGB")
    scale = picture.width / WIDTH
    xs, ys = [], []
    for y in range(0, picture.height, 4):
        for x in range(0, picture.width, 4):
            r, g, b = picture.getpixel((x, y))
            if r < 20 and 100 < g < 130 and 160 < b < 195:
                xs.append(x)
                ys.append(y)
    if not xs:
        raise AssertionError("no reveal button in the browser's picture")
    # The lowest thing in that colour (the seat's badge above it may share it).
    low = [(x, y) for x, y in zip(xs, ys) if y > max(ys) - 60 * scale]
    xs, ys = [x for x, _ in low], [y for _, y in low]
    return (min(xs) + max(xs)) / 2 / scale, (min(ys) + max(ys)) / 2 / scale


def leave_while_the_app_thinks(phone, mirror, driver, url):
    """Back (‹, "Leave the game") while the hard opponent thinks. In the browser it thinks
    on the page's one thread, in turns between frames (docs/web.md): the tap is taken, the
    home screen comes with Continue, and the game comes back with the app's turn still to
    play, which it then plays. Leaving mid-thought loses nothing. (How soon the tap is
    answered is measured by web/bench.py, not asserted here.)"""
    driver.get(url)
    phone.wait_started()
    assert mirror.ask("restart") == ["ok"]
    phone.tap("IOTA")
    phone.tap("Player 2: the app, hard")
    phone.tap("Start")
    # The app may be drawn to play first (it starts thinking a frame after Start): the
    # person's cover comes once it has played.
    time.sleep(0.3)
    deadline = time.time() + 30
    while driver.execute_script("return performance.getEntriesByName('hotseat-thinking', 'mark').length"):
        assert time.time() < deadline, "the app's first turn did not end"
        time.sleep(0.05)
    time.sleep(0.8)
    # The cover's words differ from the mirror's here (this page has a finished game in
    # its history): its reveal button is found in the browser's own picture.
    (_, _), label = mirror.find(", tap to reveal", prefix=True)
    phone.tap_at(*reveal_point(driver))
    assert mirror.ask("press " + label) == ["ok"]
    time.sleep(0.8)
    (bx, by), _ = mirror.find("Leave the game")
    before = json.loads(phone.storage("current-game.json"))["actions"]
    driver.execute_script("performance.clearMarks('hotseat-thinking');"
                          "performance.clearMeasures('hotseat-thinking');")
    driver.execute_script(
        "window.hotseatDowns = [];"
        "window.addEventListener('pointerdown', (e) => window.hotseatDowns.push([e.timeStamp, performance.now()]), true);")
    (px, py), _ = mirror.find("Pass")
    phone.tap_at(px, py)
    # The mark stands while it thinks; the measure, once it has decided.
    deadline = time.time() + 10
    while not driver.execute_script("return performance.getEntriesByName('hotseat-thinking').length"):
        if time.time() > deadline:
            driver.save_screenshot(os.path.join(phone.shots, "no-thinking-browser.png"))
            raise AssertionError("the app did not start thinking")
        time.sleep(0.005)
    decided = driver.execute_script(
        "return performance.getEntriesByName('hotseat-thinking', 'measure').length")
    phone.tap_at(bx, by)
    log("Back tapped", "after the app decided" if decided else "while the app thinks")
    time.sleep(1.0)
    if not decided:
        # The page took the tap before the app had decided: it thinks between frames,
        # not in one block (which would hold the tap until the answer).
        touched, taken = driver.execute_script("return window.hotseatDowns[window.hotseatDowns.length - 1]")
        # The measure once it has decided; the mark while it still thinks.
        start, length = driver.execute_script(
            "const e = performance.getEntriesByName('hotseat-thinking');"
            "return [e[0].startTime, e[0].entryType === 'measure' ? e[0].duration : null];")
        end = start + length if length is not None else float("inf")
        log(f"the touch came {touched - start:.0f} ms into a decision of "
            f"{'more than ' + str(round(taken - start)) if length is None else round(length)} ms "
            f"and was taken {taken - touched:.0f} ms later")
        # Judged only when the touch came with time left: on this shared machine a page
        # with nothing to do can take a few frames to take a touch, and a decision can be
        # short (the old back-to-back slices held a touch for 66-450 ms).
        if touched < end - 100:
            assert taken < end, "the page took the tap only once the app had decided"
        else:
            log("the decision ended too soon after the touch to tell")
    # The mirror leaves its game the same way, and both show the home screen.
    assert mirror.ask("press Leave the game") == ["ok"]
    phone.looks_like_mirror("left-while-thinking", 0.85)
    saved = json.loads(phone.storage("current-game.json"))["actions"]
    assert saved[: len(before)] == before and len(saved) > len(before) and saved[len(before)][0] == 0, \
        f"the pass is not saved: {saved[len(before):]}"
    phone.tap("Continue", prefix=True)
    # The app's turn: it thinks again from the saved game and plays.
    deadline = time.time() + 60
    while len(json.loads(phone.storage("current-game.json"))["actions"]) < len(before) + 2:
        assert time.time() < deadline, "the app did not play its turn after Continue"
        time.sleep(0.2)
    after = json.loads(phone.storage("current-game.json"))["actions"]
    assert after[len(before)][0] == 0 and after[len(before) + 1][0] == 1, after[len(before):]
    log("after Continue the app played:", after[len(before) + 1])
    assert not phone.errors(), f"console errors: {phone.errors()}"


def kiosk(phone, mirror, driver, url):
    """The page opened with ?kiosk: the first start asks staff for a PIN; the staff corner
    (top right, nothing drawn) opens the PIN pad when held for 2 s, and not on a tap."""
    driver.get(url + "?kiosk")
    phone.wait_started()
    assert mirror.ask("restart-kiosk") == ["ok"]
    phone.looks_like_mirror("kiosk-choose-pin", 0.85)
    for _ in range(2):  # the PIN, then the same again
        for key in ["1", "2", "3", "4", "OK"]:
            phone.tap(key)
        time.sleep(1)
    assert phone.storage("kiosk.json"), "the staff PIN is not saved in the browser"
    welcome = phone.looks_like_mirror("kiosk-welcome", 0.90)
    (x, y), _ = mirror.find("Staff")
    # The PIN pad dims the whole screen: the two native pictures must tell apart.
    assert mirror.ask("press Staff") == ["ok"]
    pad = phone.native("kiosk-pad-expected")
    assert mirror.ask("press Cancel") == ["ok"]
    apart = alike(phone.native("kiosk-welcome-again"), pad)
    log(f"the welcome screen and the PIN pad share {apart:.1%} of their pixels natively")
    assert apart < 0.85, "the welcome screen and the PIN pad look alike: the check below means nothing"

    log(f"short tap on the staff corner at {x:.0f},{y:.0f}")
    phone.tap_at(x, y, hold=0.15)
    time.sleep(2.6)  # longer than the 2 s hold
    phone.looks_like_mirror("kiosk-short-tap", max(0.90, welcome - 0.05))

    log(f"long press on the staff corner at {x:.0f},{y:.0f}")
    phone.tap_at(x, y, hold=2.6)
    time.sleep(0.5)
    assert mirror.ask("press Staff") == ["ok"]
    phone.looks_like_mirror("kiosk-pin-pad", 0.90)
    phone.tap("Cancel")
    phone.looks_like_mirror("kiosk-cancelled", 0.90)


def listen_for_cues(driver):
    """Counts the sound cues the page schedules on its Web Audio context (issue #34):
    every AudioBufferSourceNode started, and the contexts made, on every page loaded."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__cues = 0; window.__contexts = [];
        const start = AudioBufferSourceNode.prototype.start;
        AudioBufferSourceNode.prototype.start = function (...args) {
            window.__cues += 1; return start.apply(this, args); };
        const Made = window.AudioContext;
        window.AudioContext = function (...args) {
            const c = new Made(...args); window.__contexts.push(c); return c; };
        window.AudioContext.prototype = Made.prototype;"""})


def cues_heard(driver, taps):
    """After `taps` taps on Pass in a game against the app: the page scheduled cues (a pass,
    the app thinking, its cards, the hand-backs) on one audio context."""
    cues, states = driver.execute_script(
        "return [window.__cues, window.__contexts.map((c) => c.state)]")
    log(f"{cues} sound cues scheduled for {taps} taps; audio contexts: {states}")
    assert len(states) == 1, f"one audio context, made on the first cue: {states}"
    # A tap while the app thinks changes nothing; the app's own turns sound instead.
    assert cues >= taps // 2, f"{cues} cues for {taps} taps"


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
        listen_for_cues(driver)
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
        cues_heard(driver, taps)
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

        # Leaving while the hard opponent thinks, and coming back.
        leave_while_the_app_thinks(phone, mirror, driver, site.url)

        # Kiosk: the staff corner's long press.
        kiosk(phone, mirror, driver, site.url)
        assert not phone.errors(), f"console errors: {phone.errors()}"

        # Omiga face to face, two fingers at once. Last of the parts that tap: once
        # DevTools has had two touch points down at once, Chromium delivers the touches
        # of the next page it loads as a bare `click` (no pointer or touch events;
        # Chromium 156 here), while the same page keeps taking them.
        face_to_face(phone, mirror, driver, site.url, data)
        assert not phone.errors(), f"console errors: {phone.errors()}"
        driver.get(site.url)
        phone.wait_started()
        assert mirror.ask("restart") == ["ok"]

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
