"""Reports: evidence series, the short Markdown, the self-contained HTML page, grouping by
source (notes and other works), and the CLI writing all three."""

import json
import math
import re

import numpy as np
import pytest

from mltheory import evidence
from mltheory.cli import main
from mltheory.html import render_html
from mltheory.report import render_markdown, source_group


def test_series_accumulate_points_and_lines_into_their_plot():
    with evidence.collecting() as ev:
        for k in range(3):
            evidence.series("observed", k, 2 * k, kind="scatter", plot="P", xlabel="m",
                            reference="y=x", logy=True)
        evidence.series("bound", [0, 1, 2], np.array([1.0, 0.5, 0.25]), kind="bound", plot="P")
        evidence.series("trace", range(3), [0, 1, 2])
        evidence.series("trace", range(2), [5, math.nan])
    plots = {p["title"]: p for p in ev.as_dict()["plots"]}
    assert set(plots) == {"P", "trace"}
    p = plots["P"]
    assert (p["xlabel"], p["reference"], p["logy"], p["logx"]) == ("m", "y=x", True, False)
    observed, bound = p["series"]
    assert observed == {"name": "observed", "kind": "scatter", "x": [0.0, 1.0, 2.0],
                        "y": [0.0, 2.0, 4.0], "points": 3, "calls": 3}
    assert bound["kind"] == "bound" and bound["calls"] == 1
    trace = plots["trace"]["series"][0]
    assert trace["x"] == [0.0, 1.0, 2.0, None, 0.0, 1.0]  # None breaks the line between calls
    assert trace["y"] == [0.0, 1.0, 2.0, None, 5.0, None]  # non-finite values are gaps
    json.dumps(ev.as_dict(), allow_nan=False)


def test_evidence_without_series_has_no_plots_key():
    with evidence.collecting() as ev:
        evidence.worst("r", 1.0)
    assert "plots" not in ev.as_dict()


def test_series_are_thinned_to_a_bounded_size():
    with evidence.collecting() as ev:
        for i in range(10 * evidence.MAX_POINTS):
            evidence.series("many", i, i, kind="scatter")
        for _ in range(5 * evidence.MAX_LINES):
            evidence.series("lines", range(1000), range(1000))
    many, lines = (p["series"][0] for p in ev.as_dict()["plots"])
    assert len(many["x"]) <= evidence.MAX_POINTS and many["points"] == 10 * evidence.MAX_POINTS
    assert many["x"][-1] > 9 * evidence.MAX_POINTS  # thinned evenly, not truncated
    assert lines["x"].count(None) < 2 * evidence.MAX_LINES
    assert len(lines["x"]) <= 2 * evidence.MAX_POINTS


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(x=1, y=1, kind="pie"), ValueError, "kind must be one of"),
        (dict(x=[1, 2], y=[1]), ValueError, "x has 2 points but y has 1"),
        (dict(x="a", y=1), TypeError, "x must be numbers"),
        (dict(x=np.ones((2, 2)), y=np.ones((2, 2))), ValueError, "1-D"),
        (dict(x=1, y=1, reference="y=2x"), ValueError, "reference must be one of"),
    ],
)
def test_bad_series_are_rejected_naming_the_problem(kwargs, error, message):
    with evidence.collecting(), pytest.raises(error, match=message):
        evidence.series("s", **kwargs)


def test_a_series_keeps_its_kind():
    with evidence.collecting(), pytest.raises(ValueError, match="was a 'scatter' series"):
        evidence.series("s", 1, 1, kind="scatter")
        evidence.series("s", 1, 1, kind="line")


@pytest.mark.parametrize(
    ("source", "heading", "anchor"),
    [
        ("003 §4.2 (4.9)", "003 §4", "src-003-4"),
        ("001 §二.3; 000 §1.4", "001 §二", "src-001-2"),
        ("002 'Pocket PLA'", "002", "src-002"),
        ("Mohri et al. 2018, Thm 3.3; 003 §9", "Mohri et al. 2018", "src-w-mohri-et-al-2018"),
        ("Vapnik (1998)", "Vapnik (1998)", "src-w-vapnik-1998"),
    ],
)
def test_claims_are_grouped_by_their_first_citation(source, heading, anchor):
    group = source_group(source)
    assert (group.heading, group.anchor) == (heading, anchor)
    assert group.is_note == source[0].isdigit()


# --------------------------------------------------------------------------- rendering
# (small_doc: tests/framework/conftest.py)


def test_the_markdown_has_summary_problems_errata_and_one_row_per_claim(small_doc):
    md = render_markdown(small_doc, html_name="report.html")
    assert "4 claims run: 2 verified, 1 errata confirmed, 1 failed" in md
    assert "[report.html](report.html)" in md
    assert md.index("## Problems") < md.index("## Errata") < md.index("## Claims by source")
    assert "*Correction:* `reporttest.fixed` (VERIFIED)" in md
    assert "*Counterexample:* `AssertionError: x = 17" in md
    claims_part = md.split("## Claims by source")[1]
    rows = [line for line in claims_part.splitlines() if line.startswith("| `reporttest.")]
    assert len(rows) == 4
    # the erratum says its kind; the bound shows its headroom in its own table and column
    assert "*wrong symbol, sign or index*" in md
    assert "By kind: 1 wrong symbol, sign or index." in md
    bounds_part = md.split("## Bounds: headroom (1)")[1].split("## Claims by source")[0]
    assert "| `reporttest.bound` | VERIFIED | ×1.11 |" in bounds_part
    assert "| ×1.11 | Mohri et al. 2018, Thm 3.3 |" in claims_part
    # notes first, then other works; the statements stay out of the tables
    headings = re.findall(r"^### (.+)$", md, flags=re.M)
    assert headings[-1] == "Mohri et al. 2018"
    assert headings.index("001 §二 — convergence (Novikoff) (Li Hang, the perceptron)") < \
        headings.index("Mohri et al. 2018")
    assert "<script>" not in md.split("## Claims by source")[1]


def test_the_html_page_is_self_contained_with_errata_first_and_plots_inline(small_doc):
    page = render_html(small_doc, markdown_name="r.md", json_name="r.json")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing to fetch
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)" in page
    assert page.index('id="problems"') < page.index('id="errata"') < page.index('id="src-')
    erratum = page[page.index('id="e-reporttest.wrong"'):]
    erratum = erratum[:erratum.index("</article>")]
    for part in ("As the note says", "What is wrong", "Counterexample", "x = 17",
                 "Corrected claim", "The corrected inequality holds.", "VERIFIED",
                 "wrong symbol, sign or index"):
        assert part in erratum
    bounds = page[page.index('id="bounds"'):]
    bounds = bounds[:bounds.index("</section>")]
    assert 'href="#c-reporttest.bound"' in bounds and "×1.11" in bounds
    plotted = page[page.index('id="c-reporttest.bound"'):]
    plotted = plotted[:plotted.index("</article>")]
    assert plotted.count("<svg") == 1 and "Frequency against m" in plotted
    assert page.count("<svg") == 1  # only claims that attached series get a plot
    assert 'href="#src-w-mohri-et-al-2018"' in page  # navigation by source
    assert 'data-method="SIMULATION"' in page and '<option value="bound">' in page
    assert render_html(small_doc, markdown_name="r.md", json_name="r.json") == page


def test_verify_writes_markdown_json_and_html_next_to_it(small_doc, tmp_path, monkeypatch,
                                                         capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    assert main(["verify", "perceptron.threshold_absorbed_as_w0", "--report", "out/r.md",
                 "--json", "out/r.json"]) == 0
    assert "out/r.html" in capsys.readouterr().out
    page = (tmp_path / "out" / "r.html").read_text()
    assert "perceptron.threshold_absorbed_as_w0" in page and 'href="r.md"' in page
    assert "[r.html](r.html)" in (tmp_path / "out" / "r.md").read_text()
    assert main(["verify", "perceptron.threshold_absorbed_as_w0", "--report", "s.md",
                 "--json", "", "--html", "elsewhere.html"]) == 0
    assert (tmp_path / "elsewhere.html").exists() and not (tmp_path / "s.html").exists()


def test_a_sweep_with_an_html_path_is_a_usage_error(capsys):
    assert main(["verify", "perceptron.*", "--seeds", "1-2", "--html", "sweep.html"]) == 2
    assert "--html is for single-seed runs" in capsys.readouterr().err
