"""The stages that transform a dataset element by element: map, filter, repeat, take, skip, shard, shuffle, cache,
prefetch, and flat_map/interleave (a function that returns a dataset per element)."""
import itertools
import os
import pickle

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from .runtime import PhiloxSamples
from .stage import INFINITE, UNKNOWN, Stage, check, same_cardinality, scalar

AUTOTUNE = -1  # TF1's tf.data.experimental.AUTOTUNE: "let the runtime choose"
CACHE_SUFFIX = ".ringflow_cache"  # the file Dataset.cache(filename) writes: ringflow's own format, not TF's


class MapStage(Stage):
    """map_func's outputs for each element (its cardinality is UNKNOWN: TF1's map does not preserve it)."""

    def __init__(self, stage, function):
        self.inputs, self.functions, self.function = (stage,), (function,), function
        self.spec = function.result

    def iterate(self, context):
        for element in self.inputs[0].iterate(context):
            mapped = context.call_or_skip(self.function, element)
            if mapped is not None:
                yield self.spec.gather(mapped)


class FilterStage(Stage):
    """The elements for which the predicate is True."""

    def __init__(self, stage, function):
        spec = function.result
        if spec.structure is not None or spec.types[0] != dtypes.bool or spec.shapes[0].ndims not in (None, 0):
            raise ValueError(f"`predicate` return type must be convertible to a scalar boolean tensor. Was {spec}.")
        self.inputs, self.functions, self.function = (stage,), (function,), function
        self.spec = stage.spec

    def iterate(self, context):
        for element in self.inputs[0].iterate(context):
            keep = context.call_or_skip(self.function, element)
            if keep is not None and context.to_host(keep[0]):
                yield element


class RepeatStage(Stage):
    """The input `count` times over (-1: forever; a pass that yields nothing ends it, as in TF1)."""

    def __init__(self, stage, count):
        self.inputs, self.spec = (stage,), stage.spec
        self.tensors = [scalar(-1 if count is None else count, dtypes.int64, "count")]

    def iterate(self, context):
        count = context.scalar(self.tensors[0])
        passes = itertools.count() if count < 0 else range(count)
        for _ in passes:
            empty = True
            for element in self.inputs[0].iterate(context):
                empty = False
                yield element
            if empty:
                return

    def cardinality(self, context):
        n, count = self.inputs[0].cardinality(context), context.scalar(self.tensors[0])
        if count < 0:
            return 0 if n == 0 else INFINITE
        return 0 if count == 0 else n if n < 0 else count * n


class TakeStage(Stage):
    """At most `count` elements (-1: all)."""

    def __init__(self, stage, count):
        self.inputs, self.spec = (stage,), stage.spec
        self.tensors = [scalar(count, dtypes.int64, "count")]

    def iterate(self, context):
        count = context.scalar(self.tensors[0])
        elements = self.inputs[0].iterate(context)
        yield from elements if count < 0 else itertools.islice(elements, count)

    def cardinality(self, context):
        n, count = self.inputs[0].cardinality(context), context.scalar(self.tensors[0])
        if n == UNKNOWN:
            return UNKNOWN
        return count if n == INFINITE else n if count < 0 else min(n, count)


class SkipStage(Stage):
    """All but the first `count` elements (-1: none)."""

    def __init__(self, stage, count):
        self.inputs, self.spec = (stage,), stage.spec
        self.tensors = [scalar(count, dtypes.int64, "count")]

    def iterate(self, context):
        count = context.scalar(self.tensors[0])
        elements = iter(self.inputs[0].iterate(context))
        for _ in elements if count < 0 else itertools.islice(elements, count):
            pass
        yield from elements

    def cardinality(self, context):
        n, count = self.inputs[0].cardinality(context), context.scalar(self.tensors[0])
        return n if n < 0 else 0 if count < 0 else max(0, n - count)


class ShardStage(Stage):
    """Elements index, index + num_shards, index + 2 num_shards, ... (TF1's round-robin shard)."""

    def __init__(self, stage, num_shards, index):
        self.inputs, self.spec = (stage,), stage.spec
        # checked when the iterator starts, as TF's ShardDataset kernel checks them, even where they are constants
        self.tensors = [scalar(num_shards, dtypes.int64, "num_shards"), scalar(index, dtypes.int64, "index")]

    def iterate(self, context):
        shards, index = context.scalar(self.tensors[0]), context.scalar(self.tensors[1])
        if shards <= 0:
            raise InvalidArgumentError(f"Number of shards must be greater than zero (currently num_shards = {shards}).")
        if not 0 <= index < shards:
            raise InvalidArgumentError(f"Index must be between 0 and {shards - 1} (currently index = {index}).")
        yield from itertools.islice(self.inputs[0].iterate(context), index, None, shards)

    def cardinality(self, context):
        n = self.inputs[0].cardinality(context)
        shards, index = context.scalar(self.tensors[0]), context.scalar(self.tensors[1])
        return n if n < 0 else n // shards + (index < n % shards)


class ShuffleStage(Stage):
    """TF's shuffle buffer, bit for bit: fill a buffer of buffer_size elements, emit the one at a uniformly drawn
    offset (a Philox uint32 modulo the buffer's length, as TF's ShuffleDataset draws it), move the oldest into
    its place, refill.

    Each pass over the input (each epoch of a later repeat) takes its Philox seeds from a generator seeded by
    (seed, seed2), two uint32 draws per pass (TF's RandomSeedGenerator); without reshuffle_each_iteration every
    pass uses (seed, seed2) itself (TF's FixedSeedGenerator), so it repeats one order.
    """

    def __init__(self, stage, buffer_size, seed, seed2, reshuffle_each_iteration):
        self.inputs, self.spec = (stage,), stage.spec
        self.tensors = [scalar(buffer_size, dtypes.int64, "buffer_size")]
        check(self.tensors[0], lambda n: n > 0, "buffer_size must be greater than zero, got {!r}.")
        self.seed, self.seed2, self.reshuffle = seed, seed2, reshuffle_each_iteration

    def iterate(self, context):
        size = context.scalar(self.tensors[0])
        if size <= 0:
            raise InvalidArgumentError("buffer_size must be greater than zero.")
        if self.reshuffle:
            seeds = context.seed_generator(self, self.seed, self.seed2)
            draw = PhiloxSamples(seeds(), seeds())
        else:
            draw = PhiloxSamples(*context.fixed_seeds(self, self.seed, self.seed2))
        elements, buffer, start, end = iter(self.inputs[0].iterate(context)), {}, 0, 0
        while True:
            for element in itertools.islice(elements, size - (end - start)):
                buffer[end] = element
                end += 1
            if start == end:
                return
            chosen = start + draw() % (end - start)
            element = buffer[chosen]
            if chosen != start:
                buffer[chosen] = buffer.pop(start)
            else:
                del buffer[start]
            start += 1
            yield element

    cardinality = same_cardinality


class CacheStage(Stage):
    """The input's elements, kept by the first complete pass and replayed by later ones (a pass left unfinished
    keeps nothing, as in TF1): in memory for this initialization, or, given a filename, in a file that later
    iterators and sessions read instead of the input, as TF's cache files are."""

    def __init__(self, stage, filename):
        self.inputs, self.spec = (stage,), stage.spec
        self.file = None if filename in ("", None) else f"{os.fsdecode(filename)}{CACHE_SUFFIX}"

    def iterate(self, context):
        cached = context.state.get(self)
        if cached is None and self.file is not None and os.path.exists(self.file):
            with open(self.file, "rb") as f:
                cached = [[context.to_device(v) for v in element] for element in pickle.load(f)]
        if cached is not None:
            yield from cached
            return
        elements = []
        for element in self.inputs[0].iterate(context):
            elements.append(element)
            yield element
        context.state[self] = elements
        if self.file is not None:
            with open(self.file + ".tmp", "wb") as f:
                pickle.dump([[context.to_host(v) for v in element] for element in elements], f)
            os.replace(self.file + ".tmp", self.file)  # a reader never sees half a cache

    cardinality = same_cardinality


class PrefetchStage(Stage):
    """The input as it is: elements are made when get_next asks, so prefetching changes only timing in TF1."""

    def __init__(self, stage, buffer_size):
        self.inputs, self.spec = (stage,), stage.spec
        self.tensors = [scalar(AUTOTUNE if buffer_size is None else buffer_size, dtypes.int64, "buffer_size")]
        check(self.tensors[0], lambda n: n >= AUTOTUNE, "buffer_size must be >= 0 or AUTOTUNE, got {!r}.")

    def iterate(self, context):
        yield from self.inputs[0].iterate(context)

    cardinality = same_cardinality


class InterleaveStage(Stage):
    """map_func makes a dataset of each input element; the elements of cycle_length of those datasets are
    taken block_length at a time in turn (TF1's deterministic interleave; flat_map is cycle_length=1)."""

    def __init__(self, stage, function, cycle_length, block_length):
        self.inputs, self.functions, self.function = (stage,), (function,), function
        self.spec = function.result.spec
        self.tensors = [scalar(cycle_length, dtypes.int64, "cycle_length"),
                        scalar(block_length, dtypes.int64, "block_length")]
        check(self.tensors[0], lambda n: n > 0 or n == AUTOTUNE, "cycle_length must be greater than zero, got {!r}.")
        check(self.tensors[1], lambda n: n > 0, "block_length must be greater than zero, got {!r}.")

    def iterate(self, context):
        cycle, block = (context.scalar(t) for t in self.tensors)
        if cycle == AUTOTUNE:
            cycle = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        if cycle <= 0 or block <= 0:
            raise InvalidArgumentError(f"cycle_length and block_length must be greater than zero, got "
                                       f"{cycle} and {block}.")
        inputs, slots = iter(self.inputs[0].iterate(context)), [None] * cycle
        exhausted, slot, taken = False, 0, 0
        while not exhausted or any(s is not None for s in slots):
            if slots[slot] is not None:
                element = next(slots[slot], None)
                if element is not None:
                    yield element
                    taken += 1
                    if taken < block:
                        continue
                else:
                    slots[slot] = None
            elif not exhausted:
                element = next(inputs, None)
                if element is not None:
                    slots[slot] = self._open(context, element)
                    continue
                exhausted = True
            slot, taken = (slot + 1) % cycle, 0

    def _open(self, context, element):
        values = dict(zip(self.function.outputs, context.call(self.function, element)))
        values.update(self.function.window_values(element))
        return iter(self.function.result.stage.iterate(context.nested(values)))
