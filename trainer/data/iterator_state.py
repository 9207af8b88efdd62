"""An iterator's position as a tensor a Saver writes: TF1's SerializeIterator and DeserializeIterator ops and the
SaveableObject tf.data.experimental.make_saveable_from_iterator gives.

TF writes each dataset kernel's own state (a shuffle buffer, a file offset). Here a pass's elements come from
Python generators, so the state is what rebuilds the pass instead (runtime.IteratorResource): the op that started
it, the values its dataset captured, where its seed generators stood, and how many elements it handed out.
Restoring starts the same pass again and replays that many elements, so training resumes on the next element, in
the same shuffled order, at the cost of computing the skipped elements once more. The saved tensor is a string
vector: a JSON header, then each captured value as a TensorProto. Like TF's variant, it is read back only by the
program that wrote it: TF's own iterator checkpoints do not restore here, nor ours in TF.

Seeds fixed inside the datasets a flat_map or interleave function builds are not kept, so an unseeded shuffle
there draws a new order after a restore.
"""
import json

import numpy as np

from ..framework import dtypes
from ..framework.registry import register
from ..framework.tensor_util import make_ndarray, make_tensor_proto
from ..framework.node_def import TensorProto
from ..ops.saveable_object import SaveableObject, SaveSpec
from ..platform import tf_logging as logging
from ..platform.errors import FailedPreconditionError, OutOfRangeError
from .options import ExternalStatePolicy
from .runtime import Context, PhiloxSamples, initialized_iterator, iterator_resource
from .stage import captures

FORMAT = "ringflow iterator state 1"
_RESTORE_ADVICE = ("Make sure the dataset definition has not changed between the process that saved the checkpoint "
                   "and the process that is restoring it.")
POLICIES = {"warn": ExternalStatePolicy.WARN, "ignore": ExternalStatePolicy.IGNORE, "fail": ExternalStatePolicy.FAIL}


def policy_of(policy):
    """An ExternalStatePolicy from TF's names ('warn', 'ignore', 'fail'; None is 'fail')."""
    if isinstance(policy, ExternalStatePolicy):
        return policy
    if policy is None:
        return ExternalStatePolicy.FAIL
    if policy not in POLICIES:
        raise ValueError(f"Invalid `ExternalStatePolicy.` Supported values include 'warn', 'ignore', and 'fail.' "
                         f"Received {policy}.")
    return POLICIES[policy]


def stages(stage):
    """A dataset's stages, depth first from its last one: the order positions are saved in."""
    found = [stage]
    for parent in stage.inputs:
        found += stages(parent)
    return found


def _serialize_kernel(op, session):
    policy = ExternalStatePolicy(op.attrs["external_state_policy"])

    def run(handle):
        resource = initialized_iterator(session, handle, "Save()", f"saving it (iterator {handle[()].decode()!r})")
        order = stages(resource.stage)
        _check_external_state(order, policy, handle[()].decode())
        with resource.lock:
            index = {stage: i for i, stage in enumerate(order)}
            header = {"format": FORMAT, "source": resource.source, "consumed": resource.consumed,
                      "generators": [[index[s], list(key), str(counter), n]
                                     for s, (key, counter, n) in resource.first_positions.items() if s in index],
                      "fixed_seeds": [[index[s], list(seeds)] for s, seeds in resource.fixed_seeds.items()
                                      if s in index]}
            values = [resource.context.values[t] for t in captures(resource.stage)]
        protos = [make_tensor_proto(session.to_host(v)).SerializeToString() for v in values]
        return np.array([json.dumps(header).encode()] + protos, dtype=object)
    return run


def _check_external_state(order, policy, name):
    """TF's check of state outside the pipeline: a Python generator's position is lost."""
    if policy == ExternalStatePolicy.IGNORE:
        return
    for stage in order:
        if not getattr(stage, "saveable", True):
            message = (f"PyFunc is stateful: iterator {name!r} reads {type(stage).__name__} (Dataset.from_generator's "
                       "Python generator), whose position cannot be saved. Build the dataset from tensors or files, "
                       "or pass external_state_policy='ignore' (the generator is called anew and the elements "
                       "handed out are skipped) to make_saveable_from_iterator")
            if policy == ExternalStatePolicy.FAIL:
                raise FailedPreconditionError(message)
            logging.warning(message)


def _deserialize_kernel(op, session):
    def run(handle, state):
        header, values = _parse(state, op.name)
        try:
            source = op.graph.get_operation_by_name(header["source"])
            stage = source.attrs["dataset"]
        except (KeyError, ValueError):
            raise FailedPreconditionError(
                f"Failed to restore dataset iterator from checkpoint: the graph has no dataset op "
                f"{header['source']!r} that started the saved iterator. {_RESTORE_ADVICE}") from None
        captured = captures(stage)
        order = stages(stage)
        if len(captured) != len(values) or max([g[0] for g in header["generators"]] + [-1]) >= len(order):
            raise FailedPreconditionError(f"Failed to restore dataset iterator from checkpoint: the dataset of "
                                          f"{source.name!r} differs from the one saved. {_RESTORE_ADVICE}")
        resource = iterator_resource(session, handle[()])
        for i, key, counter, n in header["generators"]:
            resource.seed_generators[order[i]] = PhiloxSamples.at(key, int(counter), n)
        context = Context(session, dict(zip(captured, [_to_device(session, v) for v in values])), resource)
        context.state.update((order[i], tuple(seeds)) for i, seeds in header["fixed_seeds"])
        resource.start(stage, context, source.name)
        resource.fixed_seeds.update((order[i], tuple(seeds)) for i, seeds in header["fixed_seeds"])
        try:
            for _ in range(header["consumed"]):
                resource.next()
        except OutOfRangeError:
            pass  # the saved pass had ended: so has this one
    return run


def _parse(state, name):
    items = np.asarray(state, dtype=object).ravel().tolist()
    try:
        header = json.loads(items[0])
        if header.get("format") != FORMAT:
            raise ValueError(header.get("format"))
        return header, [make_ndarray(TensorProto.FromString(item)) for item in items[1:]]
    except (IndexError, ValueError, TypeError, AttributeError):
        raise FailedPreconditionError(
            f"Failed to restore dataset iterator from checkpoint ({name!r}): the saved state is not one ringflow "
            "wrote (TensorFlow's own iterator checkpoints hold its kernels' state, which ringflow cannot read): "
            "restore the iterator from a checkpoint ringflow saved, or re-initialize it") from None


def _to_device(session, value):
    return value if value.dtype == object else session.to_device(value)


register("SerializeIterator", kernel=_serialize_kernel, infer=lambda handle, **attrs: [((None,), dtypes.string)])
register("DeserializeIterator", kernel=_deserialize_kernel, infer=lambda handle, state: [])


class IteratorSaveable(SaveableObject):
    """An iterator's position for a Saver: saved under "<name>_STATE", as TF names it."""

    def __init__(self, iterator_resource, name, external_state_policy=ExternalStatePolicy.FAIL):
        state = iterator_resource.graph.create_op(
            "SerializeIterator", [iterator_resource], [((None,), dtypes.string)], name="SerializeIterator",
            attrs={"external_state_policy": external_state_policy.value}).outputs[0]
        super().__init__(iterator_resource, [SaveSpec(state, "", name + "_STATE", device=iterator_resource.device)],
                         name)

    def restore(self, restored_tensors, restored_shapes):
        return self.op.graph.create_op("DeserializeIterator", [self.op, restored_tensors[0]], [],
                                       name="DeserializeIterator")
