"""Conv2D and its two gradients through cuDNN, for CuPy arrays, by NVIDIA's cuDNN frontend package (`import cudnn`).

CuPy 14 dropped its cuDNN bindings; the frontend's Python graphs are the supported route. One graph per
(operation, shapes, strides, paddings, dtype) is built on first use and cached; each call is then one cuDNN
launch on CuPy's current stream. The layouts are ringflow's: NHWC images (cuDNN's channels-last strides, no
copy) and HWIO filters, which cuDNN does not take: a filter is copied to KRSC (channels last, one small
transpose) going in, and a filter gradient back to HWIO coming out.

Each function returns NotImplemented, and the caller runs its CuPy im2col path, where cuDNN cannot serve:
the package or libcudnn is missing (`why_not()` says which), RINGFLOW_CUDNN=0 is set, the dtype is not
float16/32/64, cuDNN has no engine for the graph, or none of its candidate plans agrees with the im2col path
(`declined` says which graphs were refused and why). On a graph's first use its first few candidate plans are
each run, checked against the im2col path's result and timed, and the fastest that agrees is kept.

float32 stays float32, as TF1 computed: tensor-core engines are deselected for float32 and float64 graphs, and
NVIDIA_TF32_OVERRIDE=0 is set (unless already set) before libcudnn loads, since cuDNN otherwise runs float32
convolutions through TF32 (inputs rounded to 11 significant bits) on Ampere and later. float16 may use them.
"""
import os
import threading

import numpy as np

_LOCK = threading.Lock()
_STATE = {}  # "module": the cudnn package or None, "why": why it is None
_GRAPHS = {}  # key -> (graph, uids, the plan chosen, its workspace bytes), or None where cuDNN declined the graph
_HANDLES = {}  # CUDA device id -> [cudnn handle, the stream it was last set to]
stats = {"cudnn": 0}  # operations run through cuDNN
declined = {}  # (operation, shapes, strides, paddings, dtype) -> why cuDNN built no graph for it (CuPy path)


def _frontend():
    if "module" not in _STATE:
        with _LOCK:
            if os.environ.get("RINGFLOW_CUDNN", "1") == "0":
                _STATE.update(module=None, why="RINGFLOW_CUDNN=0 is set")
            else:
                # cuDNN computes float32 convolutions through TF32 on Ampere and later, whatever the engine filter
                # says; this variable, read when the library loads, keeps float32 in float32 (TF1's numbers).
                os.environ.setdefault("NVIDIA_TF32_OVERRIDE", "0")
                try:
                    import cudnn
                    cudnn.backend_version()  # fails here, not mid-step, when libcudnn is missing
                    _STATE.update(module=cudnn, why=None)
                except Exception as exc:  # ImportError, OSError, RuntimeError: any of them means "not here"
                    _STATE.update(module=None, why=f"{type(exc).__name__}: {exc}".strip())
    return _STATE["module"]


def why_not():
    """None where convolutions on CuPy arrays go through cuDNN, else why they take the im2col path."""
    _frontend()
    return _STATE["why"]


def _handle(cupy, cudnn):
    device = cupy.cuda.Device().id
    entry = _HANDLES.get(device)
    if entry is None:
        entry = _HANDLES[device] = [cudnn.create_handle(), None]
    stream = cupy.cuda.get_current_stream().ptr
    if entry[1] != stream:
        cudnn.set_stream(handle=entry[0], stream=stream)
        entry[1] = stream
    return entry[0]


def _nhwc(shape):
    """cuDNN's (dims, strides) of an NHWC array: dims in N, C, H, W order, strides of channels-last memory."""
    n, h, w, c = shape
    return [n, c, h, w], [h * w * c, 1, w * c, c]


def _krsc(shape):
    """cuDNN's (dims, strides) of a filter held as K, R, S, C (output channels, height, width, input channels)."""
    k, r, s, c = shape
    return [k, c, r, s], [r * s * c, 1, s * c, c]


def _data_type(cudnn, dtype):
    return {"e": cudnn.data_type.HALF, "f": cudnn.data_type.FLOAT, "d": cudnn.data_type.DOUBLE}.get(dtype.char)


# operation: (its output's name, the frontend's graph method, that method's keywords for the input names)
_OPS = {"fprop": ("y", "conv_fprop", dict(image="x", weight="w")),
        "dgrad": ("x", "conv_dgrad", dict(loss="y", filter="w")),
        "wgrad": ("w", "conv_wgrad", dict(image="x", loss="y"))}
_LAYOUTS = {"x": _nhwc, "y": _nhwc, "w": _krsc}


def _build(cudnn, handle, op, shapes, strides, pre, post, char):
    """The graph of one convolution operation, its tensors' uids (by name) and its workspace size."""
    io = _data_type(cudnn, np.dtype(char))
    compute = cudnn.data_type.FLOAT if char == "e" else io
    graph = cudnn.pygraph(io_data_type=io, intermediate_data_type=compute, compute_data_type=compute, handle=handle)
    out_name, method, inputs = _OPS[op]
    tensors = {}
    for name, shape in shapes.items():
        dims, tensor_strides = _LAYOUTS[name](shape)
        if name != out_name:
            tensors[name] = graph.tensor(name=name, dim=dims, stride=tensor_strides, data_type=io)
    out = getattr(graph, method)(**{k: tensors[v] for k, v in inputs.items()}, pre_padding=list(pre),
                                 post_padding=list(post), stride=list(strides), dilation=[1, 1],
                                 compute_data_type=compute)
    dims, tensor_strides = _LAYOUTS[out_name](shapes[out_name])
    out.set_output(True).set_dim(dims).set_stride(tensor_strides).set_data_type(io)
    graph.validate()
    graph.build_operation_graph()
    if char != "e":  # no TF32: it rounds float32 inputs to 10 bits of mantissa
        notes = cudnn.numerical_note
        graph.deselect_numeric_notes([notes.TENSOR_CORE, notes.DOWN_CONVERT_INPUTS,
                                      notes.REDUCED_PRECISION_REDUCTION])
    graph.create_execution_plans([cudnn.heur_mode.A, cudnn.heur_mode.FALLBACK])
    graph.check_support()
    graph.build_plans(getattr(cudnn.build_plan_policy, "ALL", cudnn.build_plan_policy.HEURISTICS_CHOICE))
    uids = {name: t.get_uid() for name, t in tensors.items()}
    uids[out_name] = out.get_uid()
    return graph, uids


# Float32 sums of K products, in two orders, differ by about 6e-8 * sqrt(K) relative to their L2 norm; TF32
# (inputs rounded to 11 significant bits) is some 3e-4 off whatever K is. A plan must agree with the im2col path
# within this many roundings' worth.
_UNIT = {"e": 5e-4, "f": 6e-8, "d": 1.2e-16}
_PLANS_TRIED = 8  # the heuristics' first candidates, timed on a graph's first use (TF1 autotunes convolutions too)
_TIMED_RUNS = 3


def _distance(out, want):
    """Relative L2 distance of out from want."""
    import cupy
    scale = float(cupy.linalg.norm(want.astype(cupy.float64)))
    return float(cupy.linalg.norm((out - want).astype(cupy.float64))) / max(scale, 1e-30)


def _tune(graph, pack, out, reference, terms, handle):
    """(plan index, workspace bytes) of the fastest of the first candidate plans whose result agrees with the
    im2col path's (`reference()`), or (None, why) when none does: an engine computing float32 through TF32
    or misreading a layout is caught here, once per graph, instead of training on wrong numbers."""
    import cupy
    want, limit = reference(), 10 * _UNIT[out.dtype.char] * max(1.0, terms) ** 0.5
    best, why = (None, None), "no plan ran"
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    for index in range(min(graph.get_execution_plan_count(), _PLANS_TRIED)):
        try:
            size = graph.get_workspace_size_plan_at_index(index)
            workspace = cupy.empty(max(size, 1), dtype=cupy.uint8)
            graph.execute_plan_at_index(pack, workspace.data.ptr, index, handle=handle)
            distance = _distance(out, want)
            if distance > limit:
                why = f"plan {index} is {distance:.2g} off the im2col path's result (limit {limit:.2g})"
                continue
            start.record()
            for _ in range(_TIMED_RUNS):
                graph.execute_plan_at_index(pack, workspace.data.ptr, index, handle=handle)
            stop.record()
            stop.synchronize()
            elapsed = cupy.cuda.get_elapsed_time(start, stop)
        except Exception as exc:  # a plan that failed to build or run: the next one
            why = f"plan {index}: {type(exc).__name__}: {exc}"
            continue
        if best[0] is None or elapsed < best[2]:
            best = (index, size, elapsed)
    return (best[0], best[1]) if best[0] is not None else (None, why)


def _terms(op, shapes):
    """How many products each output element of the operation sums."""
    (n, ho, wo, _), (k, r, s, c) = shapes["y"], shapes["w"]
    return {"fprop": r * s * c, "dgrad": r * s * k, "wgrad": n * ho * wo}[op]


def _run(op, arrays, out, strides, pre, post, reference):
    """Run operation `op`'s cached graph on CuPy `arrays` (by tensor name) into `out` (its array)."""
    cudnn = _frontend()
    if cudnn is None or out.dtype.char not in "efd":
        return NotImplemented
    import cupy
    handle = _handle(cupy, cudnn)
    shapes = {name: a.shape for name, a in arrays.items()}
    shapes[_OPS[op][0]] = out.shape
    key = (op, tuple(sorted(shapes.items())), tuple(strides), tuple(pre), tuple(post), out.dtype.char)
    entry = _GRAPHS.get(key, False)
    pack = None
    if entry is False:
        try:
            graph, uids = _build(cudnn, handle, op, shapes, *key[2:])
            pack = _pack(uids, arrays, op, out)
            index, size = _tune(graph, pack, out, reference, _terms(op, shapes), handle)
            entry = None if index is None else (graph, uids, index, size)
            if index is None:
                declined[key] = size
        except Exception as exc:  # cudnnGraphNotSupportedError or any build failure: this graph takes the CuPy path
            entry, declined[key] = None, f"{type(exc).__name__}: {exc}"
        _GRAPHS[key] = entry
    if entry is None:
        return NotImplemented
    graph, uids, index, size = entry
    workspace = cupy.empty(max(size, 1), dtype=cupy.uint8)
    graph.execute_plan_at_index(pack or _pack(uids, arrays, op, out), workspace.data.ptr, index, handle=handle)
    stats["cudnn"] += 1
    return out


def _pack(uids, arrays, op, out):
    """The variant pack: each tensor's uid to its device pointer."""
    pack = {uids[name]: a.data.ptr for name, a in arrays.items()}
    pack[uids[_OPS[op][0]]] = out.data.ptr
    return pack


def _krsc_filter(w):
    import cupy
    return cupy.ascontiguousarray(w.transpose(3, 0, 1, 2))


def conv2d(x, w, strides, pre, post, out_hw, reference):
    """NHWC x convolved with HWIO w; pre/post: the (h, w) paddings before and after; out_hw: (Ho, Wo);
    reference(): the im2col path's result, computed on a graph's first use only, to check cuDNN's against."""
    import cupy
    x = cupy.ascontiguousarray(x)
    y = cupy.empty((x.shape[0], *out_hw, w.shape[3]), dtype=x.dtype)
    return _run("fprop", {"x": x, "w": _krsc_filter(w)}, y, strides, pre, post, reference)


def conv2d_input_grad(g, x_shape, w, strides, pre, post, reference):
    import cupy
    dx = cupy.zeros(x_shape, dtype=g.dtype)
    return _run("dgrad", {"y": cupy.ascontiguousarray(g), "w": _krsc_filter(w)}, dx, strides, pre, post, reference)


def conv2d_filter_grad(x, g, w_shape, strides, pre, post, reference):
    import cupy
    kh, kw, c, o = w_shape
    dw = cupy.zeros((o, kh, kw, c), dtype=g.dtype)
    krsc_reference = lambda: cupy.ascontiguousarray(reference().transpose(3, 0, 1, 2))  # noqa: E731
    done = _run("wgrad", {"x": cupy.ascontiguousarray(x), "y": cupy.ascontiguousarray(g)}, dw, strides, pre, post,
                krsc_reference)
    return done if done is NotImplemented else cupy.ascontiguousarray(dw.transpose(1, 2, 3, 0))
