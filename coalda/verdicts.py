"""What a comparison of a rewritten kernel with its original concluded: the
oracle's verdicts, in a module of their own so that the findings layer
(report.py) reads them without importing the oracle (which imports spec,
which imports report)."""

from __future__ import annotations

import enum


class Verdict(enum.Enum):
    MATCH = "match"
    MISMATCH = "mismatch"  # differs from the original under every schedule
    RACE = "race"  # the rewritten kernel differs under some schedules only
    RACY_ORIGINAL = "racy original"  # the original itself depends on the schedule
    FAULT = "fault"  # the rewritten kernel faulted in the emulator (barrier divergence, deadlock)
    # nothing to compare, and no failure of the rewrite: an overlap layout's
    # one-thread launch in which the original reads __shared__ bytes no
    # thread wrote (it needs its whole block), the alias layout where the
    # original's threads race on the one buffer, or on the GPU a difference
    # in a kernel whose original stores vector lanes it leaves undefined
    UNCHECKED = "unchecked"
    # on the GPU, the bytes differ only inside doubles that are NaN on both
    # sides (nan_payloads_only): a match whose detail says so
    NAN_PAYLOADS = "nan payloads"


class Unchecked(enum.Enum):
    """Why a comparison was not made (Verdict.UNCHECKED)."""

    ONE_THREAD = "one thread"  # the one-thread launch's original reads unwritten __shared__ bytes
    ALIAS = "alias"  # the original's threads race with every buffer at one address
    UNDEFINED_LANES = "undefined lanes"  # on the GPU: the original stores lanes it leaves undefined
