#!/usr/bin/python3
"""make docs-screenshot: the landing page, lab 06 and the stack page of the
built site on a laptop (1280x800) and a phone (390x844), as PNGs in
build/docs/: NAME-WIDTHxHEIGHT.png. The landing page from its top; lab 06
and the stack page scrolled to their first picture, what they are read
for."""
import os
import sys

from selenium.common.exceptions import WebDriverException

from symwalk.layout import BUILD, TOP
from symwalk.site_browser import SCREENS, browser, set_screen

DOCS = os.path.join(BUILD, "docs")
# (name, page, the element to scroll to the top of the screen, if any)
PAGES = [("index", "index.html", None), ("lab06", "labs/06-nesting.html", "object.graphviz"),
         ("stack", "stack.html", "object.graphviz")]


def main():
    missing = [page for _, page, _ in PAGES if not os.path.exists(os.path.join(DOCS, "html", page))]
    if missing:
        print("docs-screenshot: {} not built: make docs".format(", ".join(missing)),
              file=sys.stderr)
        return 1
    try:
        driver = browser()
    except WebDriverException as e:
        print("docs-screenshot: chromium did not start: {}".format(str(e).splitlines()[0]),
              file=sys.stderr)
        return 1
    try:
        for screen, width, height, phone in SCREENS:
            set_screen(driver, width, height, phone)
            for name, page, shown in PAGES:
                driver.get("file://" + os.path.join(DOCS, "html", page))
                if shown:
                    driver.execute_script(
                        "document.querySelector(arguments[0]).scrollIntoView()", shown)
                out = os.path.join(DOCS, "{}-{}.png".format(name, screen))
                if not driver.save_screenshot(out):
                    print("docs-screenshot: chromium could not take " + out, file=sys.stderr)
                    return 1
                print("docs-screenshot: {} ({} at {})".format(
                    os.path.relpath(out, TOP), page, screen))
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
