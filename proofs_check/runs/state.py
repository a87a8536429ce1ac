"""A long run's state file: each finished item written as it finishes, so an interrupted run resumes.

The file is JSON Lines: the first line names the run and its parameters (``{"run": "exhaustive", "parameters":
{...}}``), every further line is one finished item, as the run records it.  Opening a state file that holds a run
of other parameters is refused (a named error, never a silent mix of two runs); a last line cut short by the
interruption is dropped, and its item is redone.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> with StateFile(path, "demo", {"n": 3}) as state:
...     state.append({"item": 1})
>>> with StateFile(path, "demo", {"n": 3}) as state:
...     list(state.done())
[{'item': 1}]
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from types import TracebackType
from typing import Any, BinaryIO

from exactpte.errors import UsageError

__all__ = ["StateFile"]


class StateFile:
    """The state file at ``path`` of the run ``run`` with ``parameters`` (JSON data): :meth:`done` reads the items an
    earlier, interrupted run of the same parameters finished (one at a time: a run of a quarter of a million items
    is never all in memory); :meth:`append` records one more."""

    def __init__(self, path: str, run: str, parameters: dict[str, Any]) -> None:
        self.path = path
        self.header = {"run": run, "parameters": json.loads(json.dumps(parameters))}
        self._fh: BinaryIO
        try:
            self.end = self._check() if os.path.exists(path) and os.path.getsize(path) > 0 else None
            if self.end is not None:
                self._fh = open(path, "r+b")
                self._fh.truncate(self.end)  # drop a line cut short by the interruption
                self._fh.seek(self.end)
            else:
                self._fh = open(path, "wb")
                self._write(self.header)
                self.end = self._fh.tell()
        except OSError as e:
            raise UsageError(f"state file {path}: {e.strerror}") from None

    def _check(self) -> int | None:
        """Check the header; the byte offset after the last whole line (``None`` when even the header was cut short:
        the file is then written anew)."""
        with open(self.path, "rb") as fh:
            first = fh.readline()
            if not first.endswith(b"\n"):
                if self._line(self.header).encode("utf-8").startswith(first):
                    return None
                header = None
            else:
                try:
                    header = json.loads(first)
                except ValueError:
                    header = None
            if not isinstance(header, dict) or "run" not in header:
                raise UsageError(f"state file {self.path}: its first line is not a run's header (a file of something else?)")
            if header != self.header:
                raise UsageError(f"state file {self.path} holds another run ({json.dumps(header)[:300]}); this one is "
                                 f"{json.dumps(self.header)[:300]}: give another file, or the same options")
            size = fh.seek(0, os.SEEK_END)
            step = 1 << 16
            while size > len(first):  # the last newline: what follows it was being written when the run stopped
                start = max(len(first), size - step)
                fh.seek(start)
                cut = fh.read(size - start).rfind(b"\n")
                if cut >= 0:
                    return start + cut + 1
                size = start
            return len(first)

    def done(self) -> Iterator[dict[str, Any]]:
        """The items finished before (read one line at a time)."""
        with open(self.path, "rb") as fh:
            fh.readline()
            k = 1
            while fh.tell() < (self.end or 0):
                line, k = fh.readline(), k + 1
                try:
                    item = json.loads(line)
                except ValueError:
                    item = None
                if not isinstance(item, dict):
                    raise UsageError(f"state file {self.path}: line {k} is not an item of the run (the file is damaged)")
                yield item

    @staticmethod
    def _line(record: dict[str, Any]) -> str:
        return json.dumps(record, separators=(",", ":"))

    def _write(self, record: dict[str, Any]) -> None:
        self._fh.write((self._line(record) + "\n").encode("utf-8"))
        self._fh.flush()

    def append(self, record: dict[str, Any]) -> None:
        """Record one finished item (written and flushed at once)."""
        self._write(record)

    def close(self) -> None:
        """Close the file."""
        self._fh.close()

    def __enter__(self) -> StateFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
