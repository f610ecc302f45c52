"""msgspec decoders and an encoder made from the catalog, built on first use (msgspec is imported only
then), for the service's one-pass check (:mod:`.fast`) and canonical JSON (:mod:`.canonical`).

Decoding a body and then walking it with check_event cost about 5 us per event, most of
the service's time per batch (measured in bench/ingest.py). msgspec decodes and checks at
once, in C, against types generated here from CATALOG, so the rules are still written once.
The types accept only a subset of what the rules accept (every catalog key, its exact
payload fields, bounded numbers); anything else, custom.NAME included, is decided by
check_event on that event alone, so the answer is always the one check_batch gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workbench.tracking.fields import INT_BOUND, kind_of

from .table import CATALOG, MAX_EVENTS, MAX_ID_CHARS, MAX_PAYLOAD_BYTES, MAX_SESSION_ID_CHARS, EventSpec, FieldSpec

_INT_BOUND = INT_BOUND  # larger ints take the general way (the general decoder has its own limit)
NESTING_BOUND = 32       # an event of more brackets takes the general way, whose decoder bounds nesting


@dataclass(frozen=True)
class _Decoders:
    """msgspec decoders made from CATALOG (built on first use: msgspec is imported only then)."""

    msgspec: Any
    batch: Any     # a batch whose events are all catalog events of the exact shape
    envelope: Any  # a batch with each event left as its JSON text (msgspec.Raw)
    event: Any     # one catalog event
    events: Any    # a list of catalog events (the client's pre-check)
    errors: tuple  # what msgspec raises for text or values it refuses
    canonical: Any          # sorted compact JSON (canonical_json)
    canonical_decoder: Any  # its text back to plain values


_DECODERS: _Decoders | None = None


def decoders() -> _Decoders:
    global _DECODERS
    if _DECODERS is None:
        from typing import Annotated, Optional, Union

        import msgspec

        M = msgspec.Meta

        def string_bound(spec: EventSpec) -> int:
            # The 8 KiB payload rule as a bound on each free text field: JSON writes a character
            # in at most 6 bytes, so a payload of shorter strings cannot pass the limit, and a
            # typed payload needs no size check. A longer string is measured by check_event.
            sizes = [kind_of(f).json_bytes(f) for f in spec.fields]
            fixed = 2 + sum(len(f.name) + 4 for f in spec.fields) + sum(n for n in sizes if n is not None)
            return (MAX_PAYLOAD_BYTES - fixed) // (6 * max(1, sizes.count(None))) - 2

        def field_type(f: FieldSpec, spec: EventSpec):
            return kind_of(f).msgspec_type(f, string_bound(spec))

        def event_type(spec: EventSpec):
            name = "".join(part.title() for part in spec.key.split("_"))
            fields = [(f.name, field_type(f, spec)) if f.required
                      else (f.name, Union[field_type(f, spec), msgspec.UnsetType], msgspec.UNSET)
                      for f in sorted(spec.fields, key=lambda f: not f.required)]
            payload = msgspec.defstruct(name + "Payload", fields, forbid_unknown_fields=True)
            # A payload with a required field cannot be absent; one without may be absent or null.
            has_required = any(f.required for f in spec.fields)
            payload_field = ("payload", payload) if has_required else ("payload", Optional[payload], None)
            ident = Annotated[str, M(min_length=1, max_length=MAX_ID_CHARS)]
            epoch_ms = Annotated[int, M(ge=-_INT_BOUND, le=_INT_BOUND)]
            # omit_defaults: turned back into a dict, an event has only the fields it was sent with.
            return msgspec.defstruct(name + "Event", [payload_field, ("timestamp", Union[epoch_ms, str, None], None),
                                                      ("id", Optional[ident], None)],
                                     tag=spec.key, tag_field="key", forbid_unknown_fields=True, omit_defaults=True)

        def batch_type(name: str, event):
            return msgspec.defstruct(name, [
                ("sessionId", Annotated[str, M(min_length=1, max_length=MAX_SESSION_ID_CHARS)]),
                ("events", Annotated[list[event], M(min_length=1, max_length=MAX_EVENTS)])],
                forbid_unknown_fields=True)

        # a type built at run time from the catalog, for msgspec: to a type checker, a type it cannot know (Any)
        event: Any = Union[tuple(event_type(spec) for spec in CATALOG.values() if not spec.free_form)]
        D = msgspec.json.Decoder
        _DECODERS = _Decoders(msgspec, D(batch_type("Batch", event)), D(batch_type("RawBatch", msgspec.Raw)),
                              D(event), D(list[event]), (msgspec.MsgspecError, UnicodeDecodeError),
                              msgspec.json.Encoder(order="sorted"), D())
    return _DECODERS
