"""Debian's headless chromium, driven by selenium, for the built site
(tests/docs/browser_test.py, scripts/docs_screenshot.py). Selenium is
Debian's python3-selenium: only /usr/bin/python3 loads it."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# A laptop's screen, and a phone's (emulated as a phone: the page's
# viewport tag applies, and the page is laid out 390 px wide, which a
# headless window narrower than 500 px is not).
SCREENS = [("1280x800", 1280, 800, False), ("390x844", 390, 844, True)]


def browser():
    """A headless chromium that keeps its console's messages, offline."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # A window that holds every screen: each is then emulated in it, which
    # costs a layout, not a window's resize.
    driver.set_window_size(max(width for _, width, _, _ in SCREENS),
                           max(height for _, _, height, _ in SCREENS) + 200)
    return driver


def set_screen(driver, width, height, phone):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})
