"""tf.summary.FileWriter: Event records appended to an event file that TensorBoard reads."""
import itertools
import os
import socket
import threading
import time
import warnings
import weakref

import numpy as np

from ..framework.graph import Graph, get_default_graph
from ..framework.node_def import GraphDef
from .protos import Event, Summary, TaggedRunMetadata, summary_event, summary_values
from ..platform.tfrecord import encode_record

_UNIQUE = itertools.count(1)


class _EventFile:
    """One open event file and its records not yet written; also closed at exit if the user forgot."""

    def __init__(self, logdir, suffix):
        now = time.time()
        base = f"events.out.tfevents.{int(now):010d}.{socket.gethostname()}"
        try:
            self.path = os.path.join(logdir, base + suffix)
            self.file = open(self.path, "xb")
        except FileExistsError:  # another writer opened one this second: add what TF2 adds, pid and a counter
            self.path = os.path.join(logdir, f"{base}.{os.getpid()}.{next(_UNIQUE)}{suffix}")
            self.file = open(self.path, "xb")
        self.pending = [encode_record(Event(wall_time=now, file_version="brain.Event:2").SerializeToString())]
        self.lock = threading.Lock()
        self.flush()

    def flush(self):
        with self.lock:
            if self.file.closed:
                return
            # Swap the list before writing: service threads may append while this thread writes.
            pending, self.pending = self.pending, []
            self.file.write(b"".join(pending))
            self.file.flush()
            self.flushed_at = time.monotonic()

    def close(self):
        self.flush()
        self.file.close()


class FileWriter:
    """Writes summaries, graphs and session logs to a new event file in `logdir`.

    Events wait in memory until `max_queue` of them are pending or `flush_secs` passed since the last
    write, and on flush()/close(). `session` is accepted and ignored: events always go straight to logdir.
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None, filename_suffix=None,
                 session=None):
        self._logdir = str(logdir)
        self._max_queue, self._flush_secs, self._suffix = int(max_queue), float(flush_secs), filename_suffix or ""
        self._seen_summary_tags, self._seen_run_metadata_tags = set(), set()
        os.makedirs(self._logdir, exist_ok=True)
        self._file = None
        self.reopen()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def get_logdir(self):
        return self._logdir

    def add_event(self, event):
        """Append an Event as given."""
        self._add_serialized(event.SerializeToString())

    def _add_serialized(self, event):
        if self._file is None:
            warnings.warn("Attempting to use a closed FileWriter. The operation will be a noop unless the "
                          "FileWriter is explicitly reopened.", stacklevel=3)
            return
        f, record = self._file, encode_record(event)
        with f.lock:
            f.pending.append(record)
            due = len(f.pending) >= self._max_queue or time.monotonic() - f.flushed_at >= self._flush_secs
        if due:
            f.flush()

    def _add_event(self, event, global_step):
        event.wall_time = time.time()
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_summary(self, summary, global_step=None):
        """Add a Summary, or the serialized bytes a summary op's Session.run returns."""
        if isinstance(summary, np.ndarray) and summary.dtype == object and summary.ndim == 0:
            summary = summary[()]  # a string scalar as a kernel holds it
        if isinstance(summary, (bytes, bytearray)):
            if not any(metadata for _, metadata in summary_values(summary)):  # nothing to strip: write it as it is
                step = None if global_step is None else int(global_step)
                self._add_serialized(summary_event(bytes(summary), time.time(), step))
                return
            summary = Summary.FromString(summary)
        elif not isinstance(summary, Summary):
            raise TypeError(f"add_summary takes a tg.Summary or its serialized bytes (from Session.run), "
                            f"got {type(summary).__name__}: {summary!r}")
        for value in summary.value:  # plugin metadata is kept on a tag's first value only, as TF1 does
            if value.HasField("metadata"):
                if value.tag in self._seen_summary_tags:
                    value.ClearField("metadata")
                self._seen_summary_tags.add(value.tag)
        self._add_event(Event(summary=summary), global_step)

    def add_session_log(self, session_log, global_step=None):
        self._add_event(Event(session_log=session_log), global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Write a run's metadata (a tg.RunMetadata: the step statistics of a traced run) under `tag`, for
        TensorBoard's per-step view in the graph tab; a tag may be used once per writer, as in TF1."""
        if tag in self._seen_run_metadata_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._seen_run_metadata_tags.add(tag)
        data = run_metadata.SerializeToString()
        self._add_event(Event(tagged_run_metadata=TaggedRunMetadata(tag=tag, run_metadata=data)), global_step)

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Write `graph` (a tg.Graph, or a GraphDef) for TensorBoard's graph tab."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        graph = graph if graph is not None else graph_def
        if isinstance(graph, Graph):
            graph = graph.as_graph_def(add_shapes=True)  # TensorBoard's graph tab shows the shapes on the edges
        if isinstance(graph, GraphDef):
            graph = graph.SerializeToString()
        if not isinstance(graph, bytes):
            raise TypeError(f"The passed graph must be a tg.Graph (e.g. sess.graph) or a GraphDef, "
                            f"got {type(graph).__name__}")
        self._add_event(Event(graph_def=graph), global_step)

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._finalizer.detach()
            self._file.close()
            self._file = None

    def reopen(self):
        """After close(), start a new event file in the same logdir."""
        if self._file is None:
            self._file = _EventFile(self._logdir, self._suffix)
            self._finalizer = weakref.finalize(self, self._file.close)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FileWriterCache:
    """One FileWriter per logdir, shared by everything in the process that writes there."""

    _writers = {}
    _lock = threading.RLock()

    @staticmethod
    def get(logdir):
        with FileWriterCache._lock:
            if logdir not in FileWriterCache._writers:
                FileWriterCache._writers[logdir] = FileWriter(logdir, graph=get_default_graph())
            return FileWriterCache._writers[logdir]

    @staticmethod
    def clear():
        """Close and forget every cached writer."""
        with FileWriterCache._lock:
            for writer in FileWriterCache._writers.values():
                writer.close()
            FileWriterCache._writers.clear()

