"""tf.py_func and tf.numpy_function: a Python function of numpy arrays as an op of the graph, run on the host each
time the op runs (TF1's PyFunc). Its outputs must have the dtypes `Tout` names, as TF checks; their shapes are
unknown to the graph. It has no gradient, as in TF1 (wrap it in a function with tg.custom_gradient for one)."""
import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import on_host, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor


def _as_output(value, dtype, index, name):
    if dtype == dtypes.string:
        array = np.asarray(value, dtype=object)
        flat = [v.encode() if isinstance(v, str) else v for v in array.reshape(-1).tolist()]
        if all(isinstance(v, bytes) for v in flat):
            return np.array(flat + [b""], dtype=object)[:-1].reshape(array.shape)
    else:
        array = np.asarray(value)
        if array.dtype == dtype:
            return np.ascontiguousarray(array)
    have = "string" if array.dtype.kind in "SUO" else dtypes.as_dtype(array.dtype).name
    raise InvalidArgumentError(f"{index}-th value returned by the Python function of {name!r} is {have}, but "
                               f"expects {dtype.name}: return numpy values of the dtypes Tout names")


def _py_func_kernel(op, session):
    func, tout, name = op.attrs["func"], op.attrs["Tout"], op.name

    def run(*inputs):
        result = func(*inputs)
        values = list(result) if isinstance(result, (list, tuple)) else [] if result is None else [result]
        if len(values) != len(tout):
            raise InvalidArgumentError(f"The Python function of {name!r} returned {len(values)} values, but Tout "
                                       f"names {len(tout)}")
        outputs = [_as_output(v, d, i, name) for i, (v, d) in enumerate(zip(values, tout))]
        return outputs[0] if len(outputs) == 1 else outputs
    return run


register("PyFunc", kernel=on_host(_py_func_kernel), fresh=True,
         infer=lambda *inputs, Tout, **attrs: [(None, d) for d in Tout])


def py_func(func, inp, Tout, stateful=True, name=None):
    """func(*numpy arrays) run as an op on `inp`; Tout is the output's dtype (a list of them for several
    outputs, an empty list for none: the op is then returned)."""
    several = isinstance(Tout, (list, tuple))
    tout = [dtypes.as_dtype(d) for d in (Tout if several else [Tout])]
    inputs = [convert_to_tensor(x) for x in inp]
    graph = inputs[0].graph if inputs else get_default_graph()
    op = graph.create_op("PyFunc", inputs, [(None, d) for d in tout], name=name or "PyFunc",
                         attrs=dict(func=func, Tout=tout, stateful=bool(stateful)))
    if not several:
        return op.outputs[0]
    return list(op.outputs) if tout else op


def numpy_function(func, inp, Tout, stateful=True, name=None):
    """tf.numpy_function: py_func under TF 2's name."""
    return py_func(func, inp, Tout, stateful=stateful, name=name)
