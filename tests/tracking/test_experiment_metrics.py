"""compare_variants beyond conversions: means (Welch), ratios (the delta method), CUPED with its strata, the
sample-ratio check and always-valid intervals, each on a table worked out by hand (the arithmetic beside the
literals) and checked against scipy and statsmodels where they compute the same thing; its refusals, and empty
and one-event inputs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from workbench.tracking import analysis as A

T0 = pd.Timestamp("2026-11-10", tz="UTC")
H = pd.Timedelta(hours=1)


def units(rows) -> pd.DataFrame:
    """(unit, variant or None, key, hours after exposure at 2026-11-10 00:00[, payload]) rows: one exposure event
    per unit with a variant, at hour 0, then the rows' events."""
    out, seen = [], set()
    for r in rows:
        unit, variant, key, hours = r[:4]
        if variant is not None and unit not in seen:
            seen.add(unit)
            out.append((unit, "custom.experiment", T0, {"variant": variant}))
        if key is not None:
            out.append((unit, key, T0 + hours * H, r[4] if len(r) > 4 else {}))
    return pd.DataFrame({"sessionId": [r[0] for r in out], "key": [r[1] for r in out],
                         "timestamp": [r[2] for r in out], "payload": [r[3] for r in out],
                         "id": [f"e{i}" for i in range(len(out))]})


def counts(variant: str, per_unit: list[int], key: str = "interaction_start", prefix: str = "") -> list:
    """One unit per number, with that many ``key`` events after its exposure."""
    rows = []
    for i, n in enumerate(per_unit):
        unit = f"{prefix}{variant}{i}"
        rows.append((unit, variant, None, 0))
        rows += [(unit, variant, key, 1 + j) for j in range(n)]
    return rows


# ------------------------------------------------------------------------------------------------
# A mean: Welch's t interval and test
# ------------------------------------------------------------------------------------------------

MEAN = units(counts("control", [1, 2, 3]) + counts("treatment", [2, 4, 6, 8]))


def test_a_mean_by_hand_and_as_scipy_and_statsmodels_compute_it():
    from scipy import stats
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    out = A.compare_variants(MEAN, variant_field="variant", metric="mean", value="interaction_start")
    out = out.set_index("variant")
    # control 1, 2, 3: mean 2, variance (1 + 0 + 1) / 2 = 1; treatment 2, 4, 6, 8: mean 5, variance 20 / 3
    assert out["mean"].tolist() == [2.0, 5.0] and out["total"].tolist() == [6.0, 20.0]
    # the difference's variance 1/3 + (20/3)/4 = 2; Welch's degrees of freedom 2^2 / ((1/3)^2/2 + (5/3)^2/3)
    # = 4 / 0.9814815 = 4.0754717, whose 97.5 % t quantile is 2.7562849: 3 +- 2.7562849 * sqrt(2)
    t = out.loc["treatment"]
    assert t["difference"] == 3.0
    assert t["difference_low"] == pytest.approx(3 - 2.7562849 * math.sqrt(2), abs=1e-6)
    assert t["difference_high"] == pytest.approx(3 + 2.7562849 * math.sqrt(2), abs=1e-6)
    welch = stats.ttest_ind([2, 4, 6, 8], [1, 2, 3], equal_var=False)
    assert t["p_value"] == pytest.approx(welch.pvalue)
    assert (t["difference_low"], t["difference_high"]) == pytest.approx(tuple(welch.confidence_interval(0.95)))
    low, high = CompareMeans(DescrStatsW([2, 4, 6, 8]), DescrStatsW([1, 2, 3])).tconfint_diff(usevar="unequal")
    assert (t["difference_low"], t["difference_high"]) == pytest.approx((low, high))
    # control's own interval: 2 +- t(2) 4.3026527 * 1 / sqrt(3)
    c = out.loc["control"]
    assert (c["mean_low"], c["mean_high"]) == pytest.approx((2 - 4.3026527 / math.sqrt(3), 2 + 4.3026527 / math.sqrt(3)))
    assert (c["mean_low"], c["mean_high"]) == pytest.approx(DescrStatsW([1, 2, 3]).tconfint_mean())
    # 3 and 4 units where 3.5 each were expected: chi-square (0.5^2 + 0.5^2) / 3.5 = 0.142857, p = 0.7054571
    assert out["srm_p_value"].tolist() == pytest.approx([0.7054571] * 2)
    assert out["note"].tolist() == ["baseline", ""]


def test_a_mean_of_a_payload_field_sums_it_per_unit():
    df = units([("a", "control", "viewer_closed", 1, {"durationMs": 1000}),
                ("a", "control", "viewer_closed", 2, {"durationMs": 3000}),  # a: 4000
                ("b", "control", "viewer_closed", 1, {"durationMs": 2000}),  # b: 2000
                ("c", "control", None, 0),                                    # c: none, 0
                ("d", "treatment", "viewer_closed", 1, {"durationMs": 500})])
    out = A.compare_variants(df, variant_field="variant", metric="mean", value=("viewer_closed", "durationMs"))
    # control (4000 + 2000 + 0) / 3 = 2000
    assert out[["variant", "units", "total", "mean"]].values.tolist() == [["control", 3, 6000.0, 2000.0],
                                                                       ["treatment", 1, 500.0, 500.0]]
    assert np.isnan(out.loc[1, "mean_low"])  # one unit: no variance, no interval, no crash


# ------------------------------------------------------------------------------------------------
# A ratio: the delta method
# ------------------------------------------------------------------------------------------------

def test_a_ratio_by_the_delta_method_by_hand():
    def unit(name, variant, hotspots, loads):
        return ([(name, variant, "hotspot_opened", 1 + i) for i in range(hotspots)]
                + [(name, variant, "viewer_loaded", 1 + i) for i in range(loads)])
    df = units(unit("c0", "control", 2, 1) + unit("c1", "control", 4, 2) + unit("c2", "control", 0, 1)
               + unit("t0", "treatment", 3, 1) + unit("t1", "treatment", 5, 3))
    out = A.compare_variants(df, variant_field="variant", metric="ratio", numerator="hotspot_opened",
                             denominator="viewer_loaded").set_index("variant")
    # control: 6 / 4 = 1.5; treatment 8 / 4 = 2
    assert out["ratio"].tolist() == [1.5, 2.0] and out["numerator"].tolist() == [6.0, 8.0]
    # control's linearized values (Y - 1.5 N) / (4/3): 0.375, 0.75, -1.125; variance 1.96875 / 2 = 0.984375,
    # over 3 units 0.328125. treatment's (Y - 2 N) / 2: 0.5, -0.5; variance 0.5, over 2 units 0.25
    # difference 0.5 +- 1.959964 * sqrt(0.578125) = 0.5 +- 1.490249; p = 2 (1 - Phi(0.5 / 0.760345)) = 0.5107978
    t = out.loc["treatment"]
    assert (t["difference_low"], t["difference_high"]) == pytest.approx((0.5 - 1.490249, 0.5 + 1.490249), abs=1e-6)
    assert t["p_value"] == pytest.approx(0.5107978, abs=1e-6)
    # the textbook form of the same delta method: (s_Y^2 / m_N^2 - 2 m_Y s_YN / m_N^3 + m_Y^2 s_N^2 / m_N^4) / n
    y, n = np.array([2.0, 4, 0]), np.array([1.0, 2, 1])
    cov = np.cov(y, n)
    var = (cov[0, 0] / n.mean() ** 2 - 2 * y.mean() * cov[0, 1] / n.mean() ** 3
           + y.mean() ** 2 * cov[1, 1] / n.mean() ** 4) / 3
    half = out.loc["control", "ratio_high"] - 1.5
    assert half == pytest.approx(1.959964 * math.sqrt(var), abs=1e-6) and var == pytest.approx(0.328125)


# ------------------------------------------------------------------------------------------------
# CUPED: one stratum, then units without pre-exposure data
# ------------------------------------------------------------------------------------------------

def cuped_units(with_history, without=()) -> pd.DataFrame:
    """(unit, variant, X before exposure, Y after): X interaction_starts in the day before exposure, and a
    heartbeat there so a unit with X = 0 still has pre-exposure data; ``without``: (unit, variant, Y), none."""
    rows = []
    for unit, variant, x, y in with_history:
        rows += [(unit, variant, "heartbeat", -20)] + [(unit, variant, "interaction_start", -10 + i) for i in range(x)]
        rows += [(unit, variant, "interaction_start", 1 + i) for i in range(y)]
    for unit, variant, y in without:
        rows += [(unit, variant, None, 0)] + [(unit, variant, "interaction_start", 1 + i) for i in range(y)]
    return units(rows)


HISTORY = [("c0", "control", 0, 1), ("c1", "control", 2, 4), ("c2", "control", 4, 4),
           ("t0", "treatment", 1, 4), ("t1", "treatment", 3, 5), ("t2", "treatment", 5, 9)]
CUPED = dict(variant_field="variant", metric="mean", value="interaction_start", covariate=True)


def test_cuped_with_one_stratum_by_hand():
    out = A.compare_variants(cuped_units(HISTORY), **CUPED).set_index("variant")
    # within control X 0, 2, 4 (mean 2), Y 1, 4, 4 (mean 3): Sxy = (-2)(-2) + 0 + (2)(1) = 6, Sxx = 8;
    # within treatment X 1, 3, 5 (mean 3), Y 4, 5, 9 (mean 6): Sxy = 4 + 0 + 6 = 10, Sxx = 8; theta = 16 / 16 = 1
    assert out["theta"].tolist() == [1.0, 1.0]
    # X's mean over both is 15 / 6 = 2.5: control 3 - (2 - 2.5) = 3.5, treatment 6 - (3 - 2.5) = 5.5
    assert out["mean"].tolist() == pytest.approx([3.5, 5.5])
    t = out.loc["treatment"]
    # Y - X: control 1, 2, 0 and treatment 3, 2, 4, each of variance 1: the difference's 1/3 + 1/3 = 2/3 on
    # 2 (2/3)^2 / (2 (1/3)^2 / 2) = 4 degrees of freedom: 2 +- 2.7764451 sqrt(2/3)
    assert t["difference"] == pytest.approx(2.0)
    assert (t["difference_low"], t["difference_high"]) == pytest.approx((2 - 2.7764451 * math.sqrt(2 / 3),
                                                                        2 + 2.7764451 * math.sqrt(2 / 3)))
    # plain: Y's variances 6 / 2 = 3 and 14 / 2 = 7, the difference's 3/3 + 7/3 = 10/3: 1 - (2/3) / (10/3) = 0.8
    assert t["variance_reduction"] == pytest.approx(0.8)
    assert out["units_with_covariate"].tolist() == [3.0, 3.0]


def test_cuped_theta_is_the_covariates_coefficient_and_the_interval_welchs_on_adjusted_values():
    import statsmodels.formula.api as smf
    from scipy import stats

    rng = np.random.default_rng(3)
    rows = []
    for i in range(40):
        for variant, lift in (("control", 0), ("treatment", 2)):
            x = int(rng.integers(0, 8))
            rows.append((f"{variant}{i}", variant, x, max(0, x + lift + int(rng.integers(-2, 3)))))
    out = A.compare_variants(cuped_units(rows), **CUPED).set_index("variant")
    frame = pd.DataFrame(rows, columns=["unit", "variant", "x", "y"])
    ols = smf.ols("y ~ C(variant) + x", data=frame).fit()
    assert out.loc["treatment", "theta"] == pytest.approx(ols.params["x"])
    adjusted = frame["y"] - ols.params["x"] * (frame["x"] - frame["x"].mean())
    welch = stats.ttest_ind(adjusted[frame["variant"] == "treatment"], adjusted[frame["variant"] == "control"],
                            equal_var=False)
    t = out.loc["treatment"]
    assert (t["difference_low"], t["difference_high"]) == pytest.approx(tuple(welch.confidence_interval(0.95)))
    assert t["p_value"] == pytest.approx(welch.pvalue)
    assert 0 < t["variance_reduction"] < 1


def test_cuped_stratifies_units_without_pre_exposure_data_as_statsig_does():
    out = A.compare_variants(cuped_units(HISTORY, [("c3", "control", 2), ("c4", "control", 4),
                                                   ("t3", "treatment", 5), ("t4", "treatment", 7)]),
                             **CUPED).set_index("variant")
    # the stratum with history is the table above (theta 1, adjusted 3.5 and 5.5, variances 1/3 each); without:
    # control 2, 4 (mean 3, variance 2: 1 over 2 units), treatment 5, 7 (mean 6, 1); weights 6/10 and 4/10
    # control 0.6 * 3.5 + 0.4 * 3 = 3.3, treatment 0.6 * 5.5 + 0.4 * 6 = 5.7
    assert out["mean"].tolist() == pytest.approx([3.3, 5.7])
    assert out["units_with_covariate"].tolist() == [3.0, 3.0] and out["units"].tolist() == [5, 5]
    t = out.loc["treatment"]
    # each variant's variance 0.36 / 3 + 0.16 * 1 = 0.28; the difference's 0.56 on
    # 0.56^2 / (2 (0.12^2 / 2 + 0.16^2 / 1)) = 4.7804878 degrees of freedom (t quantile 2.6064936)
    assert (t["difference_low"], t["difference_high"]) == pytest.approx((2.4 - 2.6064936 * math.sqrt(0.56),
                                                                        2.4 + 2.6064936 * math.sqrt(0.56)))
    # plain: control 1, 4, 4, 2, 4 (variance 8 / 4 = 2: 0.4), treatment 4, 5, 9, 5, 7 (16 / 4 = 4: 0.8);
    # 1 - 0.56 / 1.2 = 0.5333333
    assert t["variance_reduction"] == pytest.approx(0.5333333)


def test_the_covariate_window_edges():
    # exposure at 0; 7 days before it is -168 h: a window [-168 h, 0). a's only earlier event is at -168 h
    # (in), b's at -168 h - 1 ms (out); c's at 0, the exposure's own millisecond (out: during the experiment),
    # d's at -1 ms (in)
    ms = 1 / 3_600_000
    df = units([("a", "control", "interaction_start", -168), ("b", "control", "interaction_start", -168 - ms),
                ("c", "treatment", "interaction_start", 0), ("d", "treatment", "interaction_start", -ms)])
    kw = dict(variant_field="variant", metric="mean", value="interaction_start")
    out = A.compare_variants(df, covariate=True, **kw)
    assert out["units_with_covariate"].tolist() == [1.0, 1.0]
    # during the experiment only c's event counts: control 0 + 0, treatment 1 + 0
    assert out["total"].tolist() == [0.0, 1.0]
    # a window from 14 days to 168 h before: a's event at -168 h is its end, outside; b's inside
    two_weeks = A.compare_variants(df, covariate=("-14D", "-168h"), **kw)
    assert two_weeks["units_with_covariate"].tolist() == [1.0, 0.0]


# ------------------------------------------------------------------------------------------------
# The sample-ratio check
# ------------------------------------------------------------------------------------------------

def conversions(n_control: int, n_treatment: int) -> pd.DataFrame:
    rows = [(f"c{i}", "control", "cta_clicked" if i % 10 == 0 else None, 1) for i in range(n_control)]
    rows += [(f"t{i}", "treatment", "cta_clicked" if i % 8 == 0 else None, 1) for i in range(n_treatment)]
    return units(rows)


def test_a_broken_split_is_flagged_and_warned_and_weights_say_what_was_expected():
    from scipy import stats

    df = conversions(600, 400)
    with pytest.warns(UserWarning, match=r"sample ratio mismatch.*'control': 600, 'treatment': 400.*p = 2.5e-10"):
        out = A.compare_variants(df, variant_field="variant", success_key="cta_clicked")
    # chi-square (100^2 / 500) * 2 = 40 on 1 degree of freedom: p = 2.5396286e-10
    assert out["srm_p_value"].tolist() == pytest.approx([2.5396286e-10] * 2)
    assert out["srm_p_value"][0] == pytest.approx(stats.chisquare([600, 400]).pvalue)
    assert out["note"].tolist() == ["baseline, sample ratio mismatch", "sample ratio mismatch"]
    planned = A.compare_variants(df, variant_field="variant", success_key="cta_clicked",
                                 weights={"control": 0.6, "treatment": 0.4})
    assert planned["srm_p_value"].tolist() == [1.0, 1.0] and planned["expected_share"].tolist() == [0.6, 0.4]
    # a variant the data lack altogether: 10 units and 0 against 5 each, chi-square 10, p = 0.0015654
    lost = A.compare_variants(conversions(10, 0), variant_field="variant", success_key="cta_clicked",
                              weights={"control": 0.5, "treatment": 0.5})
    assert lost[["variant", "units"]].values.tolist() == [["control", 10], ["treatment", 0]]
    assert lost["srm_p_value"][0] == pytest.approx(0.0015654, abs=1e-7) and np.isnan(lost.loc[1, "rate"])


# ------------------------------------------------------------------------------------------------
# Always-valid intervals
# ------------------------------------------------------------------------------------------------

def test_the_sequential_interval_by_hand():
    out = A.compare_variants(MEAN, variant_field="variant", metric="mean", value="interaction_start",
                             interval="sequential", planned_units=7).set_index("variant")
    # rho^2 = (-2 ln 0.05 + ln(1 - 2 ln 0.05)) / planned = 7.9361546 / 7; at n = 7 units, v = n rho^2 = 7.9361546:
    # sqrt(2 (v + 1) / v * ln(sqrt(v + 1) / 0.05)) = 3.0352090 standard errors of sqrt(2)
    t = out.loc["treatment"]
    assert (t["difference_low"], t["difference_high"]) == pytest.approx((3 - 4.2924337, 3 + 4.2924337), abs=1e-6)
    # its p-value: sqrt(v + 1) exp(-z^2 v / (2 (v + 1))) with z^2 = 9 / 2: 0.4052865
    assert t["p_value"] == pytest.approx(0.4052865, abs=1e-6)
    # control alone: 3 units, tuned for 3.5 (its share of 7): 3.0378772 standard errors of 1 / sqrt(3)
    assert out.loc["control", "mean_high"] - 2 == pytest.approx(1.7539192, abs=1e-6)
    fixed = A.compare_variants(MEAN, variant_field="variant", metric="mean", value="interaction_start")
    assert fixed.loc[1, "difference_low"] > t["difference_low"]  # wider than the interval for one look


def test_sequential_and_cuped_together_and_a_sequential_conversion():
    both = A.compare_variants(cuped_units(HISTORY), interval="sequential", planned_units=6, **CUPED)
    # the CUPED estimate's standard error sqrt(2/3) times the sequence's 3.0352090 at its planned 6 units
    assert both.loc[1, "difference_high"] - 2 == pytest.approx(math.sqrt(2 / 3) * 3.0352090, abs=1e-6)
    rate = A.compare_variants(conversions(500, 500), variant_field="variant", success_key="cta_clicked",
                              interval="sequential", planned_units=1000)
    # rates 50/500 and 63/500; Bernoulli variances with n - 1: 0.1 * 0.9 * 500/499 / 500, 0.126 * 0.874 * 500/499 / 500
    se = math.sqrt(0.1 * 0.9 / 499 + 0.126 * 0.874 / 499)
    assert rate.loc[1, "difference_high"] - 0.026 == pytest.approx(se * 3.0352090, abs=1e-6)


# ------------------------------------------------------------------------------------------------
# Refusals, empty and one-event inputs
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw, message", [
    ({"metric": "mean", "value": "interactoin_start"}, "value: 'interactoin_start' is not an event key"),
    ({"metric": "mean", "value": ("viewer_closed", "duration")}, "value: viewer_closed has no payload field 'duration'"),
    ({"metric": "mean", "value": 3}, "value: 3 is neither an event key"),
    ({"metric": "mean"}, "value: metric='mean' needs it"),
    ({"metric": "mean", "value": "heartbeat", "success_key": "cta_clicked"}, "success_key: metric='mean' does not"),
    ({"metric": "ratio", "numerator": "heartbeat"}, "denominator: metric='ratio' needs it"),
    ({"success_key": "cta_clicked", "covariate": ("-1D", "1h")}, "covariate: the window ends 0 days 01:00:00 after exposure"),
    ({"success_key": "cta_clicked", "covariate": ("-1D", "-2D")}, "covariate: the window's start -1 days"),
    ({"success_key": "cta_clicked", "covariate": 7}, "covariate: 7 is a bare number"),
    ({"success_key": "cta_clicked", "weights": {"control": 0.5, "treatment": 0.6}}, "weights: the shares sum to 1.1"),
    ({"success_key": "cta_clicked", "weights": {"control": 1.0}}, "weights: variant 'treatment' has no expected share"),
    ({"success_key": "cta_clicked", "weights": {"control": -0.5, "treatment": 1.5}}, "weights: 'control'"),
    ({"success_key": "cta_clicked", "interval": "wilson"}, "interval: 'wilson' is now 'fixed'"),
    ({"metric": "mean", "value": "heartbeat", "interval": "bayes"}, "interval: 'bayes' reads a conversion"),
    ({"success_key": "cta_clicked", "planned_units": 0}, "planned_units: 0 must be a whole number"),
    ({"success_key": "cta_clicked", "level": 1.5}, "level: 1.5 must be between 0 and 1"),
    ({"success_key": "cta_clicked", "metric": "median"}, "metric: 'median' is not one of"),
])
def test_bad_options_are_refused_naming_the_parameter(kw, message):
    with pytest.raises(ValueError, match=f"compare_variants: {message}"):
        A.compare_variants(MEAN, variant_field="variant", **kw)


@pytest.mark.parametrize("kw", [{"success_key": "cta_clicked"}, {"metric": "mean", "value": "interaction_start"},
                                {"metric": "ratio", "numerator": "hotspot_opened", "denominator": "viewer_loaded"},
                                {"metric": "mean", "value": "interaction_start", "covariate": True,
                                 "interval": "sequential"}])
def test_empty_and_one_event_inputs_are_answered(kw):
    empty = A.compare_variants(units([]), variant_field="variant", **kw)
    assert len(empty) == 0 and {"variant", "units", "difference", "srm_p_value", "note"} <= set(empty.columns)
    one = A.compare_variants(units([("a", "control", None, 0)]), variant_field="variant", **kw)
    assert one[["variant", "units"]].values.tolist() == [["control", 1]] and np.isnan(one.loc[0, "srm_p_value"])
    with pytest.raises(ValueError, match="variant_field: no unit has a value for 'variant'"):
        A.compare_variants(units([("a", None, "heartbeat", 0)]), variant_field="variant", **kw)
