#!/usr/bin/python3
"""How often the site fails to start in WebKit: loads its first page N times, each in a
fresh MiniBrowser (and so with fresh storage, as tests/browser/webkit.py's first visit),
and counts the outcomes, printing each failure with what the page said and the errors it
kept (a panic's message among them). For a start failure too rare to meet in one run of
the test (docs/web.md, "Tested in WebKit"). No mirror is needed.

    tests/browser/webkit_starts.py SITE_DIR [N] [--fresh]

--fresh: also a new X server, a new server for the site (a new port: a new origin) and an
empty cache folder (Mesa's shader cache starts cold) for each load, as a first run of
webkit.py on a new machine has.
"""
import argparse
import collections
import os
import shutil
import sys
import tempfile
import time

from common import KEEP_ERRORS, Site, WebKitPhone, Xvfb, webkit


def serve(root):
    """The site, quiet about the connections a browser quit mid-download leaves (its
    service worker fetches the whole site once the first frame is drawn)."""
    site = Site(root, "localhost", KEEP_ERRORS)
    site.server.handle_error = lambda *_: None
    return site


def main():
    args = argparse.ArgumentParser()
    args.add_argument("site")
    args.add_argument("n", nargs="?", type=int, default=50)
    args.add_argument("--fresh", action="store_true")
    a = args.parse_args()
    display, site = Xvfb(), serve(a.site)
    outcomes = collections.Counter()
    try:
        for i in range(a.n):
            cache = None
            if a.fresh:
                display.close()
                site.close()
                display, site = Xvfb(), serve(a.site)
                cache = tempfile.mkdtemp(prefix="hotseat-webkit-cache-")
                os.environ["XDG_CACHE_HOME"] = cache
            began, driver = time.time(), None
            try:
                driver = webkit()
                driver.get(site.url)
                WebKitPhone(driver, None, None).wait_started()
                outcome, detail = "started", ""
            except AssertionError as e:
                outcome, _, detail = str(e).partition("\n")
            except Exception as e:  # the browser's own trouble (no start to judge)
                outcome, detail = f"browser: {type(e).__name__}: {str(e).strip()[:200]}", ""
            finally:
                if driver:
                    try:
                        driver.quit()
                    except Exception:
                        pass
                if cache:
                    shutil.rmtree(cache, ignore_errors=True)
            outcomes[outcome] += 1
            print(f"{i + 1}/{a.n} {time.time() - began:.1f} s: {outcome}", flush=True)
            if detail:
                print(detail, flush=True)
    finally:
        site.close()
        display.close()
    print("outcomes:", flush=True)
    for outcome, n in outcomes.most_common():
        print(f"  {n} × {outcome}")
    return 0 if set(outcomes) == {"started"} else 1


if __name__ == "__main__":
    sys.exit(main())
