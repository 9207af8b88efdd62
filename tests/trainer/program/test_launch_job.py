"""The output of a job passes through `ringflow run` unchanged, as it comes (a progress bar's \\r updates are not
held back until a newline), except rank_start.py's marker lines, which become rank records wherever the launcher
puts them (after another rank's progress bar, say) and however the pipe splits them into chunks."""
import io
import itertools

import pytest

from trainer.program.launch.job import RankExit, RankRecord, Stream

MARKERS = [b"@ringflow-rank 1 4001 4101 node-b\n", b"@ringflow-rank 0 4000 4100 node-a\n",
           b"@ringflow-exit 1 signal 9\n", b"@ringflow-exit 0 code 143\n"]
OUTPUT = (b"\rtrain:  10%|#   | 1/10\r" + MARKERS[0]
          + b"rank 1 says @ringflow-rank soon\n"
          + b"ringflow: error on rank 1: ValueError: bad\n" + MARKERS[1]
          + b"@ringflow-ranks are not markers\n" + MARKERS[2] + b"@ringflow-exit 2 code\n" + MARKERS[3]
          + b"tail without newline")
SHOWN = OUTPUT
for marker in MARKERS:
    SHOWN = SHOWN.replace(marker, b"")


def run(chunks):
    sink, ranks, exits = io.BytesIO(), {}, []
    stream = Stream(None, sink, ranks, exits)
    for chunk in chunks:
        stream.feed(chunk)
    stream.write(stream.pending)
    return sink.getvalue(), ranks, exits, stream


@pytest.mark.parametrize("size", [1, 2, 5, 13, len(OUTPUT)])
def test_markers_are_taken_out_at_any_chunking(size):
    chunks = [OUTPUT[i:i + size] for i in range(0, len(OUTPUT), size)]
    shown, ranks, exits, stream = run(chunks)
    assert shown == SHOWN
    assert ranks == {1: RankRecord(4101, "node-b", 4001), 0: RankRecord(4100, "node-a", 4000)}
    assert exits == [RankExit(1, 9, 0), RankExit(0, 0, 143)]
    assert "ringflow: error on rank 1: ValueError: bad" in stream.tail
    assert "@ringflow-rank 1 4101 node-b" not in stream.tail and "rank 1 says @ringflow-rank soon" in stream.tail


def test_a_progress_bar_is_forwarded_at_once():
    sink = io.BytesIO()
    stream = Stream(None, sink, {}, [])
    for update in (b"\rtrain: 1/10", b"\rtrain: 2/10"):
        stream.feed(update)
        assert sink.getvalue().endswith(update), "held back until a newline"
    stream.feed(b"\n")
    assert list(stream.tail) == ["train: 2/10"], "the tail keeps what a terminal would show"
    stream.feed(b"mail me @ringflow-rank soon\n")
    assert sink.getvalue().endswith(b"soon\n"), "a finished line that is no marker is not held back"


def test_the_tail_is_bounded():
    sink = io.BytesIO()
    stream = Stream(None, sink, {}, [])
    stream.feed(b"".join(b"line %d\n" % i for i in itertools.islice(itertools.count(), 5000)))
    assert len(stream.tail) == 2000 and stream.tail[-1] == "line 4999"
