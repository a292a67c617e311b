"""A blind player's hands and ears: AT-SPI (pyatspi) to read and act, xdotool for keys,
and Orca's debug log for what Orca spoke. Used by tests/orca/play.py (issue #19)."""

import re
import subprocess
import time

import pyatspi
from gi.repository import Gio, GLib


class Failure(Exception):
    """A check a blind player would notice failed."""


HEARD_WITHIN = 15.0  # seconds: Orca with full debug logging lags a few seconds on 2 cores


class Listener:
    """What Orca says, heard through its debug log (`Ears`), noted in the transcript;
    the Orca tests' players (tests/orca/play.py, browser.py) are made of it."""

    def __init__(self, ears, transcript):
        self.ears = ears
        self.out = transcript
        self.heard = []  # what Orca said since the last check that consumed it
        self.all = []    # everything Orca said, for a failure's report

    def note(self, text):
        print(text, flush=True)
        self.out.write(text + "\n")
        self.out.flush()

    def listen(self):
        for line in self.ears.new():
            self.heard.append(line)
            self.all.append(line)
            self.note(f"    Orca: {line}")

    def hear(self, *parts, within=HEARD_WITHIN):
        """Waits until Orca has said every part (in one utterance or across those since
        the last check); returns that speech and forgets what was heard so far."""
        end = time.time() + within
        while True:
            self.listen()
            said = " | ".join(self.heard)
            if all(p in said for p in parts):
                self.heard = []
                return said
            if time.time() > end:
                raise Failure(f"Orca did not say {parts!r}; it said: {self.heard!r}")
            time.sleep(0.2)


class Ears:
    """Reads the SPEECH OUTPUT lines Orca appended to its debug log since the last call."""

    # "SPEECH OUTPUT: 'Egg tray.'{'established': False}": the text, without the voice.
    LINE = re.compile(r"SPEECH OUTPUT: '(.*?)'(?:\{.*\})?\s*$")

    def __init__(self, path):
        self.path = path
        self.offset = 0

    def new(self):
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
            self.offset += len(data)
        out = []
        for line in data.decode("utf-8", "replace").splitlines():
            m = self.LINE.search(line)
            if m:
                out.append(m.group(1))
        return out

    def defunct(self):
        """Events Orca dropped because their source was defunct, but for the focus leaving
        an element hidden in the same update (the cover as it drops): that element comes
        back under the same path, and losing focus is nothing to speak."""
        with open(self.path, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        bad = []
        last_event = ""
        for line in lines:
            if "EVENT MANAGER: object:" in line and " for [" in line:
                last_event = line
            if "Event is from defunct source" in line:
                if "state-changed:focused for" in last_event and "(0, 0, 0)" in last_event:
                    continue
                bad.append(last_event.strip())
        return bad


class App:
    """The app as AT-SPI shows it."""

    def __init__(self, ears, log):
        self.ears = ears
        self.log = log
        self.root = None
        for _ in range(100):
            desk = pyatspi.Registry.getDesktop(0)
            for i in range(desk.childCount):
                a = desk.getChildAtIndex(i)
                if a is not None and a.name == "hotseat":
                    self.root = a
            if self.root is not None and self.root.childCount > 0:
                break
            time.sleep(0.1)
        if self.root is None:
            raise Failure("the app never appeared on the AT-SPI bus")
        win = subprocess.run(["xdotool", "search", "--sync", "--name", "^Hotseat$"],
                             capture_output=True, text=True, timeout=20).stdout.split()
        if not win:
            raise Failure("no X window named Hotseat")
        self.window = win[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], check=True, timeout=20)

    def nodes(self, parked=False):
        """Every node under the frame that is on show: (accessible, role name, name). The
        screens a player comes back to stay in the tree when not on show, parked far
        beyond the window's right edge (ui/widgets/stage.slint); `parked=True` walks
        them too (nothing private may be there either)."""
        out = []

        def walk(o):
            try:
                if not parked and is_parked(o):
                    return
                out.append((o, o.getRoleName(), o.name or ""))
                for i in range(o.childCount):
                    c = o.getChildAtIndex(i)
                    if c is not None:
                        walk(c)
            except Exception as e:  # a node that vanished between two calls
                self.log(f"  (walk: {e})")

        walk(self.root)
        return out

    def names(self, parked=False):
        return [n for _, _, n in self.nodes(parked) if n]

    def find(self, name, role=None, prefix=False, wait=5.0):
        end = time.time() + wait
        while True:
            for o, r, n in self.nodes():
                if (n.startswith(name) if prefix else n == name) and (role is None or r == role):
                    return o
            if time.time() > end:
                raise Failure(f"nothing named {name!r} ({role}) on screen; names: {self.names()[:60]}")
            time.sleep(0.1)

    def present(self, name, prefix=False):
        return any((n.startswith(name) if prefix else n == name) for n in self.names())

    def activate(self, obj):
        """The default action, and the proof the object is not stale: its cached name
        equals a fresh query of the same path."""
        cached = obj.name
        fresh = fresh_name(obj)
        if cached != fresh:
            raise Failure(f"stale object: cached name {cached!r}, fresh query {fresh!r}")
        act = obj.queryAction()
        act.doAction(0)

    def key(self, *keys):
        for k in keys:
            subprocess.run(["xdotool", "key", "--clearmodifiers", k], check=True, timeout=10)
            time.sleep(0.15)

    def focused(self):
        for o, r, n in self.nodes():
            try:
                if o.getState().contains(pyatspi.STATE_FOCUSED):
                    return (r, n)
            except Exception:
                pass
        return None


# Stage.away is 100000 logical px: anything this far right is parked, not on show.
PARKED_X = 50000


def is_parked(obj):
    """Whether a node is not on show: beyond the window's right edge, where a parked
    screen is, or folded to nothing where it stands (a control that does not apply now
    stays in the tree with no size, ui/widgets/buttons.slint)."""
    try:
        box = obj.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    except NotImplementedError:  # no geometry (the application node)
        return False
    return box.x >= PARKED_X or box.width <= 0 or box.height <= 0


_BUS = None


def a11y_bus():
    """A connection of our own to the accessibility bus, for queries past libatspi's cache."""
    global _BUS
    if _BUS is None:
        session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        reply = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
                                  None, GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 5000, None)
        _BUS = Gio.DBusConnection.new_for_address_sync(
            reply.unpack()[0],
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
    return _BUS


def fresh_name(obj):
    """The name asked of the application over D-Bus now, past libatspi's cache."""
    reply = a11y_bus().call_sync(
        obj.app.bus_name, obj.path, "org.freedesktop.DBus.Properties", "Get",
        GLib.Variant("(ss)", ("org.a11y.atspi.Accessible", "Name")),
        GLib.VariantType("(v)"), Gio.DBusCallFlags.NONE, 5000, None)
    return reply.unpack()[0]
