"""Browser tests: real pages on another origin, in headless Chromium, against the local service."""
