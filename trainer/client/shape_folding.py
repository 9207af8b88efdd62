"""Shape folding in a Plan: the steps whose values only the fed arrays' shapes decide run once per shape of the feeds.

TF's grappler folds a subgraph into constants where the shapes it reads are static. A fed batch dimension is not,
yet everything a graph computes from it alone is the same at every step of a training loop: an RNN's zero state
(tf.shape(x)[0] packed with the units into a Fill, in dynamic_rnn; zeros_like, sum, expand_dims and tile in
Keras' LSTM). A plan remembers those values for the last few feed shapes it saw and later runs with those shapes
skip the steps that made them, taking a copy of each value the rest of the run reads: every run still gets arrays
of its own, which a later kernel may write into or a caller may keep, so nothing can tell the difference but the
time. The values a run has made are read back only once it ends, so no step of it may write into them: the plan
counts them as fetched (no in-place kernel takes them, no fusion hides them).

ConfigProto's graph_options.rewrite_options.constant_folding = RewriterConfig.OFF, which turns TF's folding off,
turns this off too.

A step folds when its op type is in SHAPE_READERS (its value is its input's shape, or zeros or ones of it) and its
input is fed or folded, or in PURE and every input is a constant or folded: never on the value of a feed, a
variable or anything random or stateful.
"""
OFF = 2  # RewriterConfig.OFF, TF's Toggle value
SHAPE_READERS = frozenset({"Shape", "Size", "Rank", "ZerosLike", "OnesLike"})
# deterministic functions of their inputs' values and attributes, holding no state
PURE = frozenset({"Identity", "StridedSlice", "Pack", "Fill", "Zeros", "Ones", "Cast", "ExpandDims", "Reshape",
                  "Squeeze", "Transpose", "Add", "Sub", "Mul", "FloorDiv", "Maximum", "Minimum", "Prod", "Sum",
                  "Tile", "ConcatV2", "Range"})
# Feed shapes remembered per plan: a loop feeds one or two (the last batch of an epoch is smaller); one that feeds
# more shapes than this starts over rather than growing without bound.
SHAPES = 8
# A fold saves kernels' calls, not passes over memory: values larger than this in all (a copy of them each run would
# cost about what making them does) are not kept.
KEPT_BYTES = 1 << 20


class ShapeFolding:
    """Which steps of a plan fold (`folded`, their ops), the slots of their values the rest reads (`boundary`), the
    feed slots whose shapes decide them (`keyed`), and the values per feed shapes."""

    def __init__(self, folded, boundary, keyed):
        self.folded, self.boundary, self.keyed = folded, tuple(sorted(boundary)), tuple(sorted(keyed))
        self.steps, self.values = None, {}

    def use(self, steps):
        """Set the plan's finished `steps`; the steps of a run with known values are those of unfolded ops."""
        self.steps = [step for step in steps if step[3] not in self.folded]

    def start(self, env):
        """(the steps to run, the key to remember this run's values under, or None): on feed shapes seen before,
        the folded values' copies are put in `env` and only the other steps run."""
        try:
            key = tuple((env[i].shape, env[i].dtype) for i in self.keyed)
        except AttributeError:  # a fed value that is no array: its steps run, and nothing is kept
            return None, None
        known = self.values.get(key)
        if known is None:
            return None, key
        for slot, value in zip(self.boundary, known):
            env[slot] = value.copy()
        return self.steps, None

    def remember(self, key, env):
        """Keep copies of the folded values of a finished run, under its feed shapes."""
        values = [env[slot] for slot in self.boundary]
        if sum(getattr(v, "nbytes", KEPT_BYTES + 1) for v in values) > KEPT_BYTES or not all(
                hasattr(v, "copy") for v in values):
            return
        if len(self.values) >= SHAPES:
            self.values.clear()
        self.values[key] = [v.copy() for v in values]


def folding_on(config):
    """Whether `config` (a ConfigProto, or None) leaves TF's constant folding, and so this folding, on."""
    rewrite_options = getattr(getattr(config, "graph_options", None), "rewrite_options", None)
    return getattr(rewrite_options, "constant_folding", 0) != OFF


def shape_folding(ops, fed, slots, fetched, is_constant):
    """The ShapeFolding of the plan running `ops` (sorted) with the `fed` tensors, `slots` (tensor: slot) and the
    `fetched` tensors, or None where folding would save no step; `is_constant(op)` says whether an op is placed in
    the plan once (a Const)."""
    folded = set()
    for op in ops:
        if op.control_inputs or not (op.type in SHAPE_READERS or op.type in PURE):
            continue
        if op.type in SHAPE_READERS:
            known = all(t in fed or t.op in folded or is_constant(t.op) for t in op.inputs)
        else:
            known = all(t not in fed and (t.op in folded or is_constant(t.op)) for t in op.inputs)
        if known:
            folded.add(op)
    boundary = {slots[t] for op in ops if op not in folded for t in op.inputs if t.op in folded}
    boundary |= {slots[t] for t in fetched if t.op in folded}
    if len(folded) <= len(boundary):
        return None
    keyed = {slots[t] for op in folded if op.type in SHAPE_READERS for t in op.inputs if t in fed}
    return ShapeFolding(folded, boundary, keyed)
