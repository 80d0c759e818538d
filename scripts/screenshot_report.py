"""Screenshots of the HTML verification report, so a reader can see it without a run.

Usage (after ``mltheory verify``, which writes ``verification-report.html``)::

    python scripts/screenshot_report.py [REPORT.html] [--out DIR] [--claim ID] [--browser PATH]

writes three PNG files into DIR (default ``screenshots/``):

- ``report-top.png``: the top of the page (summary bar, filters, navigation);
- ``report-erratum.png``: the first erratum (as the note says / what is wrong /
  counterexample / corrected claim);
- ``report-plot.png``: the first claim that has a plot, or the claim ``--claim ID``.

It needs the ``playwright`` Python package (in the test extras: ``pip install -e
".[test]"``) and a
Chromium binary installed by the system (Debian: ``apt-get install chromium``); it
never downloads a browser. ``--browser`` or ``$MLTHEORY_CHROMIUM`` name the binary,
otherwise ``chromium``, ``chromium-browser`` or ``google-chrome`` on PATH is used.
The notes' Chinese section marks (§二) need a CJK font on the machine (Debian:
``fonts-wqy-microhei``); without one they show as boxes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

#: Window size of the screenshots, in CSS pixels: wide enough for the sidebar and a plot.
VIEWPORT = {"width": 1400, "height": 1000}
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome")


def find_browser(explicit: str | None = None) -> str | None:
    """The Chromium binary to drive: ``explicit``, ``$MLTHEORY_CHROMIUM``, or one on PATH."""
    for candidate in (explicit, os.environ.get("MLTHEORY_CHROMIUM")):
        if candidate:
            return shutil.which(candidate) or (candidate if Path(candidate).exists() else None)
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def take_screenshots(report: Path, out: Path, browser: str,
                     claim: str | None = None) -> list[Path]:
    """Write the three screenshots of ``report`` into ``out``; return their paths.
    ``claim`` names the claim whose card is the plot screenshot (default: the first
    claim with a plot)."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with sync_playwright() as p:
        # --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
        chromium = p.chromium.launch(executable_path=browser, args=["--no-sandbox"])
        try:
            page = chromium.new_page(viewport=VIEWPORT)
            page.goto(report.resolve().as_uri())
            top = out / "report-top.png"
            page.screenshot(path=top)
            shots.append(top)
            erratum = page.locator("article.erratum").first
            if erratum.count():
                erratum.scroll_into_view_if_needed()
                shots.append(out / "report-erratum.png")
                erratum.screenshot(path=shots[-1])
            if claim:
                plotted = page.locator(f"article.claim[id='c-{claim}']")
            else:
                plotted = page.locator("article.claim:has(figure.plot)").first
            if plotted.count():
                plotted.scroll_into_view_if_needed()
                shots.append(out / "report-plot.png")
                plotted.screenshot(path=shots[-1])
        finally:
            chromium.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", nargs="?", default="verification-report.html",
                        help="the HTML report (default: verification-report.html)")
    parser.add_argument("--out", default="screenshots", help="output directory")
    parser.add_argument("--claim", default=None, metavar="ID",
                        help="the claim whose card to show for the plot (default: the first "
                             "claim with a plot)")
    parser.add_argument("--browser", default=None, help="path or name of the Chromium binary")
    args = parser.parse_args(argv)
    report = Path(args.report)
    if not report.is_file():
        print(f"screenshot_report: no report at {report} (run `mltheory verify` first)",
              file=sys.stderr)
        return 2
    browser = find_browser(args.browser)
    if browser is None:
        print("screenshot_report: no Chromium found (install it, e.g. `apt-get install "
              "chromium`, or pass --browser PATH)", file=sys.stderr)
        return 2
    try:
        shots = take_screenshots(report, Path(args.out), browser, args.claim)
    except ImportError:
        print("screenshot_report: the playwright package is missing "
              "(pip install -e \".[test]\")", file=sys.stderr)
        return 2
    for shot in shots:
        print(shot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
