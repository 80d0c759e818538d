"""The HTML report in a real browser: headless Chromium driven by Playwright.

Navigation, the filters and the plots are exercised as a reader uses them, and
scripts/screenshot_report.py produces its screenshots. The browser is the system's
Chromium (Debian: ``apt-get install chromium``; .ci/run installs it); Playwright never
downloads one. Without a browser or the playwright package the tests skip, saying why.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from mltheory.html import render_html

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "screenshot_report.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _screenshot_script():
    spec = importlib.util.spec_from_file_location("screenshot_report", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def browser():
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                        "(pip install -e '.[test]')")
    path = _screenshot_script().find_browser()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium, or set "
                    "$MLTHEORY_CHROMIUM)")
    return path


@pytest.fixture(scope="module")
def report_file(small_doc, tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render_html(small_doc), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def page(browser, report_file):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=browser, args=["--no-sandbox"])
        pg = chromium.new_page(viewport={"width": 1280, "height": 800})
        errors = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        pg.goto(report_file.as_uri())
        pg.js_errors = errors
        yield pg
        chromium.close()


def _visible_claims(pg):
    return pg.eval_on_selector_all("article.claim", "els => els.filter(e => !e.hidden)"
                                   ".map(e => e.id.slice(2))")


def _reset(pg):
    pg.click("#f-reset")


def test_the_page_loads_without_errors_and_counts_its_claims(page):
    assert page.title() == "mltheory verification report"
    assert page.text_content("#f-count") == "4 of 4 claims shown"
    assert page.locator(".bar .seg").count() == 3  # verified, erratum, failed
    assert page.js_errors == []


IN_VIEW = ("(() => {{ const r = document.getElementById('{}').getBoundingClientRect();"
           " return r.top >= -1 && r.top < window.innerHeight / 2; }})()")


def test_navigation_jumps_to_a_source_and_back_to_the_errata(page):
    page.click("#nav a[data-group='src-w-mohri-et-al-2018']")
    page.wait_for_function("location.hash === '#src-w-mohri-et-al-2018'")
    page.wait_for_function(IN_VIEW.format("src-w-mohri-et-al-2018"), timeout=5000)
    page.click("#nav a[href='#errata']")
    page.wait_for_function(IN_VIEW.format("errata"), timeout=5000)
    assert page.is_visible("#e-reporttest\\.wrong")


def test_filters_by_verdict_method_tag_and_search(page):
    _reset(page)
    page.click(".chip[data-verdict='VERIFIED']")
    assert page.get_attribute(".chip[data-verdict='VERIFIED']", "aria-pressed") == "false"
    assert sorted(_visible_claims(page)) == ["reporttest.broken", "reporttest.wrong"]
    assert page.text_content("#f-count") == "2 of 4 claims shown"
    _reset(page)
    page.select_option("#f-method", "SIMULATION")
    assert _visible_claims(page) == ["reporttest.bound"]
    assert not page.is_visible("#errata")  # a section with nothing left is hidden
    _reset(page)
    page.select_option("#f-tag", "demo")
    assert sorted(_visible_claims(page)) == ["reporttest.bound", "reporttest.fixed"]
    assert page.text_content("#nav a[data-group='src-001-2'] .count") == "0/1"
    _reset(page)
    page.fill("#f-search", "corrected inequality")
    assert _visible_claims(page) == ["reporttest.fixed"]
    page.fill("#f-search", "no claim says this")
    assert _visible_claims(page) == [] and page.is_visible("#empty")
    _reset(page)
    assert len(_visible_claims(page)) == 4 and not page.is_visible("#empty")


def test_following_a_link_to_a_filtered_out_claim_clears_the_filters(page):
    _reset(page)
    page.fill("#f-search", "no claim says this")
    page.evaluate("location.hash = '#c-reporttest.fixed'")
    page.wait_for_function("!document.getElementById('c-reporttest.fixed').hidden")
    assert page.input_value("#f-search") == ""


def test_the_plot_is_drawn_as_inline_svg(page):
    _reset(page)
    svg = page.locator("#c-reporttest\\.bound figure.plot svg")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 150
    assert svg.locator("path").count() > 10  # axes, ticks, markers
    assert "Frequency against m" in svg.text_content()
    assert page.locator("figure.plot").count() == 1


def test_the_screenshot_script_produces_the_three_pictures(browser, report_file, tmp_path):
    out = tmp_path / "shots"
    done = subprocess.run([sys.executable, str(SCRIPT), str(report_file), "--out", str(out),
                           "--browser", browser], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    shots = [Path(line) for line in done.stdout.split()]
    assert [s.name for s in shots] == ["report-top.png", "report-erratum.png", "report-plot.png"]
    for shot in shots:
        assert shot.read_bytes()[:8] == PNG_SIGNATURE and shot.stat().st_size > 5000
