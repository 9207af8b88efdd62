"""Printing from inside a run: TF1's tf.Print (an identity that prints) and tf.print (an op that prints)."""
import itertools
import sys
import time

import numpy as np

from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, register


def summarize_v1(value, limit):
    """A value as TF1's Print and Assert show it: "[1 2 3...]", at most `limit` elements (all when negative)."""
    array = np.asarray(value)
    if array.dtype == object:
        array = np.vectorize(lambda b: b.decode("utf-8", "replace") if isinstance(b, bytes) else b,
                             otypes=[object])(array)
    if array.ndim == 0:
        return _item(array[()])
    flat = array.reshape(-1)
    shown = flat if limit < 0 else flat[:limit]
    items = [_item(v) for v in shown]
    if items and len(shown) < flat.size:
        items[-1] += "..."  # TF1 marks the cut inside the brackets: [[0 1 2][3...]]
    return _nest(items, array.shape)[1:-1]  # without the outer brackets, which Print and Assert add


def _nest(items, shape):
    """Items laid out in `shape`'s nested brackets, stopping where the items run out (TF1's truncation)."""
    if len(shape) == 1:
        return "[" + " ".join(items[:shape[0]]) + "]"
    inner = int(np.prod(shape[1:]))
    rows = [items[k:k + inner] for k in range(0, min(len(items), shape[0] * inner), inner)]
    return "[" + "".join(_nest(row, shape[1:]) for row in rows if row) + "]"


def _item(v):
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (float, np.floating)):
        return f"{v:g}"
    return str(v)


def summarize_v2(value, limit):
    """A value as tf.print shows it: numpy-like nesting, the first and last `limit` entries of each dim."""
    array = np.asarray(value)
    if array.ndim == 0:
        item = array[()]
        return item.decode("utf-8", "replace") if isinstance(item, bytes) else _item_v2(item)
    return _nest_v2(array, limit, 1)


def _nest_v2(array, limit, depth):
    n = array.shape[0]
    keep = list(range(n)) if limit < 0 or n <= 2 * limit else list(range(limit)) + [None] + list(range(n - limit, n))
    if array.ndim == 1:
        return "[" + " ".join("..." if i is None else _item_v2(array[i]) for i in keep) + "]"
    sep = "\n" * (array.ndim - 1) + " " * depth
    return "[" + sep.join("..." if i is None else _nest_v2(array[i], limit, depth + 1) for i in keep) + "]"


def _item_v2(v):
    # tf.print and tf.strings.format quote the strings of a tensor (["a" "b"]) and write a float in the fewest
    # digits that read back to it, as TF's StrCat does: 0.1 for float32's 0.1, -1.0099999999999998 for a double
    if isinstance(v, bytes):
        return '"' + v.decode("utf-8", "replace") + '"'
    if isinstance(v, np.floating):
        text = str(v)
        return text[:-2] if text.endswith(".0") else text
    return _item(v)


def _print_kernel(op, session):
    message, first_n, summarize = op.attrs["message"], op.attrs["first_n"], op.attrs["summarize"]

    def printed_before():  # TF1 counts each op's prints in each session: the count is a session resource
        return next(session.resources.lookup_or_create("Print", op, itertools.count))

    def run(x, *data):
        if first_n is None or first_n < 0 or printed_before() < first_n:
            shown = "".join(f"[{summarize_v1(session.to_host(d), summarize)}]" for d in data)
            sys.stderr.write(message + shown + "\n")
        return x
    return run


register("Print", kernel=_print_kernel, infer=lambda x, *data, **attrs: [(x.shape, x.dtype)], view=True,
         grad=lambda op, g: [g] + [None] * (len(op.inputs) - 1))


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802 - TF1's name
    """input_, unchanged; each run also writes `message` and the values of `data` to stderr ("msg[v1][v2]").

    first_n: print only the first n runs (None or negative: every run); summarize: at most this many
    elements of each tensor (default 3, as TF1).
    """
    x = convert_to_tensor(input_)
    data = [convert_to_tensor(d) for d in data]
    return apply_op("Print", [x, *data], name=name or "Print", message="" if message is None else str(message),
                    first_n=None if first_n is None else int(first_n),
                    summarize=3 if summarize is None else int(summarize))


def _print_v2_kernel(op, session):
    parts, stream, sep, end, summarize = (op.attrs[k] for k in ("parts", "output_stream", "sep", "end", "summarize"))

    def run(*values):
        it = iter([session.to_host(v) for v in values])  # printing is a host sync the user asked for
        text = sep.join(summarize_v2(next(it), summarize) if p is None else p for p in parts) + end
        if callable(stream):  # a logging function such as tg.logging.info
            stream(text[:-len(end)] if end and text.endswith(end) else text)
        elif isinstance(stream, str):
            with open(stream[len("file://"):], "a") as f:
                f.write(text)
        else:
            (sys.stderr if stream is _STDERR else sys.stdout if stream is _STDOUT else stream).write(text)
    return run


_STDERR, _STDOUT = object(), object()  # resolved when the op runs, so pytest's capture (and redirection) applies

register("PrintV2", kernel=_print_v2_kernel, infer=lambda *inputs, **attrs: [])


def print_v2(*inputs, output_stream=sys.stderr, sep=" ", end="\n", summarize=3, name=None):
    """An Operation that prints `inputs` (tensors and Python values) when run, tf.print's way.

    output_stream: sys.stderr, sys.stdout, a "file://path" string (appended to), or a logging function
    (tg.logging.info, ...); summarize: the first and last entries kept per dimension (-1 or None: all).
    """
    if isinstance(output_stream, str) and not output_stream.startswith("file://"):
        raise ValueError(f"output_stream must be sys.stderr, sys.stdout, a 'file://' path or a logging function, "
                         f"got {output_stream!r}")
    parts, tensors = [], []
    for x in inputs:
        if isinstance(x, Tensor):
            parts.append(None)
            tensors.append(x)
        else:
            parts.append(x if isinstance(x, str) else str(x))
    stream = _STDERR if output_stream is sys.stderr else _STDOUT if output_stream is sys.stdout else output_stream
    graph = tensors[0].graph if tensors else get_default_graph()
    op = graph.create_op("PrintV2", tensors, [], name=name or "PrintV2",
                         attrs=dict(parts=tuple(parts), output_stream=stream, sep=sep, end=end,
                                    summarize=-1 if summarize is None else int(summarize)))
    return op


print_v2.__name__ = print_v2.__qualname__ = "print"  # TF1 exports it as tf.print


def _timestamp_kernel(op, session):
    return lambda: session.to_device(np.float64(time.time()))


register("Timestamp", kernel=_timestamp_kernel, infer=lambda: [((), np.dtype(np.float64))], fresh=True)


def timestamp(name=None):
    """A float64 scalar: the seconds since the Unix epoch when the op runs (TF1's tf.timestamp)."""
    return apply_op("Timestamp", [], name=name or "Timestamp")
