"""One entry per payload field kind (``workbench/tracking/fields.py``), and its four faces agree.

For each kind of catalog field, the same values are judged by the reference check, by the
msgspec type of the service's fast path and by the JSON Schema of ``/openapi.json``; every value
they take fits the Arrow type of the event lake; and every field of the catalog has a kind.
"""

from __future__ import annotations

import math

import jsonschema
import msgspec
import pyarrow as pa
import pytest

from workbench.tracking.catalog import CATALOG, FieldSpec
from workbench.tracking.fields import KINDS, kind_of

FIELDS = {
    "number": FieldSpec("n", "number", minimum=0),
    "boolean": FieldSpec("b", "boolean"),
    "choice": FieldSpec("c", "string", allowed=("ios", "android")),
    "string": FieldSpec("s", "string"),
}
VALUES = [0, 1, 2.5, -1, -0.5, 10**20, True, False, None, "ios", "web", "", "x" * 50, [], {}, 1e300]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_check_the_fast_path_and_the_json_schema_agree(kind):
    f = FIELDS[kind]
    k = kind_of(f)
    assert k.name == kind
    check, schema = k.check(f), k.json_schema(f)
    decoder = msgspec.json.Decoder(k.msgspec_type(f, 1000))
    for v in VALUES:
        by_check = check(v) is None
        by_schema = jsonschema.Draft202012Validator(schema).is_valid(v)
        try:
            decoder.decode(msgspec.json.encode(v))
            by_fast = True
        except msgspec.ValidationError:
            by_fast = False
        # booleans are not numbers to the catalog, though JSON Schema's "number" would not take them either
        assert by_check == by_schema, (kind, v)
        assert by_fast == by_check or (kind == "number" and isinstance(v, int) and abs(v) > 2**63), (kind, v)
        if by_check:
            arrow = k.arrow_type(f)
            if pa.types.is_dictionary(arrow):
                pa.array([v], type=pa.string()).cast(arrow)
            else:
                pa.array([float(v) if type(v) is int else v], type=arrow)


def test_an_accepted_number_past_int64_goes_into_the_lake():
    # found by the check above: 10**20 passed the catalog, then broke the Parquet export
    from workbench.tracking.schema import from_records

    t = from_records([{"viewerToken": "v", "sessionId": "s", "key": "viewer_loaded", "timestamp": 0,
                       "payload": {"loadTimeMs": 10**20, "device": "mobile"}}])
    assert t.column("payload.loadTimeMs").to_pylist() == [1e20]


def test_every_catalog_field_has_a_kind():
    for spec in CATALOG.values():
        for f in spec.fields:
            assert kind_of(f).name in KINDS


def test_an_unknown_kind_is_named():
    with pytest.raises(ValueError, match="unknown type 'date'"):
        kind_of(FieldSpec("d", "date"))


def test_json_bytes_bound_the_json_of_any_accepted_value():
    for kind, f in FIELDS.items():
        bound = kind_of(f).json_bytes(f)
        if bound is None:
            continue
        for v in [*VALUES, -2.2250738585072014e-308, math.pi, "android"]:
            if kind_of(f).check(f)(v) is None:
                assert len(msgspec.json.encode(v)) <= bound, (kind, v)
