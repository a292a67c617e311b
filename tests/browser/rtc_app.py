#!/usr/bin/python3
"""The app and a phone's browser play each other over WebRTC (issue 40, point 4), in the
two network namespaces of tests/browser/rtc.py (the same Wi-Fi bridge), each way:

- **the app joins**: the page hosts Omiga; `hotseat rtc-join` (src/net/headless_rtc.rs,
  str0m underneath) reads the page's offer text on its standard input and prints its
  answer text, which the test types into the page's answer field;
- **the app hosts**: `hotseat rtc-host` prints its offer text; a headless Chromium's camera
  reads it as a QR code (its fake camera, as a phone scans a kiosk's screen), a Firefox
  page has it pasted (its fake camera shows no code; tests/browser/firefox.py), and the
  page's answer text goes to the app's input;
- **the app resolves an mDNS name**: `rtc-host` hosts and the joining page pastes its
  offer (no scan, so no camera permission): the page's answer carries only its engine's
  `<uuid>.local` name, which the app looks up by mDNS across the namespaces; then a few
  cards each way.

The page is headless Chromium, or with --engine=firefox Debian's Firefox ESR: in the first
two cases with plain host addresses, as Firefox for Android gives them
(tests/browser/firefox.py), in the third as desktop Firefox ships (`DESKTOP`: mDNS names).

The first two play a whole game: the page places through its accessibility layer, the app
by the line protocol of `hotseat host`/`join` (`legal`, then an action, going forward); at
the end the page's result and the app's `outcome` agree and the page logged no error.

Printed as bench figures, not checked: an action's round trip over the data channel,
median and max (the app's own measure when it joins, the page's when it hosts), and the
pairing times.

    tests/browser/rtc_app.py SITE_DIR HOTSEAT_BINARY [--only=joins|hosts|resolves]
                             [--engine=chromium|firefox]                   (as root)
"""
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from rtc import NS, Page, RESULT, log, scanned, setup, teardown, dump_traces  # noqa: E402


class App:
    """`hotseat rtc-join` or `rtc-host` in a namespace, one line in, its lines out."""

    def __init__(self, binary, work, side, args):
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", NS[side], binary] + args,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=dict(os.environ, HOTSEAT_DATA_DIR=os.path.join(work, "app-data")))
        self.lines = queue.Queue()
        self.said = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def line(self, timeout=30):
        try:
            got = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the app said nothing for {timeout} s; before: {self.said[-10:]}")
        if got is None:
            raise AssertionError(f"the app ended; it said: {self.said[-20:]}")
        self.said.append(got)
        return got

    def until(self, pattern, timeout=30):
        """Lines up to the first matching `pattern`; returns (it, the lines before)."""
        before = []
        deadline = time.time() + timeout
        while True:
            line = self.line(max(0.1, deadline - time.time()))
            if re.search(pattern, line):
                return line, before
            before.append(line)

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired, ValueError, OSError):
            self.proc.kill()


def app_move(app, trips, outcome, white):
    """The app's seat plays one action if it has one: a placement going forward (White
    sits at row 0 and goes up, Black the other way), else a discard. Returns what
    happened."""
    app.send("legal")
    _, actions = app.until(r"^(ok|error)")
    actions = [a for a in actions if not a.startswith("# ")]
    places = [a for a in actions if a.startswith("place ")]
    if not actions:
        return "none"
    if places:
        row = lambda a: int(re.search(r"@\d+,(\d+)", a).group(1))
        action = max(places, key=row) if white else min(places, key=row)
    else:
        action = actions[0]
    app.send(action)
    answer, said = app.until(r"^(ok|error)")
    for line in said + [answer]:
        m = re.match(r"# round trip ([\d.]+) ms", line)
        if m:
            trips.append(float(m.group(1)))
        m = re.match(r"# outcome (.+)", line)
        if m:
            outcome.append(m.group(1))
    if answer.startswith("error"):
        # The host's reply to another action may have come first (the game ended).
        outcome.extend(re.findall(r"# outcome (.+)", "\n".join(said)))
    return f"{action}: {answer}"


def play(page, app, app_white):
    """Both seats in turn until the game ends; the page's result and the app's outcome
    must agree. Returns the app's round trips (empty when it hosts: it acts locally)."""
    trips, outcome, idle = [], [], 0
    for n in range(400):
        done = [page.do("move", advance=True)]
        if "over" in done or outcome:
            break
        done.append(app_move(app, trips, outcome, app_white))
        if outcome or RESULT.search(" ".join(page.do("words"))):
            break
        if all(d == "none" for d in done):
            idle += 1
            assert idle < 20, "neither seat could place or discard for 20 rounds"
            time.sleep(0.5)
        else:
            idle = 0
    else:
        raise AssertionError("the game did not end in 400 rounds")
    result = page.do("wait", pattern=RESULT.pattern, wait=15)
    app.send("outcome")
    said, _ = app.until(r"^outcome ")
    said = said.split(" ", 1)[1]
    page_seat, app_seat = (1, 0) if app_white else (0, 1)
    expected = {"You win!": f"win {page_seat}", "The other phone wins": f"win {app_seat}", "A draw": "draw"}
    shown = RESULT.search(result).group(0)
    log(f"the game ended: the page says '{shown}', the app 'outcome {said}'")
    assert expected[shown] == said, f"the page says '{shown}', the app 'outcome {said}'"
    errors = page.do("errors")
    assert not errors, f"errors in the page: {errors}"
    return trips


def summary(what, trips):
    trips = sorted(trips)
    log(f"round trip, {what}, over the data channel across the namespaces, {len(trips)} actions: "
        f"median {trips[len(trips) // 2]:.1f} ms, max {trips[-1]:.1f} ms")


class Ends:
    """The page and the app of one run (the app, once started, set as `app`):
    on a failure the app's last lines and the page's WebRTC trace are printed; both
    are ended after, failed or not."""

    def __init__(self, page):
        self.page, self.app = page, None

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        try:
            if kind is not None:
                if self.app is not None:
                    print("\n".join("  [app] " + line for line in self.app.said[-40:]), flush=True)
                dump_traces(self.page)
        finally:
            if self.app is not None:
                self.app.quit()
            self.page.quit()
        return False


def app_joins(site, binary, work, engine):
    """The page hosts, the app joins (the offer pasted into the app, its answer typed)."""
    with Ends(Page("host", site, work, engine)) as ends:
        page = ends.page
        page.do("open", timeout=300)
        page.do("press", role="button", name="Omiga")
        page.do("press", role="button", name="Host a game on two devices")
        offer = page.do("desc", role="generic", name="Pairing text of this phone", prefix="HS2O", wait=60)
        log(f"{engine}'s offer ({len(offer)} characters): {offer[:40]}…")
        app = ends.app = App(binary, work, "join", ["rtc-join"])
        app.until(r"^# paste the offer")
        app.send(offer)
        answer, _ = app.until(r"^(answer|error) ")
        assert answer.startswith("answer HS2A"), answer
        answer = answer.split(" ", 1)[1]
        log(f"the app's answer ({len(answer)} characters): {answer[:40]}…")
        typed = time.time()
        page.do("type", name="2. The other phone's answer", text=answer)
        page.do("press", role="button", name="Use the answer")
        joined, _ = app.until(r"^joined seat", timeout=30)
        log(f"the app joined {time.time() - typed:.2f} s after the answer was typed ({joined})")
        page.do("wait", pattern=r"^Play! You are|Discard hand|may place here", wait=30)
        time.sleep(3.5)  # the countdown
        trips = play(page, app, app_white=False)
        assert trips, "the app measured no round trip"
        summary(f"the app's action to {engine}'s answer (the app joins)", trips)


def app_hosting_page_joining(ends, binary, work):
    """The page opens Omiga's Join under Two phones, and `rtc-host` starts (set in `ends`);
    returns the page, the app and the app's offer text."""
    page = ends.page
    page.do("open", timeout=300)
    page.do("press", role="button", name="Omiga")
    page.do("press", role="button", name="Join a game on two devices")
    app = ends.app = App(binary, work, "host", ["rtc-host", "--countdown", "3"])
    offer, _ = app.until(r"^offer ")
    offer = offer.split(" ", 1)[1]
    log(f"the app's offer ({len(offer)} characters): {offer[:40]}…")
    return page, app, offer


def paste_offer(page, offer):
    """The joining page takes the offer in by paste, not by its camera."""
    page.do("type", name="1. The hosting phone's pairing text", text=offer)
    page.do("press", role="button", name="Use this text")


def app_hosts(site, binary, work, engine):
    """The app hosts, the page joins: Chromium's camera reads the app's offer (as a phone
    scanning the kiosk's screen; scanning also gives the page its camera permission, so its
    answer carries its address, which the app checks), Firefox has it pasted; the page's
    answer goes to the app's input."""
    with Ends(Page("join", site, work, engine)) as ends:
        page, app, offer = app_hosting_page_joining(ends, binary, work)
        if engine == "chromium":
            took = scanned(page, offer)
            log(f"the page's camera read the app's offer in {took:.2f} s")
        else:
            paste_offer(page, offer)
        answer = page.do("desc", role="generic", name="Pairing text of this phone", prefix="HS2A", wait=30)
        given = time.time()
        app.send(answer)
        paired, _ = app.until(r"^(# paired in|error)", timeout=30)
        assert paired.startswith("# paired"), paired
        page.do("wait", pattern=r"^Play! You are|Discard hand|may place here", wait=30)
        log(f"the page's table is up {time.time() - given:.2f} s after its answer reached the app ({paired[2:]})")
        time.sleep(3.5)  # the countdown
        play(page, app, app_white=True)
        summary(f"{engine}'s action to the app's answer (the page's own measure; the app hosts)",
                page.do("round_trips"))


def app_resolves(site, binary, work, engine):
    """The app hosts and the joining page pastes its offer instead of scanning it: the
    page has no camera permission (its Chromium starts without the flag that grants it;
    Firefox with its shipped settings), so the engine hides its address behind an mDNS
    name (`<uuid>.local`, its default; no flag turns that off) and its answer carries only
    that name, as iOS Safari's, desktop Chrome's or desktop Firefox's would. The app finds
    the address by an mDNS query across the namespaces, which the page's own browser
    answers, and pairs; then two cards each way (the other two cases play whole games)."""
    with Ends(Page("join", site, work, engine, camera_granted=False)) as ends:
        page, app, offer = app_hosting_page_joining(ends, binary, work)
        paste_offer(page, offer)
        answer = page.do("desc", role="generic", name="Pairing text of this phone", prefix="HS2A", wait=30)
        given = time.time()
        app.send(answer)
        said, _ = app.until(r"^# the answer's candidates: ")
        candidates = said.split(": ", 1)[1].split()
        assert candidates and all(re.fullmatch(r"[0-9a-f-]{36}\.local:\d+", c) for c in candidates), \
            f"the pasting page's answer should carry only mDNS names: {candidates}"
        local = [line for line in page.do("trace") if "local candidate" in line]
        # (Firefox ends its candidates with an empty one, traced as null:null, then null.)
        assert local and all(".local:" in line or line.endswith((" end", " null:null")) for line in local), local
        log(f"the page's answer carries only mDNS names: {' '.join(candidates)}")
        paired, before = app.until(r"^(# paired in|error)", timeout=30)
        assert paired.startswith("# paired"), paired
        # The app's note (its standard error) may come before or after the candidates line.
        found = [line for line in app.said if "mDNS:" in line]
        assert found, f"the app paired without resolving the name: {app.said[-10:]}"
        log(f"the app resolved it: {found[0].split('mDNS: ', 1)[1]}; {paired[2:]} after taking the answer in")
        page.do("wait", pattern=r"^Play! You are|Discard hand|may place here", wait=30)
        log(f"the page's table is up {time.time() - given:.2f} s after its answer reached the app")
        time.sleep(3.5)  # the countdown
        # Two cards (or discards) each way is enough to show the link carries the game.
        outcome, played, app_did, page_did = [], [], 0, 0
        for _ in range(20):
            if app_did >= 2 and page_did >= 2:
                break
            did = [app_move(app, [], outcome, white=True), page.do("move", advance=False)]
            played += [d for d in did if d != "none"]
            app_did += did[0].endswith(": ok")
            page_did += did[1].startswith(("placed", "discarded"))
            if did == ["none", "none"]:
                time.sleep(0.3)
        assert app_did >= 2 and page_did >= 2, f"too few moves over the link: {played}"
        errors = page.do("errors")
        assert not errors, f"errors in the page: {errors}"
        log(f"both seats played over the resolved link: {', '.join(played)}")


def main():
    site, binary = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")), None)
    engine = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--engine=")), "chromium")
    for name, run in (("joins", app_joins), ("hosts", app_hosts), ("resolves", app_resolves)):
        if only and only != name:
            continue
        started = time.time()
        setup()
        work = tempfile.mkdtemp(prefix="hotseat-rtc-app-")
        try:
            run(site, binary, work, engine)
        finally:
            shutil.rmtree(work, ignore_errors=True)
            teardown()
        log(f"the app {name} {engine}: passed in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
