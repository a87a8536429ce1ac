"""The plot extra's other pictures: estimator error curves and a sweep's coverage histograms
(the chain drawing is tested with the CLI in test_results.py)."""

import pytest

pytestmark = pytest.mark.extra("plot")




def test_plot_errors_draws_one_line_a_curve_on_log_axes(pyplot):
    """plot_errors draws each named curve through its (samples, error) points, both axes logarithmic."""
    from exactpte.plots.curves import plot_errors

    curves = {"E_v": [(100, 1.0), (400, 0.5), (1600, 0.25)], "E_g": [(100, 0.3), (400, 0.2)]}
    ax = plot_errors(curves)
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == set(curves)
    for name, points in curves.items():
        assert list(zip(lines[name].get_xdata(), lines[name].get_ydata())) == points
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"


def test_plot_coverage_draws_a_panel_a_histogram(pyplot):
    """plot_coverage draws one titled panel a histogram, a bar a value with its count."""
    from exactpte.plots.curves import plot_coverage

    histograms = {"states": {"3": 2, "1": 5}, "periods": {"1": 4, "2": 1}}
    fig = plot_coverage(histograms)
    assert [ax.get_title() for ax in fig.axes] == list(histograms)
    for ax, name in zip(fig.axes, histograms):
        bars = sorted((round(p.get_x() + p.get_width() / 2), p.get_height()) for p in ax.patches)
        assert bars == sorted((int(k), v) for k, v in histograms[name].items())


def test_save_writes_the_format_of_the_file_ending(pyplot, tmp_path):
    """save() writes an SVG for .svg and a PDF for .pdf (by the ending), from an Axes or a Figure."""
    from exactpte.plots import plot_coverage, plot_errors, save

    save(plot_errors({"E_v": [(100, 1.0), (400, 0.5)]}), str(tmp_path / "e.svg"))
    save(plot_coverage({"states": {"1": 1}}), str(tmp_path / "c.pdf"))
    assert (tmp_path / "e.svg").read_text().lstrip().startswith("<?xml") and "<svg" in (tmp_path / "e.svg").read_text()
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")


def test_strata_picture_labels_every_stratum_of_two_parameters(pyplot, tmp_path):
    """strat.plot() on two parameters: a heat map of the quantity, a line per one-parameter stratum and a
    labelled point per point stratum (each with its periods); exactpte draw --strata writes it."""
    import exactpte
    from exactpte.cli.commands import main

    m = exactpte.ParametricChain([[0, 1, 0, 0], [0, 0, 1, 0], ["1-p", 0, 0, "p"], ["q", 0, 0, "1-q"]], [1, 0, 0, 0],
                                 params=["p", "q"])
    strat = exactpte.stratify(m)
    ax = strat.plot("rho", 3)
    assert len(ax.images) == 1
    points = [ln.get_label() for ln in ax.lines if ln.get_marker() not in ("None", "", None) and len(ln.get_xdata()) == 1]
    assert len(points) == sum(1 for s in strat.strata if not s.params)  # each point stratum marked and named by what changes
    assert len([ln for ln in ax.lines if ln.get_label().startswith(("p =", "q =")) and len(ln.get_xdata()) > 1]) == 4
    path = tmp_path / "strata.png"
    assert main(["draw", "--example", "two-state-pq", "--strata", "--quantity", "h", "-o", str(path)]) == 0
    assert path.read_bytes()[:4] == b"\x89PNG"
    pyplot.close("all")


def test_strata_picture_of_one_parameter_draws_the_closed_form(pyplot):
    import exactpte

    m = exactpte.ParametricChain([["1-p", "p"], ["p", "1-p"]], [1, 0], params=["p"])
    ax = exactpte.stratify(m).plot("h", 0)
    (curve,) = [ln for ln in ax.lines if ln.get_label().startswith("0 < p < 1")]
    xs, ys = curve.get_data()
    assert abs(ys[list(xs).index(0.5)] - 0.5) < 1e-12  # h(0) = 1/(4p) at p = 1/2
    assert [ln.get_label().split(":")[0] for ln in ax.lines if len(ln.get_xdata()) == 1] == ["p = 0", "p = 1"]
    pyplot.close("all")
