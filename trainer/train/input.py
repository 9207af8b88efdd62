"""TF1's queue-based input pipelines (training/input.py): producers that fill a queue from a tensor, and batchers
that collect a queue's elements into batches, each with the QueueRunner that keeps it filled.

An epoch limit is a local variable counted up by CountUpTo, as TF1's limit_epochs keeps it: run
tg.local_variables_initializer() before starting the queue runners, and after `num_epochs` passes the producer's
queue closes and the batches end with OutOfRangeError.

A SparseTensor (parse_single_example's VarLenFeature) goes through a batcher's queue as TF1 sends it: stored in the
session's SparseTensorsMap, its int64 handle queued, and the batch's handles taken back as one SparseTensor with a
batch dimension in front (sparse_map_ops.py).
"""
from ..framework import dtypes
from ..framework.graph_keys import GraphKeys
from ..framework.graph_wrappers import control_dependencies, name_scope
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import cast, reshape, shape as shape_of
from ..ops.check_ops import Assert
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from ..ops.fill_ops import range as range_op
from ..ops.gather_ops import gather
from ..ops.math_ops import greater, maximum
from ..ops.segment_ops import boolean_mask
from ..ops.shape_ops import expand_dims, size
from ..ops.shuffle_ops import random_shuffle
from ..ops.sparse_map_ops import add_sparse_to_tensors_map, take_many_sparse_from_tensors_map
from ..ops.sparse_tensor import SparseTensor
from ..ops.variables import Variable
from ..summary.ops import scalar as summary_scalar
from .queue_runner import QueueRunner, add_queue_runner


def limit_epochs(tensor, num_epochs=None, name=None):
    """`tensor`, whose evaluation raises OutOfRangeError after `num_epochs` evaluations (None: no limit)."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name, "limit_epochs", [tensor]) as scope:
        epochs = Variable(constant(0, dtype=dtypes.int64), name="epochs", trainable=False,
                          collections=[GraphKeys.LOCAL_VARIABLES])
        with control_dependencies([epochs.count_up_to(num_epochs)]):
            return identity(tensor, name=scope)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    """A FIFOQueue filled with the rows of `input_tensor` (shuffled each epoch if `shuffle`) by a QueueRunner."""
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        rows = TensorShape(input_tensor.shape[1:] if input_tensor.shape.ndims is not None else None)
        element_shape = rows.merge_with(TensorShape(element_shape))
        if element_shape.ndims is None or not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        queue = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype], shapes=[element_shape],
                          shared_name=shared_name, name=name)
        add_queue_runner(QueueRunner(queue, [queue.enqueue_many([input_tensor])], cancel_op=cancel_op))
        if summary_name is not None:
            summary_scalar(summary_name, cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        return queue


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                          name=None, cancel_op=None):
    """A queue of the strings of `string_tensor` (file names, typically), for a reader's read()."""
    message = "string_input_producer requires a non-null input tensor"
    if not hasattr(string_tensor, "op") and not len(string_tensor):
        raise ValueError(message)
    with name_scope(name, "input_producer", [string_tensor]) as scope:
        string_tensor = convert_to_tensor(string_tensor, dtype=dtypes.string)
        with control_dependencies([Assert(greater(size(string_tensor), 0), [message])]):
            string_tensor = identity(string_tensor)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope, cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """A queue of the integers 0 .. limit-1, an epoch at a time."""
    with name_scope(name, "input_producer", [limit]) as scope:
        return input_producer(range_op(limit), [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """One row of every tensor of `tensor_list` per evaluation: the same row index for all, an epoch at a time."""
    with name_scope(name, "input_producer", tensor_list):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        queue = range_input_producer(shape_of(tensor_list[0])[0], num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [gather(t, index) for t in tensor_list]


def _as_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    return list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]


def _as_original(tensors, dequeued):
    if isinstance(tensors, dict):
        dequeued = dequeued if isinstance(dequeued, list) else [dequeued]
        return {k: dequeued[i] for i, k in enumerate(sorted(tensors, key=str))}
    return dequeued


def _shapes(tensor_lists, shapes, enqueue_many):
    if shapes is not None:
        return shapes
    merged = []
    for i in range(len(tensor_lists[0])):
        shape = TensorShape(None)
        for tensors in tensor_lists:
            if tensors[i].shape.ndims is None:
                raise ValueError(f"Cannot infer Tensor's rank: {tensors[i]}")
            shape = shape.merge_with(TensorShape(tensors[i].shape[1:] if enqueue_many else tensors[i].shape))
        merged.append(shape)
    return merged


def _enqueue_ops(queue, tensor_lists, threads, enqueue_many, keep_input):
    """One enqueue op per list (its thread count times); `keep_input` (a bool, or a tensor: a scalar, or one per
    row with enqueue_many) drops the elements it is False for, as TF1's maybe_* batchers do."""
    ops = []
    for tensors in tensor_lists:
        if keep_input is True:
            op = (queue.enqueue_many if enqueue_many else queue.enqueue)(tensors)
        else:
            keep = convert_to_tensor(keep_input, dtype=dtypes.bool)
            rows = tensors if enqueue_many else [expand_dims(t, 0) for t in tensors]
            keep = keep if enqueue_many else reshape(keep, [1])
            op = queue.enqueue_many([boolean_mask(t, keep) for t in rows])
        ops += [op] * threads
    return ops


def _batch(tensor_lists, tensors, batch_size, capacity, enqueue_many, shapes, allow_smaller_final_batch,
           shared_name, name, threads, keep_input, dynamic_pad=False, shuffle=None):
    tensor_lists, restore = _store_sparse(tensor_lists, enqueue_many)
    types = [t.dtype for t in tensor_lists[0]]
    shapes = _shapes(tensor_lists, shapes, enqueue_many)
    if shuffle is not None:
        min_after_dequeue, seed = shuffle
        queue = RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed, dtypes=types,
                                   shapes=shapes, shared_name=shared_name)
    else:
        queue = (PaddingFIFOQueue if dynamic_pad else FIFOQueue)(capacity=capacity, dtypes=types, shapes=shapes,
                                                                shared_name=shared_name)
    add_queue_runner(QueueRunner(queue, _enqueue_ops(queue, tensor_lists, threads, enqueue_many, keep_input)))
    if shuffle is None:
        summary_scalar(f"fraction_of_{capacity}_full", cast(queue.size(), dtypes.float32) * (1.0 / capacity))
    else:
        full = cast(maximum(0, queue.size() - min_after_dequeue), dtypes.float32) * (
            1.0 / (capacity - min_after_dequeue))
        summary_scalar(f"fraction_over_{min_after_dequeue}_of_{capacity - min_after_dequeue}_full", full)
    dequeue = queue.dequeue_up_to if allow_smaller_final_batch else queue.dequeue_many
    return _as_original(tensors, restore(dequeue(batch_size, name=name)))


def _store_sparse(tensor_lists, enqueue_many):
    """The lists with each SparseTensor replaced by its handle in a SparseTensorsMap (one map per position, which
    every list of a join shares), and the function that turns the dequeued handles back into SparseTensors."""
    maps, stored = {}, []
    for tensors in tensor_lists:
        row = []
        for i, t in enumerate(tensors):
            if not isinstance(t, SparseTensor):
                row.append(t)
                continue
            shared = maps[i][0].name if i in maps else None  # a join's later lists put theirs in the first's map
            handle = add_sparse_to_tensors_map(t, shared_name=shared, many=enqueue_many)
            maps.setdefault(i, (handle.op, t))
            row.append(handle)
        stored.append(row)

    def restore(dequeued):
        if not maps:
            return dequeued
        single = not isinstance(dequeued, (list, tuple))
        parts = [dequeued] if single else list(dequeued)
        for i, (add_op, sparse) in maps.items():
            rank = sparse.dense_shape.shape.as_list()[0] if sparse.dense_shape.shape.ndims == 1 else None
            rank = None if rank is None else rank + (0 if enqueue_many else 1)
            parts[i] = take_many_sparse_from_tensors_map(add_op, parts[i], sparse.dtype, rank)
        # TF1 hands every output out after all are taken (control_dependency identities), so a fetch of one
        # component empties the map of the others too
        with control_dependencies([p.values if isinstance(p, SparseTensor) else p for p in parts]):
            parts = [SparseTensor(*[identity(t, name="control_dependency") for t in (p.indices, p.values,
                                                                                      p.dense_shape)])
                     if isinstance(p, SparseTensor) else identity(p, name="control_dependency") for p in parts]
        return parts[0] if single else parts
    return stored, restore


def _scoped_batch(default, tensors_or_lists, join, batch_size, capacity, enqueue_many, shapes,
                  allow_smaller_final_batch, shared_name, name, threads=1, keep_input=True, dynamic_pad=False,
                  shuffle=None):
    tensors = tensors_or_lists[0] if join else tensors_or_lists
    lists = [_as_list(t) for t in (tensors_or_lists if join else [tensors_or_lists])]
    with name_scope(name, default, [t for tl in lists for t in tl]) as scope:
        lists = [[t if isinstance(t, SparseTensor) else convert_to_tensor(t) for t in tl] for tl in lists]
        if any(len(tl) != len(lists[0]) for tl in lists) or not lists[0]:
            raise ValueError(f"Expecting a non-empty list of tensors (and one length for each list), got "
                             f"{[len(tl) for tl in lists]}")
        return _batch(lists, tensors, batch_size, capacity, enqueue_many, shapes, allow_smaller_final_batch,
                      shared_name, scope, threads, keep_input, dynamic_pad, shuffle)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of `tensors` (a list or dict) in order, filled by `num_threads` threads through a FIFOQueue."""
    return _scoped_batch("batch", tensors, False, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, num_threads, True, dynamic_pad)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """batch(), enqueueing only the elements `keep_input` is True for."""
    return _scoped_batch("batch", tensors, False, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, num_threads, keep_input, dynamic_pad)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
               allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches mixing the elements of several lists of tensors, one enqueue thread per list."""
    return _scoped_batch("batch_join", tensors_list, True, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, 1, True, dynamic_pad)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """batch_join(), enqueueing only the elements `keep_input` is True for."""
    return _scoped_batch("batch_join", tensors_list, True, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, 1, keep_input, dynamic_pad)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of `tensors` drawn at random from a RandomShuffleQueue holding at least `min_after_dequeue`."""
    return _scoped_batch("shuffle_batch", tensors, False, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, num_threads, True,
                         shuffle=(min_after_dequeue, seed))


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                        name=None):
    """shuffle_batch(), enqueueing only the elements `keep_input` is True for."""
    return _scoped_batch("shuffle_batch", tensors, False, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, num_threads, keep_input,
                         shuffle=(min_after_dequeue, seed))


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None, enqueue_many=False,
                       shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """shuffle_batch() over several lists of tensors, one enqueue thread per list."""
    return _scoped_batch("shuffle_batch_join", tensors_list, True, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, 1, True, shuffle=(min_after_dequeue, seed))


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    """shuffle_batch_join(), enqueueing only the elements `keep_input` is True for."""
    return _scoped_batch("shuffle_batch_join", tensors_list, True, batch_size, capacity, enqueue_many, shapes,
                         allow_smaller_final_batch, shared_name, name, 1, keep_input,
                         shuffle=(min_after_dequeue, seed))
