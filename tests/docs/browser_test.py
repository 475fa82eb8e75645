#!/usr/bin/python3
"""The built site in a real browser: headless chromium (scripts/
symwalk/site_browser.py) opens every page of build/docs/html from file:// URLs, on
a laptop's 1280x800 and on a phone's 390x844. On each page: nothing wider
than the screen; on the phone, zooming allowed; every top-level page's link in the navigation can be
brought into view (by scrolling the navigation, or the page); every picture
drawn at its natural size or larger, its smallest text at least the size
of the text around it, and on the laptop within the page's column; on the laptop,
every stepper of a walk steps through all its states with the arrow keys,
and the navigation marks the page in view (bold); every code block has
its copy button, and on the laptop the first one's click puts the
block's text on the clipboard; in dark mode, the first picture stays on a
light panel on a dark page; no JavaScript error. KTAP."""
import glob
import os
import re
import sys
from urllib.parse import unquote, urlparse

from symwalk.layout import BUILD
from taplib import check, done

try:
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from symwalk.site_browser import SCREENS, browser, set_screen
except ImportError:
    print("Bail out! selenium is missing: scripts/deps.sh chromium chromium-driver "
          "python3-selenium installs it, for /usr/bin/python3")
    sys.exit(1)

HTML = os.path.join(BUILD, "docs", "html")
PT_PX = 4.0 / 3.0

# Each link of the navigation's first level: can it be brought into view,
# and is it then the element at the middle of its first line (not covered,
# not clipped)?
NAV_REACHABLE = """
const unreachable = [];
for (const link of document.querySelectorAll('div.sphinxsidebar li.toctree-l1 > a')) {
    window.scrollTo(0, 0);
    link.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = link.getClientRects()[0] || link.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 10), y = r.top + r.height / 2;
    const shown = r.width > 0 && y >= 0 && y < window.innerHeight &&
        x >= 0 && x < document.documentElement.clientWidth;
    const hit = shown ? document.elementFromPoint(x, y) : null;
    if (!hit || !(hit === link || link.contains(hit)))
        unreachable.push(link.textContent.trim());
}
window.scrollTo(0, 0);
return [document.querySelectorAll('div.sphinxsidebar li.toctree-l1 > a').length, unreachable];
"""

# Each picture in view (a stepper's states but its current one are not):
# its SVG, the width it is drawn at, and that of the page's column of text.
PICTURES = """
return Array.from(document.querySelectorAll('object.graphviz')).filter(function (p) {
    return !p.closest('div.stepper-state:not(.current)');
}).map(function (p) {
    const column = p.closest('div.body'), style = getComputedStyle(column);
    return [p.data, p.getBoundingClientRect().width, column.clientWidth -
            parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
            parseFloat(style.fontSize)];
});
"""

# The navigation's link to the page in view, if it has one: is it bold?
CURRENT_MARKED = """
const link = document.querySelector('div.sphinxsidebar a.current');
return link ? parseInt(getComputedStyle(link).fontWeight) >= 600 : null;
"""

WIDTH = "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];"
# The page's viewport tags: a maximum-scale under 5 or user-scalable=no
# keeps a phone's reader from zooming into a picture.
VIEWPORTS = ("return Array.from(document.querySelectorAll('meta[name=viewport]'))"
             ".map(m => m.content);")
ZOOM_BLOCKED = re.compile(r"user-scalable\s*=\s*(no|0)|maximum-scale\s*=\s*([0-4](\.\d*)?)(\D|$)")

# A stepper's states, the position it says it shows, and the trace lines in
# view (the current state's alone, if it works).
STEPPER_SHOWN = """
const stepper = arguments[0];
return [stepper.querySelectorAll('div.stepper-state').length,
        stepper.querySelector('output.stepper-position').textContent,
        Array.from(stepper.querySelectorAll('pre.stepper-event'))
            .filter(e => e.getClientRects().length).map(e => e.textContent)];
"""
# The same after each of the keys given, pressed on the stepper in the
# page: one round trip to the browser for a whole walk, not two a key.
STEPPER_WALKED = """
const stepper = arguments[0], shown = [];
const look = () => [stepper.querySelector('output.stepper-position').textContent,
                    Array.from(stepper.querySelectorAll('pre.stepper-event'))
                        .filter(e => e.getClientRects().length).map(e => e.textContent)];
shown.push(look());
for (const key of arguments[1]) {
    stepper.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true}));
    shown.push(look());
}
return shown;
"""


def stepper_fault(driver, stepper):
    """What is wrong with a stepper stepped by the keyboard, from its first
    state ArrowRight to its last, then ArrowLeft back to its first: each key
    must show the next (previous) state, its position and its trace line
    changed, one line in view; None if nothing is. The first step is a key
    the browser itself delivers to the focused stepper; the rest of the
    walk, keydown events sent to it in the page, one round trip for all."""
    count, position, events = driver.execute_script(STEPPER_SHOWN, stepper)
    if count < 1:
        return "no state"
    shown = [(position, events)]
    if count > 1:
        stepper.send_keys(Keys.ARROW_RIGHT)
        keys = ["ArrowRight"] * (count - 2) + ["ArrowLeft"] * (count - 1)
        shown += driver.execute_script(STEPPER_WALKED, stepper, keys)
    order = [1] + list(range(2, count + 1)) + list(range(count - 1, 0, -1))
    last_event = None
    for (position, events), expected in zip(shown, order):
        want = "state {} of {}".format(expected, count)
        if position != want:
            return "says {!r} where {!r} is due".format(position, want)
        if len(events) != 1:
            return "{}: {} trace lines in view".format(want, len(events))
        if events[0] == last_event:
            return "{}: the trace line did not change: {}".format(want, events[0])
        last_event = events[0]
    if len(shown) != len(order):
        return "{} states shown of the {} due".format(len(shown), len(order))
    return None


def copy_fault(driver):
    """What is wrong with a click on the page's first copy button in view
    (not in a closed fold): the clipboard must then hold its code block's
    text. "" if nothing is, None if no button is in view."""
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('button.copy-code'))"
        ".filter(b => !b.closest('details:not([open])') && b.getClientRects().length);")
    if not shown:
        return None
    button = shown[0]
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    try:
        button.click()
    except WebDriverException as e:
        return "the click failed: " + str(e).splitlines()[0]
    said, copied = driver.execute_async_script(COPIED, button)
    block = driver.execute_script("return arguments[0].nextElementSibling.textContent;", button)
    if copied != block:
        return ("the button says {!r}; the clipboard holds {} characters, {!r}, not the "
                "block's {}, {!r}".format(said, len(copied or ""), copied and copied[:60],
                                           len(block), block[:60]))
    return ""


def luminance(rgb):
    """The lightness, 0 to 1, of a computed colour: rgb(r, g, b)."""
    r, g, b = (int(v) for v in re.findall(r"\d+", rgb)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def dark_fault(driver):
    """What is wrong with the page in dark mode: its background must be
    dark, its first picture's panel white. None if nothing is."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        page, panel = driver.execute_script(DARK_COLOURS)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    if luminance(page) > 0.3 or luminance(panel) < 0.95:
        return "the page's background is {}, the picture's panel {}".format(page, panel)
    return None


def svg_metrics(url):
    """An SVG's natural width in px and its smallest font size in pt."""
    with open(unquote(urlparse(url).path)) as f:
        text = f.read()
    width = re.search(r'<svg[^>]*\swidth="([\d.]+)pt"', text)
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', text)]
    return float(width.group(1)) * PT_PX, min(sizes) if sizes else None


# The code blocks, and those without the copy button symwalk.js adds.
COPY_BUTTONS = """
const blocks = document.querySelectorAll('div.highlight > pre');
return [blocks.length, Array.from(blocks).filter(pre => !(pre.previousElementSibling &&
    pre.previousElementSibling.matches('button.copy-code'))).length];
"""

# The six above in one round trip to the browser.
PAGE_LAYOUT = "return [{}];".format(", ".join(
    "(function () {{ {} }})()".format(script)
    for script in (VIEWPORTS, WIDTH, NAV_REACHABLE, PICTURES, CURRENT_MARKED, COPY_BUTTONS)))

# After a click on a copy button: what the button says once it has an
# answer (at most 2 s later) and what the clipboard then holds (headless
# chromium's own clipboard, not the desktop's).
COPIED = """
const button = arguments[0], done = arguments[arguments.length - 1], start = Date.now();
(function wait() {
    if (button.textContent === 'copy' && Date.now() - start < 2000)
        return setTimeout(wait, 10);
    navigator.clipboard.readText().then(text => done([button.textContent, text]),
                                        e => done([button.textContent, null]));
})();
"""

# In dark mode: the page's background, and that of the panel of its first
# picture (an SVG drawn on white), as rgb() strings.
DARK_COLOURS = """
const panel = document.querySelector('object.graphviz').closest('div.graphviz');
return [getComputedStyle(document.body).backgroundColor, getComputedStyle(panel).backgroundColor];
"""


class Findings:
    """What is wrong on one screen, by kind, over every page."""

    def __init__(self):
        self.too_wide, self.nav_missing, self.shrunk, self.overflowing = [], [], [], []
        self.zoom_blocked, self.errors, self.stepper_faults = [], [], []
        self.steppers = 0
        self.current_marked, self.current_unmarked = 0, []
        self.code_blocks, self.copy_missing = 0, []
        self.copy_fault = self.dark_fault = None


def look_at_page(driver, name, screen_width, phone, found):
    """The page loaded in driver, laid out on one screen: its findings."""
    viewports, (wide, view), (count, unreachable), pictures, marked, (blocks, no_copy) = \
        driver.execute_script(PAGE_LAYOUT)
    found.code_blocks += blocks
    if no_copy:
        found.copy_missing.append("{}: {} of {} code blocks".format(name, no_copy, blocks))
    found.zoom_blocked += ["{}: {}".format(name, tag) for tag in viewports
                           if ZOOM_BLOCKED.search(tag)]
    # A page laid out wider than the screen (its viewport tag ignored, the
    # emulation not applied) hides what the other checks look for.
    if wide > view or view != screen_width:
        found.too_wide.append("{}: {} px wide in {}, on a {} px screen".format(
            name, wide, view, screen_width))
    if count == 0 or unreachable:
        found.nav_missing.append("{}: {} of {} out of reach: {}".format(
            name, len(unreachable), count, ", ".join(unreachable)))
    for url, drawn, column, body_px in pictures:
        natural, smallest = svg_metrics(url)
        scale = drawn / natural
        text_px = smallest * PT_PX * scale if smallest else body_px
        picture = "{}: {}".format(name, os.path.basename(url))
        if scale < 0.99 or text_px < body_px - 0.05:
            found.shrunk.append("{} drawn at {:.2f} of its size, smallest text "
                                "{:.1f} px, the page's {:.1f} px".format(
                                    picture, scale, text_px, body_px))
        if not phone and drawn > column + 0.5:
            found.overflowing.append("{} is {:.0f} px wide, its column {} px".format(
                picture, drawn, column))
    if not phone:
        found.current_marked += marked is not None
        if marked is False:
            found.current_unmarked.append(name)
        for n, stepper in enumerate(driver.find_elements(
                By.CSS_SELECTOR, "div.symwalk-stepper"), 1):
            found.steppers += 1
            fault = stepper_fault(driver, stepper)
            if fault:
                found.stepper_faults.append("{}: stepper {}: {}".format(name, n, fault))
        # Once a run: the first page with a code block, the first with a picture.
        if blocks and found.copy_fault is None:
            fault = copy_fault(driver)
            if fault is not None:
                found.copy_fault = "{}: {}".format(name, fault) if fault else ""
        if pictures and found.dark_fault is None:
            fault = dark_fault(driver)
            found.dark_fault = "{}: {}".format(name, fault) if fault else ""
    found.errors += ["{}: {}".format(name, entry["message"])
                     for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def report(screen, phone, found):
    check("{}: no page is wider than the screen".format(screen), not found.too_wide,
          "\n".join(found.too_wide))
    if phone:
        check("{}: no page keeps the reader from zooming".format(screen),
              not found.zoom_blocked, "\n".join(found.zoom_blocked))
    check("{}: every top-level page's link in the navigation can be brought into "
          "view".format(screen), not found.nav_missing, "\n".join(found.nav_missing))
    check("{}: every picture at its natural size or more, its text at least the "
          "page's".format(screen), not found.shrunk, "\n".join(found.shrunk))
    if not phone:
        check("{}: every picture within the page's column, no sideways "
              "scroll".format(screen), not found.overflowing, "\n".join(found.overflowing))
        check("{}: the navigation marks the page in view, on the {} pages it "
              "lists".format(screen, found.current_marked),
              found.current_marked > 0 and not found.current_unmarked,
              "\n".join(found.current_unmarked))
        check("{}: each of the {} steppers steps through all its states with the "
              "arrow keys and back".format(screen, found.steppers),
              found.steppers > 0 and not found.stepper_faults,
              "\n".join(found.stepper_faults))
    check("{}: each of the {} code blocks has its copy button".format(screen, found.code_blocks),
          found.code_blocks > 0 and not found.copy_missing, "\n".join(found.copy_missing))
    if not phone:
        check("{}: a copy button puts its code block on the clipboard".format(screen),
              found.copy_fault == "", found.copy_fault or "no page has a code block")
        check("{}: in dark mode the page is dark, its pictures on a white panel".format(screen),
              found.dark_fault == "", found.dark_fault or "no page has a picture")
    check("{}: no JavaScript error on any page".format(screen), not found.errors,
          "\n".join(found.errors))


def main():
    pages = sorted(glob.glob(os.path.join(HTML, "**", "*.html"), recursive=True))
    if not pages:
        print("Bail out! {} has no pages: make docs builds them".format(HTML))
        sys.exit(1)
    try:
        driver = browser()
    except WebDriverException as e:
        print("Bail out! chromium did not start: {}".format(str(e).splitlines()[0]))
        sys.exit(1)
    findings = {screen: Findings() for screen, _, _, _ in SCREENS}
    try:
        # Each page loaded once and laid out on each screen in turn: a
        # change of screen lays the page out again as a load would. Every
        # other page takes the screens the other way round, so that it
        # loads on the screen the page before it ended on.
        shown = None
        for n, page in enumerate(pages):
            name = os.path.relpath(page, HTML)
            driver.get("file://" + page)
            for screen, width, height, phone in SCREENS[::-1] if n % 2 else SCREENS:
                if shown != screen:
                    set_screen(driver, width, height, phone)
                    shown = screen
                look_at_page(driver, name, width, phone, findings[screen])
    finally:
        driver.quit()
    for screen, _, _, phone in SCREENS:
        report(screen, phone, findings[screen])
    done()


if __name__ == "__main__":
    main()
