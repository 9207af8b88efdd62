"""The stages that pick, element by element, which of several datasets to read: choose_from_datasets (a dataset of
indices says which), sample_from_datasets (drawn with the given weights), and RandomDataset (random int64s).

Random draws come from numpy's generator seeded by TF1's (graph seed, op seed) pair: reproducible under a seed, not
TF's Philox stream, so a seeded pipeline's order differs from TensorFlow's while its multiset of elements is the
same.
"""
import itertools

import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from .runtime import entropy
from .stage import INFINITE, Stage
from .structure import Spec, most_specific_compatible_shape


def _common_spec(stages, what):
    first = stages[0].spec
    for s in stages[1:]:
        if not first.same_types(s.spec):
            raise TypeError(f"Invalid `datasets`. `datasets` passed to {what} must have compatible types but got "
                            f"{first.output_types()} and {s.spec.output_types()}.")
    shapes = first.shapes
    for s in stages[1:]:
        shapes = [most_specific_compatible_shape(a, b) for a, b in zip(shapes, s.spec.shapes)]
    return Spec(first.structure, shapes, first.types)


def _interleave(context, inputs, choices, stop_on_empty):
    """The elements of inputs[i] for each index i of `choices`; an exhausted input is skipped (or ends it all)."""
    iterators, alive = [iter(s.iterate(context)) for s in inputs], len(inputs)
    done = [False] * len(inputs)
    for i in choices:
        if not 0 <= i < len(inputs):
            raise InvalidArgumentError(f"Selector index out of range: {i} >= {len(inputs)}")
        if done[i]:
            continue
        element = next(iterators[i], None)
        if element is not None:
            yield element
            continue
        if stop_on_empty:
            return
        done[i], alive = True, alive - 1
        if not alive:
            return


class ChooseStage(Stage):
    """The element of datasets[i] for each int64 scalar i of the choice dataset."""

    def __init__(self, stages, choice, stop_on_empty_dataset):
        if choice.spec.structure is not None or choice.spec.types[0] != dtypes.int64 or choice.spec.shapes[0].ndims:
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` "
                            f"tensors but are {choice.spec}.")
        self.inputs, self.stop = tuple(stages) + (choice,), stop_on_empty_dataset
        self.spec = _common_spec(stages, "choose_from_datasets")

    def iterate(self, context):
        choices = (int(context.to_host(c[0])) for c in self.inputs[-1].iterate(context))
        yield from _interleave(context, self.inputs[:-1], choices, self.stop)


class SampleStage(Stage):
    """Elements of datasets drawn at random, dataset i with probability weights[i] (normalized); the weights are a
    tensor, or a dataset of weight vectors, one per draw (the output ends with it)."""

    def __init__(self, stages, weights, seed, seed2, stop_on_empty_dataset):
        self.datasets, self.stop = len(stages), stop_on_empty_dataset
        if isinstance(weights, Stage):
            if weights.spec.structure is not None or not weights.spec.types[0].is_floating:
                raise TypeError(f"Invalid `weights`. `weights` must be a dataset of float vectors, got {weights.spec}")
            self.inputs, self.tensors = tuple(stages) + (weights,), []
        else:
            self.inputs, self.tensors = tuple(stages), [weights]
        self.seed, self.seed2 = seed, seed2
        self.spec = _common_spec(stages, "sample_from_datasets")

    def _weights(self, context):
        if self.tensors:
            return itertools.repeat(context.to_host(context.value(self.tensors[0])))
        return (context.to_host(w[0]) for w in self.inputs[-1].iterate(context))

    def iterate(self, context):
        seeds = context.seed_generator(self, self.seed, self.seed2)
        rng = np.random.default_rng([seeds(), seeds()])
        exhausted = np.zeros(self.datasets, bool)

        def draws():
            for weights in self._weights(context):
                weights = np.asarray(weights, np.float64)
                if weights.shape != (self.datasets,) or (weights < 0).any() or not weights.sum() > 0:
                    raise InvalidArgumentError(f"sample_from_datasets needs a non-negative weight per dataset, not "
                                               f"all zero; got {weights.tolist()} for {self.datasets} datasets")
                live = np.where(exhausted, 0.0, weights)
                if not live.sum() > 0:
                    return
                yield int(rng.choice(self.datasets, p=live / live.sum()))

        iterators = [iter(s.iterate(context)) for s in self.inputs[:self.datasets]]
        for i in draws():
            element = next(iterators[i], None)
            if element is not None:
                yield element
            elif self.stop:
                return
            else:
                exhausted[i] = True  # an exhausted dataset is not drawn again, as TF stops drawing it


class RandomStage(Stage):
    """int64 scalars drawn uniformly at random, without end (tf.data.experimental.RandomDataset)."""

    def __init__(self, seed, seed2):
        self.seed, self.seed2 = seed, seed2
        self.spec = Spec(None, [()], [dtypes.int64])

    def iterate(self, context):
        rng = np.random.default_rng(entropy(self.seed, self.seed2))
        while True:
            yield [context.to_device(np.array(rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max,
                                                           dtype=np.int64, endpoint=True), dtype=np.int64))]

    def cardinality(self, context):
        return INFINITE
