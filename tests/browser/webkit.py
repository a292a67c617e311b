#!/usr/bin/python3
"""Hotseat in WebKit, the engine of every iPhone and iPad browser: WebKitGTK's MiniBrowser,
driven through WebKitWebDriver on an X display of its own (Xvfb), its page 412x915.

The same site and the same checks as the Chromium test (tests/browser/play.py, through
tests/browser/common.py), judged by what WebKit draws: the page loads with no error and its
home screen looks like the native one; a game against the app is started and the cover
comes; a reload gives Continue, behind the cover; a whole IOTA game is played to its end
by taps and lands in the history; a damaged save is kept aside with its notice; with the
server stopped, the page starts from the service worker's copy (WebKit runs service
workers only for a secure origin: the site is opened as `localhost`); there, a tap on a
name field focuses a text field of the page and what is typed becomes the player's name.
Last, a start that fails says why: with WebGL refused to the app's canvas, the page shows
the panic's own message after "Hotseat could not start:", and the test reads it back from
the page's kept errors (as it prints them whenever the page cannot start).
Taps are WebDriver pointer actions of the touch kind (WebKitGTK hands them to the page
as a mouse's); the browser's window is given the focus, as a phone's foreground app has. WebKit's driver has no console log: the page keeps its
errors (`KEEP_ERRORS`, put in its head by the test's server) and the test reads them back.

    tests/browser/webkit.py SITE_DIR HOTSEAT_BINARY [--shots DIR]
"""
import sys
import time

from selenium.common.exceptions import InvalidSessionIdException, WebDriverException

from common import (KEEP_ERRORS, Site, WebKitPhone, Xvfb, damaged_save, first_visit, game_to_history,
                    log, offline, run, webkit)

# Refuses WebGL to the app's canvas only (index.html's own probe still gets it): Slint then
# panics at the start, as a WebGL context that cannot be made would make it.
NO_WEBGL_FOR_THE_APP = """
(() => {
  const get = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    return this.id === 'canvas' && String(kind).startsWith('webgl') ? null : get.call(this, kind, ...rest);
  };
})();
"""


def typed_name(phone, url):
    """The phone's keyboard: a tap on a name field gives the focus to a text field of the
    page (Slint's hidden `<input>`: what brings up a phone's keyboard, and on iOS only
    when it is focused during the tap itself), and what is typed there becomes the
    player's name: the new game's save carries it."""
    phone.open(url)
    phone.tap("IOTA")
    phone.tap("Player 1 name", mirror=False)
    focused = phone.d.execute_script(
        "const e = document.activeElement; return e ? [e.tagName, e.type || ''] : null")
    log("after the tap on the name field the page's focus is on", focused)
    assert focused and focused[0] == "INPUT", f"no text field took the focus: {focused}"
    phone.d.switch_to.active_element.send_keys("Anna")
    time.sleep(0.5)
    phone.picture("typed-name")
    phone.tap("Start")
    save = phone.storage("current-game.json")
    assert save and "Anna" in save, f"the typed name is not in the new game's save: {save and save[:300]}"
    log("the typed name is in the save")
    phone.no_errors()


def failed_start_says_why(phone, root):
    """A start that fails names its cause: the panic's message, not only wasm's
    "Unreachable code", in the page's words (what a player's bug report quotes) and in the
    errors the test prints. Its own origin (a server on another port): storage of its own."""
    broken = Site(root, "localhost", KEEP_ERRORS + NO_WEBGL_FOR_THE_APP)
    try:
        phone.d.get(broken.url)
        try:
            phone.wait_started()
        except AssertionError as e:
            said = str(e)
        else:
            raise AssertionError("the app started without WebGL")
    finally:
        broken.close()
    log("a failed start reads:", said)
    assert "could not start: Cannot proceed without WebGL" in said.splitlines()[0], said
    assert "Unreachable" not in said.splitlines()[0], said
    assert "page error: console.error: hotseat: panicked at" in said, said


def crashed(driver):
    """Whether WebKit's web process has crashed: the driver says so (only) to the first
    command after the crash. A crash while a command was under way (a script the page was
    running) gives that command "Could not parse script result" instead; the next one then
    says "session deleted because of page crash or hang"."""
    try:
        driver.execute_script("return 1")
    except InvalidSessionIdException as e:
        return (e.msg or "").strip()
    except WebDriverException:
        pass
    return None


def checks(phone, site, data, args):
    try:
        all_checks(phone, site, data, args)
    except InvalidSessionIdException:
        raise
    except WebDriverException as e:
        # Asked before the driver is closed; anything but a crash goes on as it was.
        said = crashed(phone.d)
        if said and "crash" in said:
            raise InvalidSessionIdException(f"{said} (after: {(e.msg or '').strip()})") from e
        raise


def all_checks(phone, site, data, args):
    agent = phone.d.execute_script("return navigator.userAgent")
    log("user agent:", agent)
    assert "AppleWebKit" in agent and "Chrome" not in agent, agent
    first_visit(phone, site.url)
    game_to_history(phone)
    damaged_save(phone, data)
    offline(phone, site)
    # Still from the service worker's copy, the server gone.
    typed_name(phone, site.url)
    failed_start_says_why(phone, args.site)


# The exit status when WebKit's web process crashed (EX_TEMPFAIL): .ci/webkit runs the test
# again from a fresh browser. Seen here in about half the runs: a segfault in Mesa's
# software GL (swrast_dri.so) on WebKit's compositor thread, mid-game; once also a
# segfault in JavaScriptCore during a page load (docs/web.md).
CRASHED = 75


def main():
    display = Xvfb()
    try:
        return run("webkit", lambda work: (webkit(), WebKitPhone), checks, host="localhost", inject=KEEP_ERRORS)
    except InvalidSessionIdException as e:
        if "crash" not in str(e):
            raise
        log("WebKit's web process crashed:", str(e).strip())
        return CRASHED
    finally:
        display.close()


if __name__ == "__main__":
    sys.exit(main())
