"""The synthetic experiment that starts part way (synth's 8.): exposures from the start only, one per session, history
before it that predicts behaviour during it, and the default (no start) left exactly as it was."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.tracking import analysis as A
from workbench.tracking import synth

START = "2026-11-04T00:00:00Z"


@pytest.fixture(scope="module")
def events():
    return synth.generate(200_000, seed=12, flat=True, experiment_start=START)


def test_exposures_come_from_the_start_on_one_per_session_at_its_visits_first_millisecond(events):
    exposures = events[events["key"] == "custom.experiment"]
    assert len(exposures) and exposures["timestamp"].min() >= pd.Timestamp(START)
    assert exposures["sessionId"].is_unique
    loads = events[events["key"] == "viewer_loaded"].set_index(["sessionId", "timestamp"]).index
    assert exposures.set_index(["sessionId", "timestamp"]).index.isin(loads).all()  # with its viewer_loaded


def test_history_predicts_behaviour_during_the_experiment_and_cuped_uses_it(events):
    out = A.compare_variants(events, variant_field="variant", by="visitorId", metric="mean",
                             value="interaction_start", covariate=True)
    # every visitor's engagement multiplies its interactions before and after: theta well above 0, and the
    # adjusted difference's variance lower
    assert out["theta"][0] > 0.3 and out["variance_reduction"][1] > 0.01
    assert 0.05 < out["units_with_covariate"].sum() / out["units"].sum() < 0.5
    # treatment's lift on the call to action is there, and only from the start
    rates = A.compare_variants(events, variant_field="variant", by="visitorId", success_key="cta_clicked")
    assert rates["difference_low"][1] > 0 and rates["srm_p_value"][0] > 0.001


def test_without_a_start_the_generator_draws_what_it_drew_before():
    plain = synth.generate(5_000, seed=3, flat=True)
    assert plain.equals(synth.generate(5_000, seed=3, flat=True, experiment_start=None))
    # exposures in every product session's first visit, 1 ms after its load, as before
    first = plain[plain["key"] == "custom.experiment"]
    loads = plain[plain["key"] == "viewer_loaded"].set_index(["sessionId", "timestamp"]).index
    shifted = first.assign(timestamp=first["timestamp"] - pd.Timedelta(milliseconds=1))
    assert shifted.set_index(["sessionId", "timestamp"]).index.isin(loads).all()
    # the very rows the generator gave before experiment_start existed: their hash, taken from that commit's code
    assert int(pd.util.hash_pandas_object(plain, index=False).sum() % (1 << 61)) == 467081407088383683
    with pytest.raises(ValueError, match="experiment_start: '2026-11-04' has no zone"):
        synth.generate(100, seed=1, experiment_start="2026-11-04")
