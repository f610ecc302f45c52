"""The statistics of an experiment readout, from per-unit sums: moments that add up, intervals, CUPED, the split's check.

:mod:`.experiments` reduces each unit (a session, a visitor) to four sums, ``Y`` and ``N``
over the experiment (from its exposure on) and ``X`` and ``M`` over the covariate's window
before it; every metric is ``sum Y / sum N`` over a variant's units (``N`` is 1 for a mean
and for a conversion, whose ``Y`` is 0 or 1). Per (variant, stratum) it keeps the count,
the means and the co-moments of the four (:func:`moments`), which add up across Dask
partitions exactly as Chan, Golub and LeVeque's pairwise update says (:func:`merge`).

From them (:func:`estimates`):

- a variant's value ``R = mean Y / mean N`` and its variance by the delta method,
  ``(s_YY - 2 R s_YN + R^2 s_NN) / (n mean_N^2)`` (for a mean: ``s_YY / n``, Welch's);
- with a covariate (CUPED, Deng, Xu, Kohavi and Walker 2013), units with data in the window
  form one stratum, those without another (Statsig's stratification for units without
  pre-exposure data); within the first, each unit's linearized value ``L = (Y - R N) / mean_N``
  is adjusted by ``theta (K - 0)``, ``K = (X - R_x M) / mean_M``, with ``theta`` the pooled
  within-variant slope ``sum cov(L, K) / sum var(K)`` (the covariate's coefficient in
  ``Y ~ variant + X``, the same for every variant); the stratum's value is
  ``R - theta (R_x - R_x of the stratum)``; the strata's values are weighted by their share
  of all units' ``N`` (the units, for a mean);
- intervals: ``"fixed"`` is Student's t with the Welch-Satterthwaite degrees of freedom for
  means (conversions with a covariate too) and the normal for ratios; ``"sequential"`` is the
  asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas (2024,
  "Time-uniform central limit theory and asymptotic confidence sequences", Annals of
  Statistics), the normal-mixture boundary of Howard, Ramdas, McAuliffe and Sekhon (2021):
  ``estimate +- se * sqrt(2 (n rho^2 + 1) / (n rho^2) * log(sqrt(n rho^2 + 1) / alpha))``
  with ``n`` the units and ``rho`` tuned to be tightest at ``planned`` units
  (:func:`sequential_multiplier`); it holds at every ``n`` at once, so it may be looked at
  after every day and the experiment stopped whenever it excludes 0.

:func:`sample_ratio` is the chi-square test of the units against the expected split
(scipy's ``chisquare``).

>>> cells = moments(np.array([0, 0, 1, 1]), np.zeros(4, int), np.array([[1., 1, 0, 0], [3, 1, 0, 0],
...                 [2, 1, 0, 0], [6, 1, 0, 0]]))
>>> cells["n"].tolist(), cells["m_Y"].tolist(), cells["c_YY"].tolist()
([2, 2], [2.0, 4.0], [2.0, 8.0])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

__all__ = ["VARS", "moments", "merge", "estimates", "sequential_multiplier", "sequential_p", "sample_ratio",
           "SRM_ALPHA"]

VARS = ("Y", "N", "X", "M")
PAIRS = [(a, b) for i, a in enumerate(VARS) for b in VARS[i:]]
COLUMNS = ["variant", "stratum", "n", *[f"m_{v}" for v in VARS], *[f"c_{a}{b}" for a, b in PAIRS]]
#: A split is flagged when the chi-square test's p-value is below this (Statsig's and Optimizely's threshold).
SRM_ALPHA = 0.001


def moments(variant: np.ndarray, stratum: np.ndarray, values: np.ndarray) -> pd.DataFrame:
    """Per (variant code, stratum): the units, the means of ``Y N X M`` (``values``' columns) and their co-moments
    ``c_ab = sum (a - mean a)(b - mean b)``, one row per cell, in numpy (no per-unit Python)."""
    cell = variant.astype(np.int64) * 2 + stratum.astype(np.int64)
    uniq, inverse = np.unique(cell, return_inverse=True)
    n = np.bincount(inverse, minlength=len(uniq)).astype(np.int64)
    means = np.column_stack([np.bincount(inverse, weights=values[:, i], minlength=len(uniq)) / n
                             for i in range(len(VARS))]) if len(uniq) else np.empty((0, len(VARS)))
    centred = values - means[inverse]
    out: dict[str, np.ndarray] = {"variant": uniq // 2, "stratum": uniq % 2, "n": n}
    for i, v in enumerate(VARS):
        out[f"m_{v}"] = means[:, i]
    for a, b in PAIRS:
        i, j = VARS.index(a), VARS.index(b)
        out[f"c_{a}{b}"] = np.bincount(inverse, weights=centred[:, i] * centred[:, j], minlength=len(uniq))
    return pd.DataFrame(out, columns=COLUMNS)


def merge(cells: pd.DataFrame) -> pd.DataFrame:
    """Rows of the same (variant, stratum) merged into one: counts add, means are weighted, co-moments add with
    ``outer(delta, delta) n_a n_b / n`` (Chan, Golub and LeVeque 1979), so partitions add up to the whole.

    >>> a = moments(np.array([0, 0]), np.array([0, 0]), np.array([[1., 1, 0, 0], [3, 1, 0, 0]]))
    >>> b = moments(np.array([0]), np.array([0]), np.array([[5., 1, 0, 0]]))
    >>> merge(pd.concat([a, b]))[["n", "m_Y", "c_YY"]].values.tolist()
    [[3.0, 3.0, 8.0]]
    """
    rows = []
    for (variant, stratum), group in cells.groupby(["variant", "stratum"], sort=True):
        n, mean, co = 0, np.zeros(len(VARS)), np.zeros((len(VARS), len(VARS)))
        for r in group.itertuples(index=False):
            nb = r.n
            if not nb:
                continue
            mb = np.array([getattr(r, f"m_{v}") for v in VARS])
            cb = np.zeros_like(co)
            for a, b in PAIRS:
                i, j = VARS.index(a), VARS.index(b)
                cb[i, j] = cb[j, i] = getattr(r, f"c_{a}{b}")
            delta = mb - mean
            total = n + nb
            co = co + cb + np.outer(delta, delta) * n * nb / total
            mean = mean + delta * nb / total
            n = total
        rows.append([variant, stratum, n, *mean, *[co[VARS.index(a), VARS.index(b)] for a, b in PAIRS]])
    return pd.DataFrame(rows, columns=COLUMNS)


def _cell(row: pd.Series) -> tuple[int, np.ndarray, np.ndarray]:
    """(n, means, covariance matrix with n - 1 in the denominator) of one merged row."""
    n = int(row["n"])
    mean = np.array([row[f"m_{v}"] for v in VARS], dtype=float)
    cov = np.zeros((len(VARS), len(VARS)))
    for a, b in PAIRS:
        i, j = VARS.index(a), VARS.index(b)
        cov[i, j] = cov[j, i] = row[f"c_{a}{b}"] / (n - 1) if n > 1 else np.nan
    return n, mean, cov


def _pooled(rows: list) -> tuple[int, np.ndarray, np.ndarray]:
    """The cells of ``rows`` (same variant, several strata) as one: their merge's n, means and covariance."""
    frame = pd.DataFrame(rows, columns=COLUMNS).assign(stratum=0)
    return _cell(merge(frame).iloc[0])


def estimates(cells: pd.DataFrame, covariate: bool) -> dict:
    """Per variant code: ``value``, its variance ``var`` and the degrees of freedom's parts (for
    Welch-Satterthwaite), plain and, with ``covariate``, CUPED-adjusted; ``theta``.

    Returns ``{"plain": {code: (value, var, parts)}, "cuped": {...} or None, "theta": float}``, where
    ``parts`` is a list of (variance contribution, n) for the degrees of freedom.
    """
    plain: dict[int, Any] = {}
    by_variant: dict[int, list[pd.Series]] = {}
    for _, row in cells.iterrows():
        by_variant.setdefault(int(row["variant"]), []).append(row)
    for code, rows in by_variant.items():
        n, mean, cov = _pooled(rows)
        plain[code] = _ratio(n, mean, cov)
    if not covariate:
        return {"plain": plain, "cuped": None, "theta": np.nan}
    # the stratum with covariate data: the pooled within-variant slope of L on K
    sxy = sxx = 0.0
    lin = {}
    for _, row in cells[cells["stratum"] == 1].iterrows():
        n, mean, cov = _cell(row)
        a_l, a_k = _lin(mean)
        lin[int(row["variant"])] = (n, mean, cov, a_l, a_k)
        if n > 1:
            sxy += (n - 1) * float(a_l @ cov @ a_k)
            sxx += (n - 1) * float(a_k @ cov @ a_k)
    theta = sxy / sxx if sxx > 0 and np.isfinite(sxy) else 0.0
    with_data = cells[cells["stratum"] == 1]
    rx = (with_data["n"] * with_data["m_X"]).sum() / (with_data["n"] * with_data["m_M"]).sum() if len(with_data) else 0
    weight = {s: float((g["n"] * g["m_N"]).sum()) for s, g in cells.groupby("stratum")}
    total = sum(weight.values())
    cuped = {}
    for code, rows in by_variant.items():
        value, var, parts = 0.0, 0.0, []
        for row in rows:
            s = int(row["stratum"])
            w = weight[s] / total if total else np.nan
            if s == 1:
                n, mean, cov, a_l, a_k = lin[code]
                r_x = mean[2] / mean[3] if mean[3] else 0.0
                v = mean[0] / mean[1] - theta * (r_x - rx) if mean[1] else np.nan
                adj = a_l - theta * a_k
                cell_var = float(adj @ cov @ adj) / n if n > 1 else np.nan
            else:
                n, mean, cov = _cell(row)
                v, cell_var, _ = _ratio(n, mean, cov)
            value += w * v
            var += w * w * cell_var
            parts.append((w * w * cell_var, n))
        cuped[code] = (value, var, parts)
    return {"plain": plain, "cuped": cuped, "theta": theta}


def _lin(mean: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The coefficients on (Y, N, X, M) of the linearized value of the metric and of its covariate."""
    r = mean[0] / mean[1] if mean[1] else 0.0
    r_x = mean[2] / mean[3] if mean[3] else 0.0
    a_l = np.array([1.0, -r, 0, 0]) / (mean[1] or 1.0)
    a_k = np.array([0, 0, 1.0, -r_x]) / (mean[3] or 1.0)
    return a_l, a_k


def _ratio(n: int, mean: np.ndarray, cov: np.ndarray) -> tuple[float, float, list]:
    """A cell's ``mean Y / mean N`` and its delta-method variance (Welch's ``s^2 / n`` for a mean)."""
    if not n or not mean[1]:
        return np.nan, np.nan, [(np.nan, n)]
    a_l, _ = _lin(mean)
    var = float(a_l @ cov @ a_l) / n if n > 1 else np.nan
    return mean[0] / mean[1], var, [(var, n)]


def satterthwaite(parts: list) -> float:
    """Welch-Satterthwaite degrees of freedom of a sum of independent variance contributions ``(v, n)``.

    >>> round(satterthwaite([(1.0, 11), (1.0, 11)]), 6)
    20.0
    """
    parts = [(v, n) for v, n in parts if n > 1]
    # in units of the largest part: a variance near float64's largest number cannot be squared (1e150 per unit
    # gives 1e300), and the ratio does not depend on the unit
    scale = max((abs(v) for v, _ in parts if np.isfinite(v)), default=0.0) or 1.0
    parts = [(v / scale, n) for v, n in parts]
    den = sum(v * v / (n - 1) for v, n in parts)
    return sum(v for v, _ in parts) ** 2 / den if den > 0 else np.nan


def sequential_multiplier(n: ArrayLike, alpha: float, planned: float) -> np.ndarray:
    """How many standard errors the asymptotic confidence sequence reaches out at ``n`` units (the normal-mixture
    boundary, ``rho`` tightest at ``planned`` units; Waudby-Smith et al. 2024, Howard et al. 2021).

    >>> round(float(sequential_multiplier(10_000, 0.05, 10_000)), 4)  # where a fixed interval reaches 1.96
    3.0352
    """
    log_a = math.log(alpha)
    rho2 = (-2 * log_a + math.log(-2 * log_a + 1)) / planned
    n = np.asarray(n, dtype=float)
    v = n * rho2
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(2 * (v + 1) / v * np.log(np.sqrt(v + 1) / alpha))


def sequential_p(z: ArrayLike, n: ArrayLike, planned: float, alpha_for_rho: float) -> np.ndarray:
    """The smallest level at which the confidence sequence excludes 0 at ``n`` units, for an estimate ``z``
    standard errors from 0: ``min(1, sqrt(v + 1) exp(-z^2 v / (2 (v + 1))))`` with ``v = n rho^2``.

    >>> round(float(sequential_p(3.0352, 10_000, 10_000, 0.05)), 3)
    0.05
    """
    log_a = math.log(alpha_for_rho)
    rho2 = (-2 * log_a + math.log(-2 * log_a + 1)) / planned
    v = np.asarray(n, dtype=float) * rho2
    z = np.asarray(z, dtype=float)
    return np.minimum(1.0, np.sqrt(v + 1) * np.exp(-z * z * v / (2 * (v + 1))))


def sample_ratio(units: np.ndarray, shares: np.ndarray) -> float:
    """The p-value of the chi-square test of ``units`` per variant against the expected ``shares``; NaN when there
    is nothing to test (no units, or one variant and no weights).

    >>> round(sample_ratio(np.array([5000, 5200]), np.array([0.5, 0.5])), 4)
    0.0477
    """
    from scipy import stats

    total = units.sum()
    if total == 0 or len(units) < 2:
        return float("nan")
    return float(stats.chisquare(units, total * shares).pvalue)
