"""What runs a dataset inside a session: its iterators' state, its compiled functions, one initialization's values.

A dataset's stages (sources.py, transforms.py, batching.py) are Python generators over flat elements (lists of
arrays). They run inside the kernels of the iterator ops (iterator.py), so everything lives per session, as TF1
keeps iterators as resources of a session: the session's ResourceMgr (`session.resources`) holds each iterator by
its handle and each traced function's sub-plan. A Context is one initialization of one iterator: the values of the
tensors its dataset captured, and the state its stages keep for that pass (a cache's elements).
"""
import threading

import numpy as np

from ..ops.kernels.philox import PhiloxStream, philox_blocks
from ..platform.errors import FailedPreconditionError, OpError, OutOfRangeError

ITERATORS, FUNCTIONS = "iterator", "dataset_function"  # containers of session.resources: by handle, by function


def iterator_resource(session, handle):
    """The session's iterator named `handle`, created empty on first use."""
    return session.resources.lookup_or_create(ITERATORS, handle, IteratorResource)


def initialized_iterator(session, handle, failed, doing):
    """The session's iterator named by `handle` (a 0-d bytes array) once initialized, else TF1's
    FailedPreconditionError: "<failed> failed because the iterator has not been initialized ... before <doing>"."""
    resource = session.resources.lookup(ITERATORS, handle[()])
    if resource is None or resource.elements is None:
        raise FailedPreconditionError(
            f"{failed} failed because the iterator has not been initialized. Ensure that you have run the "
            f"initializer operation for this iterator before {doing}.")
    return resource


def function_plan(session, function):
    """The session's compiled sub-plan of a traced dataset function, compiled on first use."""
    return session.resources.lookup_or_create(FUNCTIONS, function, lambda: function.compile(session))


class IteratorResource:
    """One iterator in one session: the elements still to come. The seed generators of its shuffles outlive a
    re-initialization, as TF1 keeps them in the iterator's resource manager: re-initializing reshuffles.

    A pass's elements are Python generators, whose state cannot be written down; what can is where the pass came
    from: the op that started it (`source`), its context's captured values, where each seed generator stood when the
    pass began or when the pass created it (`first_positions`), the seeds fixed in the pass (`fixed_seeds`), and how
    many elements it has handed out (`consumed`). Replaying that many elements rebuilds the position
    (iterator_state.py), shuffled order included.
    """

    def __init__(self):
        self.elements = None
        self.types = None
        self.seed_generators = {}
        self.lock = threading.Lock()  # threads may run get_next at once (TF1 allows it); a generator may not
        self.stage = self.source = self.context = None
        self.first_positions, self.fixed_seeds, self.consumed = {}, {}, 0

    def start(self, stage, context, source=None):
        """Begin a pass over `stage`; `source` names the op whose inputs are the context's captured values."""
        with self.lock:
            self.types = tuple(stage.spec.types)
            self.stage, self.source, self.context = stage, source, context
            self.first_positions = {s: g.position() for s, g in self.seed_generators.items()}
            self.fixed_seeds, self.consumed = {}, 0
            self.elements = iter(stage.iterate(context))

    def next(self):
        with self.lock:
            try:
                element = next(self.elements)
            except StopIteration:
                self.elements = iter(())
                raise OutOfRangeError("End of sequence") from None
            self.consumed += 1
            return element


class Context:
    """One initialization of an iterator: captured values by tensor, per-stage state, the session's plans."""

    def __init__(self, session, values, resource):
        self.session, self.values, self.resource = session, values, resource
        self.to_device, self.to_host = session.to_device, session.to_host
        self.state = {}
        self.ignore_errors = False  # set below an ignore_errors(): an element whose function fails is dropped

    def value(self, tensor):
        return self.values[tensor]

    def scalar(self, tensor):
        """A captured scalar as a Python int/bool/float."""
        return self.to_host(self.values[tensor]).item()

    def call(self, function, element):
        """`function`'s output values for one element (a list of arrays)."""
        run = function_plan(self.session, function)
        return run(function.feeds(element) + [self.values[t] for t in function.captured])

    def call_or_skip(self, function, element):
        """call(), or None when the function fails on this element below an ignore_errors() (TF skips the element
        whose GetNext failed and asks its input for the next)."""
        try:
            return self.call(function, element)
        except OpError:
            if self.ignore_errors:
                return None
            raise

    def nested(self, values):
        """The context of a dataset a flat_map/interleave function built: its own captured values."""
        context = Context(self.session, {**self.values, **values}, self.resource)
        context.ignore_errors = self.ignore_errors
        return context

    def ignoring_errors(self):
        """This context, for the input of an ignore_errors()."""
        context = Context(self.session, self.values, self.resource)
        context.state, context.ignore_errors = self.state, True
        return context

    def seed_generator(self, stage, seed, seed2):
        """The generator of a stage's per-pass seeds, Philox uint32s (TF's RandomSeedGenerator), created on first
        use; (None, None): fresh entropy."""
        generators = self.resource.seed_generators
        if stage not in generators:
            generators[stage] = PhiloxSamples(*fixed_seeds(seed, seed2))
            self.resource.first_positions[stage] = generators[stage].position()
        return generators[stage]

    def fixed_seeds(self, stage, seed, seed2):
        """A stage's (seed, seed2) for this pass, drawn once (fresh entropy when both are None or 0); the pass's
        own are kept with the iterator so that a restored pass draws the same."""
        if stage not in self.state:
            self.state[stage] = fixed_seeds(seed, seed2)
            if self.resource.context is not None and self.state is self.resource.context.state:
                self.resource.fixed_seeds[stage] = self.state[stage]
        return self.state[stage]


class PhiloxSamples:
    """TF's SingleSampleAdapter<PhiloxRandom>(seed, seed2): the uint32s of Philox's blocks, one per call (both
    seeds 0 or None: fresh entropy, as TF's RandomSeeds)."""

    BLOCKS = 64  # blocks computed at once: numpy's call overhead shared by 256 samples

    def __init__(self, seed, seed2):
        stream = PhiloxStream(seed, seed2)
        self.key, self.counter, self.samples, self.next = stream.key, stream.counter, [], 0

    def position(self):
        """(key, counter, next): where the next sample comes from, for at()."""
        if self.next == len(self.samples):
            return self.key, self.counter, 0
        return self.key, (self.counter - self.BLOCKS) % (1 << 128), self.next

    @classmethod
    def at(cls, key, counter, next_sample):
        """The generator at a position() another one reported."""
        samples = cls.__new__(cls)
        samples.key, samples.counter, samples.samples, samples.next = tuple(key), counter, [], 0
        if next_sample:
            samples()
            samples.next = next_sample
        return samples

    def __call__(self):
        if self.next == len(self.samples):
            self.samples = philox_blocks(self.key, self.counter, self.BLOCKS).reshape(-1).tolist()
            self.counter, self.next = (self.counter + self.BLOCKS) % (1 << 128), 0  # TF's 128-bit counter wraps
        self.next += 1
        return self.samples[self.next - 1]


def fixed_seeds(seed, seed2):
    """TF's (seed, seed2) for a Philox generator; both None or 0 (no graph or op seed) draws a fresh pair once."""
    if not seed and not seed2:
        return tuple(int(v) for v in np.random.SeedSequence().generate_state(2, np.uint64))
    return seed or 0, seed2 or 0


def entropy(seed, seed2):
    """A numpy seed from TF1's (seed, seed2); both None (no graph or op seed) draws a fresh one."""
    if seed is None and seed2 is None:
        return np.random.SeedSequence().entropy
    return [seed or 0, seed2 or 0]
