"""TF1's readers (tf.TFRecordReader, TextLineReader, FixedLengthRecordReader, WholeFileReader, IdentityReader).

A reader op outputs a scalar tg.string handle naming the reader's state in the session (READERS container), as a
queue's does. read(queue) takes a work unit (a file name) from the queue when the current one is used up, and gives
the next record's key and value; a closed, empty queue ends the reading with OutOfRangeError, as in TF1.
"""
import threading

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import on_host, register
from ..framework.stacks import run_deadline
from ..platform.tfrecord import compression_of, read_records
from .core_ops import convert_to_tensor
from .file_ops import read_bytes
from .queue_state import QUEUES

READERS = "readers"  # the container of session.resources that holds each reader's state, by its name
_STRING = [((), dtypes.string)]


def _whole_file(name, attrs):
    yield name, read_bytes(name)


def _text_lines(name, attrs):
    lines = read_bytes(name).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines[attrs["skip_header_lines"]:], start=attrs["skip_header_lines"] + 1):
        yield f"{name}:{number}", line[:-1] if line.endswith(b"\r") else line


def _fixed_length(name, attrs):
    raw = read_bytes(name)
    header, record, footer, hop = (attrs[k] for k in ("header_bytes", "record_bytes", "footer_bytes", "hop_bytes"))
    body = raw[header:len(raw) - footer]
    step = hop or record
    for index, start in enumerate(range(0, len(body) - record + 1, step)):
        yield f"{name}:{index}", body[start:start + record]


def _tf_records(name, attrs):
    for offset, data in read_records(name, attrs["compression_type"]):
        yield f"{name}:{offset}", data


def _identity(name, attrs):
    yield name, name.encode()


# readers whose work unit is one record: the unit is done as soon as it is read (TF1's at_end on that read), where
# the others find their end on the next read
SINGLE = ("WholeFileReaderV2", "IdentityReaderV2")
RECORDS = {"WholeFileReaderV2": _whole_file, "TextLineReaderV2": _text_lines,
           "FixedLengthRecordReaderV2": _fixed_length, "TFRecordReaderV2": _tf_records,
           "IdentityReaderV2": _identity}


class ReaderState:
    """One reader in one session: the work unit it reads and how far, and its counts."""

    def __init__(self, records, single):
        self.records, self.single, self.lock = records, single, threading.Lock()
        self.reset()

    def reset(self):
        self.current, self.produced, self.completed = None, 0, 0

    def read(self, queue, n):
        """Up to `n` (key, value) pairs of one work unit, taking the next unit from `queue` when the current one is
        used up; OutOfRangeError once the queue is closed and empty."""
        out = []
        with self.lock:
            while len(out) < n:
                if self.current is None:
                    unit = queue.dequeue_many(1, run_deadline())[0][0]
                    unit = np.asarray(unit, dtype=object)[()]
                    unit = unit.decode() if isinstance(unit, bytes) else str(unit)
                    self.current = self.records(unit)
                pair = next(self.current, None)
                if pair is None:
                    self.current, self.completed = None, self.completed + 1
                    if out:
                        break  # as TF1's ReadUpTo: a call reads from one work unit at most
                    continue
                out.append((pair[0].encode() if isinstance(pair[0], str) else pair[0], pair[1]))
                self.produced += 1
                if self.single:
                    self.current, self.completed = None, self.completed + 1
                    break
        return out


def _reader_kernel(op, session):
    name = op.attrs["shared_name"] or op.name
    handle = np.array(name.encode(), dtype=object)
    records = RECORDS[op.type]
    attrs = dict(op.attrs)

    def run():
        session.resources.lookup_or_create(READERS, name, lambda: ReaderState(lambda unit: records(unit, attrs),
                                                                              op.type in SINGLE))
        return handle
    return run


def _reader(session, handle):
    return session.resources.lookup(READERS, handle[()].decode())


def _read_kernel(op, session):
    def run(reader, queue, *n):
        pairs = _reader(session, reader).read(session.resources.lookup(QUEUES, queue[()].decode()),
                                              int(n[0]) if n else 1)
        if not n:
            return np.array(pairs[0][0], dtype=object), np.array(pairs[0][1], dtype=object)
        keys, values = np.empty(len(pairs), dtype=object), np.empty(len(pairs), dtype=object)
        keys[:], values[:] = [k for k, _ in pairs], [v for _, v in pairs]
        return keys, values
    return run


def _count_kernel(field):
    def make(op, session):
        return lambda reader: np.int64(getattr(_reader(session, reader), field))
    return make


def _reset_kernel(op, session):
    return lambda reader: _reader(session, reader).reset()


for _kind in RECORDS:
    register(_kind, kernel=on_host(_reader_kernel), infer=lambda **attrs: _STRING)
register("ReaderReadV2", kernel=on_host(_read_kernel), infer=lambda r, q: _STRING * 2)
register("ReaderReadUpToV2", kernel=on_host(_read_kernel), infer=lambda r, q, n: [((None,), dtypes.string)] * 2)
register("ReaderNumRecordsProducedV2", kernel=on_host(_count_kernel("produced")), infer=lambda r: [((), dtypes.int64)])
register("ReaderNumWorkUnitsCompletedV2", kernel=on_host(_count_kernel("completed")),
         infer=lambda r: [((), dtypes.int64)])
register("ReaderResetV2", kernel=on_host(_reset_kernel), infer=lambda r: [])


class ReaderBase:
    """A reader of records from the work units (file names) of a queue (TF1's tf.ReaderBase)."""

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref, self._supports_serialize = reader_ref, supports_serialize

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self):
        return self._supports_serialize

    def _op(self, op_type, inputs, specs, name):
        return self._reader_ref.graph.create_op(op_type, [self._reader_ref] + inputs, specs, name=name)

    def read(self, queue, name=None):
        """(key, value): the next record, taking a work unit from `queue` (a queue or its handle) when needed."""
        op = self._op("ReaderReadV2", [_queue_ref(queue)], _STRING * 2, name or "ReaderReadV2")
        return op.outputs[0], op.outputs[1]

    def read_up_to(self, queue, num_records, name=None):
        """(keys, values): up to `num_records` records; fewer when the queue runs out of work units."""
        n = convert_to_tensor(num_records, dtype=dtypes.int64, name="num_records")
        op = self._op("ReaderReadUpToV2", [_queue_ref(queue), n], [((None,), dtypes.string)] * 2,
                      name or "ReaderReadUpToV2")
        return op.outputs[0], op.outputs[1]

    def num_records_produced(self, name=None):
        return self._op("ReaderNumRecordsProducedV2", [], [((), dtypes.int64)],
                        name or "ReaderNumRecordsProducedV2").outputs[0]

    def num_work_units_completed(self, name=None):
        return self._op("ReaderNumWorkUnitsCompletedV2", [], [((), dtypes.int64)],
                        name or "ReaderNumWorkUnitsCompletedV2").outputs[0]

    def reset(self, name=None):
        """An op forgetting the current work unit and the counts."""
        return self._op("ReaderResetV2", [], [], name or "ReaderResetV2")

    def serialize_state(self, name=None):
        raise NotImplementedError(f"{type(self).__name__} does not support serializing its state")

    def restore_state(self, state, name=None):
        raise NotImplementedError(f"{type(self).__name__} does not support restoring its state")


def _queue_ref(queue):
    return getattr(queue, "queue_ref", queue)


def _make(op_type, name, default, **attrs):
    ref = get_default_graph().create_op(op_type, [], _STRING, name=name or default,
                                        attrs=dict(attrs, shared_name=attrs.get("shared_name") or "")).outputs[0]
    return ref


class WholeFileReader(ReaderBase):
    """Reads each work unit's whole file as one record; the key is the file name."""

    def __init__(self, name=None):
        super().__init__(_make("WholeFileReaderV2", name, "WholeFileReaderV2"), supports_serialize=True)


class TextLineReader(ReaderBase):
    """Reads a file's lines (newline dropped), after `skip_header_lines`; the key is "file:line number"."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__(_make("TextLineReaderV2", name, "TextLineReaderV2",
                               skip_header_lines=int(skip_header_lines or 0)))


class FixedLengthRecordReader(ReaderBase):
    """Reads records of `record_bytes` bytes between a header and a footer; the key is "file:record index"."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None,
                 encoding=None):
        if encoding:
            raise NotImplementedError(f"FixedLengthRecordReader(encoding={encoding!r}) is not implemented: "
                                      "decompress the files first")
        super().__init__(_make("FixedLengthRecordReaderV2", name, "FixedLengthRecordReaderV2",
                               record_bytes=int(record_bytes), header_bytes=int(header_bytes or 0),
                               footer_bytes=int(footer_bytes or 0), hop_bytes=int(hop_bytes or 0)))


class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files (GZIP or ZLIB ones through `options`); the key is "file:offset"."""

    def __init__(self, name=None, options=None):
        super().__init__(_make("TFRecordReaderV2", name, "TFRecordReaderV2", compression_type=compression_of(options)))


class IdentityReader(ReaderBase):
    """Gives each work unit as both key and value."""

    def __init__(self, name=None):
        super().__init__(_make("IdentityReaderV2", name, "IdentityReaderV2"), supports_serialize=True)
