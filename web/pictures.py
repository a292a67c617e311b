#!/usr/bin/python3
"""Browser screenshots for the README: the web build in headless Chromium at phone
portrait (412x915, touch) and tablet landscape (1280x800), on the home screen and in a
game of IOTA against the app (positions from `hotseat mirror`, as in the browser test).

    web/pictures.py SITE_DIR HOTSEAT_BINARY OUT_DIR
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "browser"))
from common import ChromiumPhone as Phone, Mirror, Site, chromium  # noqa: E402

SIZES = {"phone": (412, 915), "tablet": (1280, 800)}


def main():
    site_dir, binary, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    for name, size in SIZES.items():
        work = tempfile.mkdtemp(prefix="hotseat-pictures-")
        site = Site(site_dir)
        mirror = Mirror(binary, os.path.join(work, "data"), size)
        driver = chromium(os.path.join(work, "profile"), size, touch=(name == "phone"))
        try:
            phone = Phone(driver, mirror, work)
            driver.get(site.url)
            phone.wait_started()
            driver.save_screenshot(os.path.join(out, f"web-home-{name}-en.png"))
            phone.tap("IOTA")
            phone.tap("Player 2: the app, medium")
            phone.tap("Start")
            phone.tap(", tap to reveal", prefix=True)
            time.sleep(1.5)
            driver.save_screenshot(os.path.join(out, f"web-iota-{name}-en.png"))
            print(name, "done")
        finally:
            driver.quit()
            mirror.close()
            site.close()


if __name__ == "__main__":
    sys.exit(main())
