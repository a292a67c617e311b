"""What the browser tests and benches share: the built site on loopback, `hotseat mirror`
(which says where each control is), the two browsers — headless Chromium as a touch phone
(tests/browser/play.py) and WebKitGTK's MiniBrowser through WebKitWebDriver under Xvfb
(tests/browser/webkit.py) — a phone that taps and looks in either, and the checks both
browsers pass, judged by what each draws against the native renderer's picture."""
import argparse
import functools
import glob
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import tempfile
import threading
import time

from PIL import Image, ImageChops
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

WIDTH, HEIGHT = 412, 915
TAG = ["browser"]  # the log's prefix: the test's name (`log`)


def log(*words):
    print(f"{TAG[0]}:", *words, flush=True)


class Mirror:
    """`hotseat mirror`: where a control is, and the same press on the native side."""

    def __init__(self, binary, data, size=(WIDTH, HEIGHT)):
        self.binary, self.data = binary, data
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
    """The built site on 127.0.0.1, on a port of its own. `host` is the name in the
    address (WebKit keeps service workers only for a secure origin, and `localhost` is
    one); `inject` is a script the page's HTML gets first thing in its head (for what a
    browser's driver cannot add before the page's own scripts run)."""

    def __init__(self, root, host="127.0.0.1", inject=None):
        handler = functools.partial(Quiet, directory=root)
        self.server = socketserver.TCPServer(("127.0.0.1", 0), handler)
        self.server.inject = inject
        self.url = f"http://{host}:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    # The server has one thread: a connection a browser opens and leaves idle would hold it
    # (and `Site.close`, for minutes) without a bound on each read.
    timeout = 5
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".webmanifest": "application/manifest+json"}

    def log_message(self, *args):
        pass

    def send_head(self):
        script = self.server.inject
        if not script or self.path.split("?")[0] not in ("/", "/index.html"):
            return super().send_head()
        with open(os.path.join(self.directory, "index.html"), "rb") as f:
            page = f.read().replace(b"<head>", b"<head><script>" + script.encode() + b"</script>", 1)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        return _Bytes(page)


class _Bytes:
    """A file-like answer for `SimpleHTTPRequestHandler.send_head`."""

    def __init__(self, data):
        self.data = data

    def read(self, *_):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass


def chromium(profile, size=(WIDTH, HEIGHT), touch=True, flags=()):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in [*flags, "--headless=new", "--no-sandbox", "--use-angle=swiftshader",
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


class Xvfb:
    """An X display of its own (Xvfb picks a free number), set as DISPLAY for the browsers
    started after it."""

    def __init__(self, size=(1024, 1280)):
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + number
        os.environ["DISPLAY"] = self.display

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def minibrowser():
    """WebKitGTK's MiniBrowser, which Debian puts in the library's own folder."""
    found = glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser") + glob.glob("/usr/lib/*/webkit2gtk-4.0/MiniBrowser")
    if not found:
        raise RuntimeError("no MiniBrowser: install webkit2gtk-driver (it brings libwebkit2gtk-4.1-0)")
    return found[0]


def webkit(size=(WIDTH, HEIGHT)):
    """MiniBrowser through WebKitWebDriver (on the DISPLAY set, e.g. by `Xvfb`), its
    viewport made `size`. Each session starts with empty storage (an automation session's
    data lives in memory)."""
    opts = webdriver.WebKitGTKOptions()
    opts.binary_location = minibrowser()
    opts.add_argument("--automation")
    # MiniBrowser's toolbar would keep its window at least 447 px wide: a style sheet of
    # our own (GTK reads $XDG_CONFIG_HOME/gtk-3.0/gtk.css) shrinks the browser's own
    # controls so that the page can be a phone's width. The page is not GTK's to style.
    config = tempfile.mkdtemp(prefix="hotseat-webkit-gtk-")
    os.makedirs(os.path.join(config, "gtk-3.0"))
    with open(os.path.join(config, "gtk-3.0", "gtk.css"), "w") as f:
        f.write("window * { min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 3px; }\n")
    before = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = config  # for the driver, and the browser it starts
    try:
        driver = webdriver.WebKitGTK(options=opts)
    finally:
        if before is None:
            del os.environ["XDG_CONFIG_HOME"]
        else:
            os.environ["XDG_CONFIG_HOME"] = before
        shutil.rmtree(config, ignore_errors=True)
    try:
        driver.set_window_rect(x=0, y=0, width=size[0], height=size[1])
        # The window holds more than the page (its frame, a toolbar): grow it by the difference.
        # A resize reaches the page a moment later: measured at once, the page was sometimes
        # still at its old size (412x935 in about 2 % of starts here), and three rounds ran out.
        for _ in range(10):
            time.sleep(0.2)
            w, h = driver.execute_script("return [window.innerWidth, window.innerHeight]")
            if (w, h) == tuple(size):
                break
            r = driver.get_window_rect()
            driver.set_window_rect(width=r["width"] + size[0] - w, height=r["height"] + size[1] - h)
        else:
            raise RuntimeError(f"the WebKit page is {w}x{h}, not {size[0]}x{size[1]}")
        # Xvfb has no window manager to give the browser's window the keyboard focus, as a
        # phone's foreground app has: without it the page is not focused, and WebKit takes
        # the focus away from the text field a tap has just focused (no keyboard, no typing).
        windows = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "MiniBrowser"],
                                 capture_output=True, text=True, check=True).stdout.split()
        for window in windows:
            subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
        if not driver.execute_script("return document.hasFocus()"):
            raise RuntimeError("the WebKit page did not get the focus")
    except BaseException:
        driver.quit()
        raise
    return driver


class Phone:
    """The page in a browser, at phone size: taps a control where the mirror says it is,
    and presses it in the mirror too; reads the page's storage; takes pictures. A browser
    says how a tap is made (`tap_at`) and which errors the page had (`errors`)."""

    def __init__(self, driver, mirror, shots):
        self.d, self.mirror, self.shots = driver, mirror, shots

    def tap_at(self, x, y, hold=0.05):
        raise NotImplementedError

    def errors(self):
        raise NotImplementedError

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
                "return s ? [s.hidden, document.getElementById('status-text').textContent] : [false, ''];")
            if state[0]:
                time.sleep(1.5)  # the first frames
                return
            if "could not" in state[1] or "no WebGL" in state[1]:
                raise AssertionError("the page says: " + state[1] + self.kept_errors())
            time.sleep(0.2)
        raise AssertionError("the app did not start within 120 s" + self.kept_errors())

    def kept_errors(self):
        """The page's errors (a panic's message among them: the app's panic hook writes it
        to the console), as lines to add to a failure's message."""
        try:
            errors = self.errors()
        except Exception as e:  # the page may be gone: say so rather than hide the failure
            return f"\n(its errors could not be read: {type(e).__name__}: {e})"
        return "".join(f"\n  page error: {e}" for e in errors) or "\n  (no error kept in the page)"

    def open(self, url):
        """Loads the page, waits for the app, and brings the mirror to its start too."""
        self.d.get(url)
        self.wait_started()
        assert self.mirror.ask("restart") == ["ok"]

    def no_errors(self):
        assert not self.errors(), f"errors in the page: {self.errors()}"

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


class ChromiumPhone(Phone):
    """Chromium: taps are DevTools touch events; errors are the console's."""

    def touch(self, kind, fingers):
        """One DevTools touch event, `fingers` {id: (x, y)}: touchStart puts them down
        (those not down yet), touchEnd lifts them (with none: every finger still down)."""
        points = [{"x": x, "y": y, "id": i} for i, (x, y) in fingers.items()]
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def tap_at(self, x, y, hold=0.05):
        self.touch("touchStart", {1: (x, y)})
        time.sleep(hold)
        self.touch("touchEnd", {})

    def errors(self):
        return [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"]


# WebKit's driver has no console log: the page keeps what would reach it — uncaught errors
# (a wasm trap, a failed load of a script or image), rejected promises nobody handled, and
# `console.error` (the app's panic hook and start errors write there, src/web.rs) — in its
# session storage, which lasts through the reloads of one tab. `Site(inject=…)` puts it
# first in the page's head, before the page's own scripts.
KEEP_ERRORS = """
(() => {
  const keep = (what) => {
    try {
      const list = JSON.parse(sessionStorage.getItem('hotseat-test-errors') || '[]');
      list.push(String(what));
      sessionStorage.setItem('hotseat-test-errors', JSON.stringify(list));
    } catch (e) {}
  };
  addEventListener('error', (e) => keep(e.message ? `${e.message} (${e.filename}:${e.lineno})`
    : `could not load ${e.target && (e.target.src || e.target.href || e.target.tagName)}`), true);
  addEventListener('unhandledrejection', (e) =>
    keep('unhandled rejection: ' + String(e.reason) + (e.reason && e.reason.stack ? ' at ' + e.reason.stack : '')));
  const error = console.error.bind(console);
  console.error = (...a) => { keep('console.error: ' + a.join(' ')); error(...a); };
})();
"""


class WebKitPhone(Phone):
    """WebKit: taps are WebDriver pointer actions of the touch kind (WebKitGTK has no touch
    events: the page gets them as a mouse's pointer events, `pointerType` "mouse"); errors
    are those the page kept (`KEEP_ERRORS`)."""

    def tap_at(self, x, y, hold=0.05):
        actions = ActionBuilder(self.d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        actions.pointer_action.move_to_location(round(x), round(y)).pointer_down().pause(hold).pointer_up()
        actions.perform()

    def errors(self):
        return json.loads(self.d.execute_script("return sessionStorage.getItem('hotseat-test-errors') || '[]'"))


def alike(a, b, box=None):
    """The share of pixels of two pictures (or of the box (x, y, w, h) in both) that
    differ by no more than 40 levels in any channel."""
    if box:
        x, y, w, h = (round(v) for v in box)
        a, b = a.crop((x, y, x + w, y + h)), b.crop((x, y, x + w, y + h))
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return 1 - sum(1 for v in diff.getdata() if v) / (a.width * a.height)


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


# The checks both browsers pass, in this order (each browser's test adds its own between).

def first_visit(phone, url):
    """The page loads with no error and its home screen looks like the native one."""
    started = time.time()
    phone.d.get(url)
    phone.wait_started()
    log(f"the home screen is up {time.time() - started:.1f} s after navigation")
    phone.no_errors()
    phone.looks_like_mirror("home", 0.90)


def game_to_history(phone):
    """A game against the app (IOTA, the second seat the app's): Start saves it and brings
    the cover; a reload gives Continue, behind the cover; the person passes whenever it is
    their turn and the app plays its cards until the pile runs out (docs/rules.md §2); the
    game lands in the history and its running save is cleared."""
    phone.tap("IOTA")
    phone.tap("Player 2: the app, medium")
    phone.looks_like_mirror("setup", 0.90)
    phone.tap("Start")
    (x, y), cover = phone.mirror.find(", tap to reveal", prefix=True)
    log("the cover reads:", cover)
    assert phone.storage("current-game.json"), "the new game is not saved in the browser"
    phone.looks_like_mirror("cover", 0.85)

    # Closing the tab and coming back: Continue, behind the cover.
    phone.d.refresh()
    phone.wait_started()
    assert phone.mirror.ask("restart") == ["ok"]
    phone.tap("Continue", prefix=True)
    phone.looks_like_mirror("continue-cover", 0.85)
    phone.tap(", tap to reveal", prefix=True)

    taps, deadline = 0, time.time() + 300
    while not phone.storage("history.json"):
        assert time.time() < deadline, "the game did not end within 5 minutes"
        assert taps < 400, "the game did not end within 400 passes"
        phone.tap("Pass", mirror=False)
        taps += 1
        time.sleep(0.6)
    kept = phone.storage("history.json")
    history = json.loads(kept)
    assert len(history) == 1, history
    log(f"the history holds {len(kept):,} characters for this game")
    log(f"the game ended after {taps} taps on Pass: {json.dumps(history[0])[:300]}")
    assert not phone.storage("current-game.json"), "the finished game is still saved"
    phone.d.save_screenshot(os.path.join(phone.shots, "end-browser.png"))
    phone.no_errors()
    return taps


def damaged_save(phone, data):
    """A damaged save (cut short, or left by something else): the same notice as on the
    desktop, and the entry kept aside under another name, never dropped. `data` is the
    mirror's folder."""
    broken = '{"version": 1, "game": "iota", "act'
    phone.d.execute_script("localStorage.setItem('hotseat/current-game.json', arguments[0])", broken)
    # The mirror's folder as the browser's storage is now: no save but the broken one.
    for name in os.listdir(data):
        if name.startswith("current-game"):
            os.remove(os.path.join(data, name))
    with open(os.path.join(data, "current-game.json"), "w") as f:
        f.write(broken)
    phone.d.refresh()
    phone.wait_started()
    assert phone.mirror.ask("restart") == ["ok"]
    phone.tap("Continue", prefix=True)
    kept = [k for k in phone.keys() if k.startswith("hotseat/current-game.broken-")]
    assert len(kept) == 1, f"the damaged save is not kept aside: {phone.keys()}"
    assert phone.d.execute_script("return localStorage.getItem(arguments[0])", kept[0]) == broken
    assert not phone.storage("current-game.json")
    (_, _), notice = phone.mirror.find("This saved game could not be read", prefix=True)
    log("the notice:", notice)
    # The notice names where the entry went, which differs from the mirror's folder:
    # the picture is kept for a look, the storage above is the check.
    phone.d.save_screenshot(os.path.join(phone.shots, "damaged-browser.png"))
    phone.no_errors()


def offline(phone, site):
    """The service worker keeps the whole site; with the server gone the app still starts
    (a café without Wi-Fi)."""
    phone.open(site.url)
    caches = phone.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then(() => caches.keys()).then(done, (e) => done(String(e)));")
    log("service worker caches:", caches)
    assert any(c.startswith("hotseat-") for c in caches), caches
    site.close()
    phone.d.refresh()
    phone.wait_started()
    assert phone.mirror.ask("restart") == ["ok"]
    phone.looks_like_mirror("offline-home", 0.85)
    phone.no_errors()


def run(tag, start, checks, host="127.0.0.1", inject=None, options=None):
    """A browser test's main: SITE_DIR HOTSEAT_BINARY [--shots DIR] from the command line,
    and what `options(parser)` adds; `start(work_dir)` gives the driver and the Phone
    class, `checks(phone, site, data, args)` does the rest."""
    TAG[0] = tag
    args = argparse.ArgumentParser()
    args.add_argument("site")
    args.add_argument("hotseat")
    args.add_argument("--shots", default=None)
    if options:
        options(args)
    a = args.parse_args()
    work = tempfile.mkdtemp(prefix=f"hotseat-{tag}-")
    shots = a.shots or os.path.join(work, "shots")
    os.makedirs(shots, exist_ok=True)
    data = os.path.join(work, "data")
    os.makedirs(data, exist_ok=True)
    site, mirror, driver = Site(a.site, host, inject), Mirror(a.hotseat, data), None
    try:
        driver, kind = start(work)
        checks(kind(driver, mirror, shots), site, data, a)
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
