#!/usr/bin/python3
"""Debian's Firefox ESR as a second engine for the two-phone test (issue 40,
tests/browser/rtc.py): Firefox started with its own remote protocol, Marionette, and driven
by the few commands the test needs (open, reload, run a script, a screenshot), spoken here
over its socket: JSON messages, each as `length:json` (Mozilla's remote protocol docs,
"Marionette protocol"). No WebDriver server (geckodriver builds from crates.io in minutes
of CPU) and no Python package: nothing to build or fetch beyond the browser.

The page is read as the Chromium test reads it, by role and name, but from the page's
accessibility layer in the DOM (web/a11y: ARIA roles, `aria-label`, `aria-description`):
Firefox has no DevTools accessibility tree to ask over this protocol. A control is pressed
as there: its element takes the focus and is sent a click.

Firefox runs on its own Xvfb display (headless Firefox has no WebGL here, and the app
draws with it), at a phone's size, with a fake camera (it plays a test pattern, not a QR
code: a Firefox page pairs by pasted texts) that needs no prompt.
"""
import base64
import json
import os
import socket
import subprocess
import time

from common import Xvfb

PORT = 2828
PREFS = {
    "marionette.port": PORT,
    # The camera: a synthetic one, allowed without a prompt (the offering page asks for it
    # before its offer, src/net/rtc.rs).
    "media.navigator.permission.disabled": True,
    "media.navigator.streams.fake": True,
    # Plain host addresses, as Firefox for Android gives them (its default; desktop Firefox
    # hides them behind mDNS names, which Chromium on Android cannot resolve). With mDNS
    # names a joining Firefox is reachable only through its own checks, which it gives up
    # 5 s after its answer (Mozilla bug 1647289): a slow scan then cannot connect
    # (docs/network.md, "Every engine").
    "media.peerconnection.ice.obfuscate_host_addresses": False,
    # A quiet first start: no welcome page, no update, no telemetry, no default-browser
    # question, nothing fetched from the internet.
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "startup.homepage_welcome_url": "about:blank",
    "browser.startup.page": 0,
    "app.update.enabled": False,
    "app.update.auto": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
    "webgl.force-enabled": True,
}

# Desktop Firefox as it ships, for a page that gives only mDNS names (tests/browser/rtc_app.py's
# "resolves"): no camera without asking (the joining page asks nothing), host addresses hidden.
DESKTOP = {
    "media.navigator.permission.disabled": False,
    "media.peerconnection.ice.obfuscate_host_addresses": True,
}


class Firefox:
    """One Firefox with a fresh profile in `profile`, driven over Marionette."""

    def __init__(self, profile, size=(412, 915), prefs=None):
        os.makedirs(profile, exist_ok=True)
        with open(os.path.join(profile, "user.js"), "w") as f:
            for k, v in {**PREFS, **(prefs or {})}.items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        self.xvfb = Xvfb(size=(size[0] + 100, size[1] + 200))
        self.proc = subprocess.Popen(
            ["firefox-esr", "-marionette", "-no-remote", "-profile", profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.next_id = 0
        deadline = time.time() + 60
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=120)
                break
            except OSError:
                if time.time() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("Firefox's Marionette did not listen within 60 s")
                time.sleep(0.2)
        self._read()  # the server's hello
        self.command("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {}}})
        self.command("WebDriver:SetWindowRect", {"x": 0, "y": 0, "width": size[0], "height": size[1]})

    def _read(self):
        length = b""
        while not length.endswith(b":"):
            byte = self.sock.recv(1)
            if not byte:
                raise RuntimeError("Firefox closed its Marionette socket")
            length += byte
        n = int(length[:-1])
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError("Firefox closed its Marionette socket")
            data += chunk
        return json.loads(data)

    def command(self, name, params=None):
        self.next_id += 1
        body = json.dumps([0, self.next_id, name, params or {}]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        while True:
            kind, msg_id, error, result = self._read()
            if msg_id == self.next_id:
                break
        if error:
            raise RuntimeError(f"{name}: {error.get('error')}: {error.get('message')}")
        return result

    # What rtc.py's page helper asks of a driver.
    def get(self, url):
        self.command("WebDriver:Navigate", {"url": url})
        self._collect_errors()

    def refresh(self):
        self.command("WebDriver:Refresh")
        self._collect_errors()

    def execute_script(self, script, *args):
        return self.command("WebDriver:ExecuteScript", {"script": script, "args": list(args)})["value"]

    def execute_async_script(self, script, *args):
        """The script's last argument is its callback (as in WebDriver)."""
        return self.command("WebDriver:ExecuteAsyncScript", {"script": script, "args": list(args)})["value"]

    def set_script_timeout(self, seconds):
        self.command("WebDriver:SetTimeouts", {"script": int(seconds * 1000)})

    def save_screenshot(self, path):
        shot = self.command("WebDriver:TakeScreenshot", {"full": False})["value"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot))

    def _collect_errors(self):
        # The page's errors, as Chromium's log gives them: uncaught ones and console.error
        # (a Rust panic in the wasm build goes there).
        self.execute_script("""
            if (!window.__hsErrors) {
              window.__hsErrors = [];
              window.addEventListener('error', e => window.__hsErrors.push(String(e.message)));
              const was = console.error.bind(console);
              console.error = (...a) => { window.__hsErrors.push(a.map(String).join(' ')); was(...a); };
            }""")

    def errors(self):
        return self.execute_script("return window.__hsErrors || []")

    def quit(self):
        try:
            self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
        except (OSError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.xvfb.close()


# The page's accessibility layer as a screen reader would get it from the DOM: each
# labelled element (its ARIA role; a field is a textbox; no role: generic) and each plain
# text (StaticText), in document order, as [role, name, description].
NODES = """
const out = [];
for (const e of document.body.querySelectorAll('*')) {
  if (['SCRIPT', 'STYLE', 'CANVAS', 'VIDEO'].includes(e.tagName)) continue;
  const label = e.getAttribute('aria-label');
  const desc = e.getAttribute('aria-description') || '';
  const role = e.getAttribute('role') || (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' ? 'textbox' : 'generic');
  if (label) { out.push([role, label, desc, e]); continue; }
  const own = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
  if (own) out.push(['StaticText', own, desc, e]);
}
"""


class DomReader:
    """The page's accessibility layer through the DOM: what tests/browser/reader.py's Reader
    gives from Chromium's tree (nodes, words, press, type_into)."""

    def __init__(self, driver):
        self.d = driver

    def nodes(self):
        got = self.d.execute_script(NODES + "return out.map(([r, n, d]) => [r, n, d]);")
        return [(r, n, d, i) for i, (r, n, d) in enumerate(got)]

    def words(self):
        return [w for (_, name, desc, _) in self.nodes() for w in (name, desc) if w]

    def _act(self, role, name, exact, action, arg=None, wait=10.0):
        mode = {True: "eq", False: "start", "end": "end"}[exact]
        script = NODES + """
            const [role, name, mode, arg] = arguments;
            const fits = n => mode === 'eq' ? n === name : mode === 'start' ? n.startsWith(name) : n.endsWith(name);
            const hit = out.find(([r, n]) => r === role && fits(n));
            if (!hit) return null;
            const e = hit[3];
            """ + action + """
            return [hit[1], hit[2]];"""
        deadline = time.time() + wait
        while True:
            got = self.d.execute_script(script, role, name, mode, arg)
            if got:
                return got
            if time.time() > deadline:
                shown = [(r, n) for (r, n, _, _) in self.nodes() if n]
                raise AssertionError(f"no {role} '{name}' in the page's layer; it has {shown}")
            time.sleep(0.2)

    def press(self, role, name, exact=True):
        found, desc = self._act(role, name, exact, "e.focus(); e.click();")
        print(f"rtc:   pressed {role} '{found}'", flush=True)
        # The layer looks for changes ten times a second (web/a11y/mod.rs).
        time.sleep(0.4)
        return found, desc

    def type_into(self, name, text):
        found, _ = self._act("textbox", name, False,
                             "e.focus(); e.value = arg; e.dispatchEvent(new InputEvent('input', {bubbles: true}));",
                             text)
        print(f"rtc:   typed '{text[:24]}…' into textbox '{found}'", flush=True)
        time.sleep(0.4)
