"""Variant ids and breakdown values read as the text they are (issue 47 item 3): integer ids in a column with a missing
value (a float column) are "0" and "1", not "0.0" and "1.0"; values too large to square say so instead of leaving NaN
intervals silently. Worked out by hand, on pandas and on Dask in several partitions."""

from __future__ import annotations

import warnings

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

from workbench.tracking import analysis as A

T0 = pd.Timestamp("2026-11-02T10:00:00Z")


def sides(df):
    yield df, {}
    for n in (2, 3):
        yield dd.from_pandas(df, npartitions=n, sort=False), {"client": "sync"}


def test_integer_variant_ids_with_a_missing_one_are_named_as_integers():
    # sessions a..e, variant 0, 1, missing, 1, 0; a, b, d clicked: variant 0 has a (1 of 2), variant 1 b and d (2 of 2)
    df = pd.DataFrame({"sessionId": list("abcde"), "key": ["cta_clicked", "cta_clicked", "heartbeat", "cta_clicked",
                                                           "heartbeat"],
                       "timestamp": T0, "variant": [0, 1, np.nan, 1, 0]})
    assert df["variant"].dtype == np.float64
    for frame, kw in sides(df):
        out = A.compare_variants(frame, variant_field="variant", success_key="cta_clicked", **kw)
        assert out[["variant", "units", "conversions", "note"]].values.tolist() == [
            ["0", 2, 1, "baseline"], ["1", 2, 2, ""]]
    # the same ids as pandas' nullable integers, and in payload dicts (1 and 1.0 alike)
    nullable = df.assign(variant=df["variant"].astype("Int64"))
    assert A.compare_variants(nullable, variant_field="variant", success_key="cta_clicked")["variant"].tolist() == [
        "0", "1"]
    dicts = df.drop(columns="variant").assign(payload=[{"variant": 0}, {"variant": 1.0}, {}, {"variant": 1}, {"variant": 0.0}])
    out = A.compare_variants(dicts, variant_field="variant", success_key="cta_clicked", baseline="0")
    assert out[["variant", "units"]].values.tolist() == [["0", 2], ["1", 2]]
    # a fractional id stays as it is
    frac = df.assign(variant=[0.5, 1, np.nan, 1, 0.5])
    assert A.compare_variants(frac, variant_field="variant", success_key="cta_clicked")["variant"].tolist() == ["0.5", "1"]


def test_breakdown_and_property_values_of_a_float_column_are_integers_too():
    t = [T0, T0 + pd.Timedelta(minutes=1)]
    df = pd.DataFrame({"sessionId": ["a", "a", "b", "b", "c"],
                       "key": ["viewer_loaded", "cta_clicked", "viewer_loaded", "heartbeat", "viewer_loaded"],
                       "timestamp": [*t, *t, T0], "plan": [2, np.nan, 3, np.nan, np.nan]})
    for frame, kw in sides(df):
        out = A.funnel(frame, ["viewer_loaded", "cta_clicked"], breakdown="plan", **kw)
        # a: plan 2, converted; b: plan 3; c: no plan on its first step: unknown
        assert out[["plan", "step", "count"]].values.tolist() == [
            ["2", "viewer_loaded", 1], ["2", "cta_clicked", 1], ["3", "viewer_loaded", 1], ["3", "cta_clicked", 0],
            ["unknown", "viewer_loaded", 1], ["unknown", "cta_clicked", 0]]
        corr = A.funnel_correlation(frame, ["viewer_loaded", "cta_clicked"], properties=["plan"], events=False, **kw)
        assert sorted(corr["value"]) == ["2", "3"]


def test_values_too_large_to_square_warn_and_keep_their_means():
    # dwell per session, control s1, s3, s5: 2e200, 4e200, 6e200 (mean 4e200); treatment s0, s2, s4: 1e200, 3e200,
    # 5e200 (mean 3e200). Their squares pass float64's 1.8e308: no interval can be computed
    rows = []
    for i in range(6):
        rows += [(f"s{i}", "custom.experiment", {"variant": "control" if i % 2 else "treatment"}),
                 (f"s{i}", "viewer_closed", {"durationMs": 1e200 * (i + 1)})]
    df = pd.DataFrame({"sessionId": [r[0] for r in rows], "key": [r[1] for r in rows], "timestamp": T0,
                       "payload": [r[2] for r in rows]})
    for frame, kw in sides(df):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out = A.compare_variants(frame, variant_field="variant", metric="mean",
                                     value=("viewer_closed", "durationMs"), **kw)
        messages = [str(w.message) for w in seen]
        assert [w.category for w in seen] == [UserWarning], messages  # numpy's overflow text never reaches the user
        assert messages[0].startswith("compare_variants: value: per-unit values of about 4.0e+200 are too large to "
                                      "square in float64")
        assert seen[0].filename == __file__
        assert out["mean"].tolist() == pytest.approx([4e200, 3e200], rel=1e-12)
        assert out["mean_low"].isna().all()
    # at 1e150 the squares still fit: intervals, and no warning
    small = df.assign(payload=[{"durationMs": p["durationMs"] / 1e50} if "durationMs" in p else p for p in df["payload"]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = A.compare_variants(small, variant_field="variant", metric="mean", value=("viewer_closed", "durationMs"))
    # control: mean 4e150, sample variance ((2-4)^2 + 0 + (6-4)^2) / 2 = 4 (e300): se sqrt(4/3) e150
    assert out.loc[0, "mean_high"] - out.loc[0, "mean"] == pytest.approx(4.302653 * np.sqrt(4 / 3) * 1e150, rel=1e-5)
