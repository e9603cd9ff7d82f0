"""Work done once and kept while it is asked for again: a game's replay, a night's report, a
fragment every phone fetches. Each is a pure function of what the store holds, so it is kept under
exactly that (the rows it is made from) and a change of any of them is a new key: never stale. The
last few are kept, so memory stays bounded however long the server runs."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class KeptLast(Generic[V]):
    """The last ``size`` values asked for, by key; safe for waitress's threads."""

    def __init__(self, size: int) -> None:
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()  # outside the lock: a request for another key is not held meanwhile
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._size:
                self._values.popitem(last=False)
        return value
