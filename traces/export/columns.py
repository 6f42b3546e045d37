"""Rows appended column by column, then handed to Arrow in one go: no dict per row, no Python list per id.

Token ids, logprobs and loss masks go into flat `array.array` buffers with offsets, which Arrow adopts
without copying element by element. pyarrow is optional (`pip install 'repozero[export]'`): it is
imported on first use, with an error that says how to install it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from repozero.kernel.errors import UsageError

__all__ = ["ColumnBuffer", "FlatList", "ToolCallList", "arrow_type", "pyarrow"]

_FLAT = {"ids": "i", "logprobs": "f", "mask": "b"}
"""Kinds stored flat: list<int32>, list<float32>, list<int8>."""


def pyarrow() -> ModuleType:
    """The pyarrow module, or a usage error naming the extra that installs it."""
    try:
        import pyarrow as pa
    except ImportError:
        raise UsageError(
            "exporting traces needs pyarrow, which is not installed: pip install 'repozero[export]'"
        ) from None
    return pa


def arrow_type(kind: str) -> Any:
    """The Arrow type of a column kind."""
    pa = pyarrow()
    scalars = {
        "str": pa.string(), "int32": pa.int32(), "int64": pa.int64(), "float64": pa.float64(),
        "bool": pa.bool_(), "ids": pa.list_(pa.int32()), "logprobs": pa.list_(pa.float32()),
        "mask": pa.list_(pa.int8()), "floats": pa.list_(pa.float64()), "bools": pa.list_(pa.bool_()),
        "strs": pa.list_(pa.string()),
        "tool_calls": pa.list_(
            pa.struct([("id", pa.string()), ("name", pa.string()), ("arguments", pa.string())])
        ),
    }  # fmt: skip
    return scalars[kind]


class FlatList:
    """A list column of numbers: one flat value buffer, int32 offsets, a null mask."""

    __slots__ = ("nulls", "offsets", "values")

    def __init__(self, typecode: str) -> None:
        self.values = array(typecode)
        self.offsets = array("i", [0])
        self.nulls: list[bool] = []

    def append(self, items: Sequence[Any] | None) -> None:
        if items is None:
            self.nulls.append(True)
        else:
            self.values.extend(items)
            self.nulls.append(False)
        self.offsets.append(len(self.values))

    def append_filled(self, value: int, count: int) -> None:
        """Append a list of `count` copies of `value` (a loss mask)."""
        self.values.extend(array(self.values.typecode, [value]) * count)
        self.nulls.append(False)
        self.offsets.append(len(self.values))

    def to_arrow(self, kind: str) -> Any:
        pa = pyarrow()
        value_type = arrow_type(kind).value_type
        values = pa.Array.from_buffers(value_type, len(self.values), [None, pa.py_buffer(self.values)])
        offsets = pa.Array.from_buffers(pa.int32(), len(self.offsets), [None, pa.py_buffer(self.offsets)])
        mask = pa.array(self.nulls, pa.bool_()) if any(self.nulls) else None
        return pa.ListArray.from_arrays(offsets, values, mask=mask)


class ToolCallList:
    """A list<struct<id, name, arguments>> column kept as three flat string lists and offsets, so a
    batch holds no container per row (the garbage collector would walk every one of them)."""

    __slots__ = ("arguments", "ids", "names", "offsets")

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.names: list[str] = []
        self.arguments: list[str] = []
        self.offsets = array("i", [0])

    def append(self, calls: Sequence[tuple[str, str, str]]) -> None:
        for call_id, name, arguments in calls:
            self.ids.append(call_id)
            self.names.append(name)
            self.arguments.append(arguments)
        self.offsets.append(len(self.ids))

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def to_arrow(self, kind: str) -> Any:
        pa = pyarrow()
        struct = pa.StructArray.from_arrays(
            [
                pa.array(self.ids, pa.string()),
                pa.array(self.names, pa.string()),
                pa.array(self.arguments, pa.string()),
            ],
            names=["id", "name", "arguments"],
        )
        offsets = pa.Array.from_buffers(pa.int32(), len(self.offsets), [None, pa.py_buffer(self.offsets)])
        return pa.ListArray.from_arrays(offsets, struct, type=arrow_type(kind))


class ColumnBuffer:
    """A batch of rows of one table, column by column. `cols[name]` is a list, a `FlatList` (number
    lists) or a `ToolCallList`; every row appends exactly one value to every column."""

    MAX_VALUES = 1 << 28
    """Flush before any flat column holds more values than this (int32 offsets stay far from overflow)."""

    def __init__(self, spec: Sequence[tuple[str, str]]) -> None:
        self.spec = list(spec)
        self.cols: dict[str, Any] = {}
        self._flats: list[FlatList] = []
        self.clear()

    def clear(self) -> None:
        self.cols = {name: _column(kind) for name, kind in self.spec}
        self._flats = [c for c in self.cols.values() if isinstance(c, FlatList)]

    def __len__(self) -> int:
        column = self.cols[self.spec[0][0]]
        return len(column.nulls) if isinstance(column, FlatList) else len(column)

    def full(self, rows: int) -> bool:
        return len(self) >= rows or any(len(c.values) >= self.MAX_VALUES for c in self._flats)

    def schema(self) -> Any:
        pa = pyarrow()
        return pa.schema([(name, arrow_type(kind)) for name, kind in self.spec])

    def to_arrow(self) -> Any:
        """The buffered rows as an Arrow record batch (the buffer is left as it is)."""
        pa = pyarrow()
        arrays = [
            column.to_arrow(kind)
            if isinstance(column, FlatList | ToolCallList)
            else pa.array(column, arrow_type(kind))
            for (name, kind), column in zip(self.spec, self.cols.values(), strict=True)
        ]
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema())


def _column(kind: str) -> Any:
    if kind in _FLAT:
        return FlatList(_FLAT[kind])
    return ToolCallList() if kind == "tool_calls" else []
