"""What every part of the benchmark shares: a row of the table, and how a figure is written."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Row:
    what: str
    measured: str
    floor: str
    ratio: float | None
    target: str
    met: bool | None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def cpu_time(fn: Callable[[], Any]) -> float:
    """CPU time of one call, in this process (a busy machine's other work is not counted)."""
    start = time.process_time()
    fn()
    return time.process_time() - start
