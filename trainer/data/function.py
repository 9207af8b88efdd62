"""The functions a Dataset applies (map, filter, flat_map, interleave): traced once, run per element.

TF1 traces such a function once, on symbolic tensors of the element's dtypes and shapes, into a graph function
that the dataset kernel runs on each element. ringflow does the same inside the user's graph: the function is
called once on "DatasetFunctionArg" tensors, and the ops it builds are claimed by a function body, the
mechanism tg.cond and tg.while_loop use for their branches (ops/control_flow_bodies.py), so a step's plan never
runs them. An iterator's initialization turns each function into a sub-plan of its session (fetches: the
function's outputs; feeds: its arguments and the outside tensors it captured) and runs it once per element.
Captured tensors (a constant, a placeholder, a variable the function reads) are evaluated when the iterator is
initialized, as TF1 passes them to the dataset op as inputs. Random ops in the function draw from the session's
per-op streams, so a seeded tf.image.random_flip_left_right is reproducible.
"""
from ..framework.graph import get_default_graph
from ..ops.control_flow_bodies import Body, body_plan, claim, enclosing_body, run_body
from ..framework.registry import register
from ..ops.sparse_tensor import SparseTensor
from .stage import WindowStage
from .structure import Spec, expand, normalize, pack, physical, sparse_of


def _arg_kernel(op, session):
    raise ValueError(f"{op.name!r} is an argument of the function passed to {op.attrs['transformation']}: it has "
                     "a value only inside that function, while the dataset runs it; return what you need from the "
                     "function and use the dataset's elements instead")


register("DatasetFunctionArg", kernel=_arg_kernel, infer=lambda shape, dtype, transformation: [(shape, dtype)])


class FunctionBody(Body):
    """The ops of one traced tf.data function."""

    def __init__(self, transformation, parent):
        super().__init__("dataset function", 0, parent)
        self.transformation = transformation

    def __str__(self):
        return f"the function passed to {self.transformation}"


class DatasetFunction:
    """`func` traced once on an element of `spec`. `finish(result)` turns what func returned into the output
    tensors and a description of them (a Spec, or the Dataset a flat_map function returns)."""

    def __init__(self, func, transformation, spec, finish=None):
        if not callable(func):
            raise TypeError(f"{transformation} needs a function of the element, got {func!r}")
        graph = get_default_graph()
        self.transformation = transformation
        self.body = body = FunctionBody(transformation, enclosing_body(graph))
        self.windows = {i: WindowStage(spec.types[i].spec) for i in spec.datasets()}  # a window's dataset
        self.positions = [i for i in range(len(spec.types)) if i not in self.windows]  # the tensor components
        with graph.control_dependencies(None), graph.name_scope(transformation.split("(")[0].replace(".", "_")):
            self.args, components = [], {}
            for i in self.positions:
                args = [graph.create_op("DatasetFunctionArg", [], [(shape, dtype)], name="arg",
                                        attrs={"shape": shape, "dtype": dtype,
                                               "transformation": transformation}).outputs[0]
                        for shape, dtype in physical(spec.shapes[i], spec.types[i])]
                self.args += args
                components[i] = args[0] if len(args) == 1 else sparse_of(args, spec.shapes[i])
            components.update((i, spec.types[i].wrap(stage)) for i, stage in self.windows.items())
            element = pack(spec.structure, [components[i] for i in range(len(spec.types))])
            call_args = element if type(element) is tuple else (element,)  # TF1 unpacks tuples only
            result, start = run_body(graph, body, func, call_args)
            self.outputs, self.result = (finish or self._tensors)(result)
            self.captured, _ = claim(graph, body, slice(start, None), self.outputs, {a.op for a in self.args})
        body.outputs = self.outputs

    def _tensors(self, result):
        if isinstance(result, list):  # TF1 takes a returned list as a tuple of components
            result = tuple(result)
        try:
            tensors, structure = normalize(result, f"the function passed to {self.transformation}", sparse=True)
        except TypeError as exc:
            raise TypeError(f"Unsupported return value from function passed to {self.transformation}: "
                            f"{result!r} ({exc})") from None
        return [p for t in tensors for p in ((t.indices, t.values, t.dense_shape) if isinstance(t, SparseTensor)
                                             else (t,))], Spec.of(tensors, structure)

    def feeds(self, element):
        """The arrays this function's arguments take from an element's values (datasets aside)."""
        return expand([element[i] for i in self.positions])

    def window_values(self, element):
        """{window stage: its elements} for the components of `element` that are datasets."""
        return {stage: element[i] for i, stage in self.windows.items()}

    def compile(self, session):
        """A function of (element components + captured values) returning the output values in `session`."""
        return body_plan(session, self.body, self.args + self.captured, self.outputs)
