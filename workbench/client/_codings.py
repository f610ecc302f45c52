"""Content codings decoded in bounded steps: no piece of an answer's decoded body is larger than :data:`STEP`.

httpx decodes each raw piece whole, one coding after the other, so ``Content-Encoding: gzip, gzip`` of
3.5 KB on the wire became one 4 GB piece before the client's size bound could look at it (issue 40,
item 3). Here the client reads the raw body and decodes it itself, every coding (the last applied
first) with zlib's ``max_length``: each step yields at most :data:`STEP` bytes to the next coding or
to the caller, who counts them against the answer's bound and stops when it is passed. A stack of
more than :data:`MAX_CODINGS` codings, or a coding the client did not ask for (it asks for
:data:`ACCEPT_ENCODING` only), is refused before anything is decoded (:class:`CodingRefused`).

>>> import gzip
>>> d = Decoder("gzip, gzip")
>>> pieces = list(d.feed(gzip.compress(gzip.compress(b"\\0" * 1_000_000)))) + list(d.flush())
>>> sum(map(len, pieces)), max(map(len, pieces)) <= STEP
(1000000, True)
>>> Decoder("br")
Traceback (most recent call last):
...
workbench.client._codings.CodingRefused: it is sent with the content coding 'br', which the client did not ask for (it asks for gzip, deflate)
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

#: The codings the client asks for (its ``Accept-Encoding``), whatever compressors are installed.
ACCEPT_ENCODING = "gzip, deflate"
#: The most decoded bytes one step yields.
STEP = 256 * 1024
#: The most codings stacked on one body (RFC 9110 allows several; one is what servers send).
MAX_CODINGS = 2


class CodingRefused(ValueError):
    """The answer's content codings are not ones the client decodes; the message says why."""


class _Zlib:
    """One gzip or deflate layer (deflate: the zlib format, or raw deflate as some servers send it)."""

    def __init__(self, coding: str):
        self.coding = coding
        self.started = False
        self.d = zlib.decompressobj(zlib.MAX_WBITS | 16 if coding == "gzip" else zlib.MAX_WBITS)

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self.coding == "deflate" and not self.started and data:
            self.started = True
            try:
                first = self.d.decompress(data, STEP)
            except zlib.error:
                self.d = zlib.decompressobj(-zlib.MAX_WBITS)
                first = self.d.decompress(data, STEP)
            yield first
        else:
            self.started = True
            yield self.d.decompress(data, STEP)
        while self.d.unconsumed_tail:
            yield self.d.decompress(self.d.unconsumed_tail, STEP)

    def flush(self) -> Iterator[bytes]:
        while not self.d.eof and self.d.unconsumed_tail:
            yield self.d.decompress(self.d.unconsumed_tail, STEP)
        yield self.d.flush(STEP)


class Decoder:
    """The decoder of one body sent with ``Content-Encoding: content_encoding`` (empty or ``identity``: as is)."""

    def __init__(self, content_encoding: str):
        codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        for c in codings:
            if c not in ("gzip", "x-gzip", "deflate"):
                raise CodingRefused(f"it is sent with the content coding {c!r}, which the client did not ask for "
                                    f"(it asks for {ACCEPT_ENCODING})")
        if len(codings) > MAX_CODINGS:
            raise CodingRefused(f"it is sent with {len(codings)} content codings stacked ({content_encoding}); the "
                                f"client decodes at most {MAX_CODINGS}")
        # The codings were applied in the order listed: the last one is undone first.
        self.layers = [_Zlib("gzip" if c == "x-gzip" else c) for c in reversed(codings)]

    def feed(self, raw: bytes) -> Iterator[bytes]:
        """The decoded pieces of the next raw piece (none larger than :data:`STEP`, empty ones left out)."""
        yield from self._through(0, raw)

    def flush(self) -> Iterator[bytes]:
        """What the layers still hold at the end of the body."""
        for i, layer in enumerate(self.layers):
            for piece in layer.flush():
                yield from self._through(i + 1, piece)

    def _through(self, i: int, data: bytes) -> Iterator[bytes]:
        if i == len(self.layers):
            if data:
                yield data
            return
        for piece in self.layers[i].feed(data):
            if piece:
                yield from self._through(i + 1, piece)
