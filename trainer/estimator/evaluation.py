"""One pass of evaluation (TF1's evaluation._evaluate_once) and the summary of its results.

The metrics' update ops run until the input ends (OutOfRangeError) or `steps` batches were read, counted by a
local "eval_step" variable; the metric values are read once at the end by a FinalOpsHook. Results are written
to an event file as scalars at the evaluated checkpoint's global step.
"""
import math
import time

import numpy as np

from ..platform import tf_logging as logging
from ..framework.graph import get_default_graph
from ..framework.tensor_util import make_tensor_proto
from ..metrics import mean
from ..ops.core_ops import group
from ..summary.writer import FileWriterCache
from ..summary.protos import Summary, SummaryMetadata
from ..train.basic_session_run_hooks import FinalOpsHook
from ..train.monitored_session import ChiefSessionCreator, MonitoredSession
from ..train.scaffold import Scaffold
from ..train.session_run_hook import SessionRunArgs, SessionRunHook
from ..ops.variables import Variable
from .model_fn import LOSS_METRIC_KEY

EVAL_STEP = "eval_step"  # TF1's GraphKeys.EVAL_STEP: the collection of the evaluation's batch counter


def get_or_create_eval_step():
    """The graph's int64 local counter of evaluated batches (collection "eval_step"), created at 0."""
    graph = get_default_graph()
    found = graph.get_collection(EVAL_STEP)
    if len(found) > 1:
        raise ValueError(f"Multiple tensors added to the collection {EVAL_STEP!r}: {found!r}")
    if found:
        return found[0]
    with graph.name_scope(None):
        return Variable(np.int64(0), name=EVAL_STEP, trainable=False,
                        collections=["local_variables", EVAL_STEP])


class StopAfterNEvalsHook(SessionRunHook):
    """Requests a stop once `num_evals` batches were evaluated (None: until the input ends); logs progress."""

    def __init__(self, num_evals, log_progress=True):
        self._num_evals, self._log_progress = num_evals, log_progress
        self._evals_completed = None
        # TF1 logs every batch of a short evaluation, else about ten times.
        self._log_frequency = 1 if num_evals is None or num_evals < 20 else math.floor(num_evals / 10.0)

    def set_evals_completed_tensor(self, updated_eval_step):
        self._evals_completed = updated_eval_step

    def before_run(self, run_context):
        return SessionRunArgs({"evals_completed": self._evals_completed})

    def after_run(self, run_context, run_values):
        done = int(run_values.results["evals_completed"])
        if self._log_progress:
            if self._num_evals is None:
                logging.info("Evaluation [%d]", done)
            elif done % self._log_frequency == 0 or done == self._num_evals:
                logging.info("Evaluation [%d/%d]", done, self._num_evals)
        if self._num_evals is not None and done >= self._num_evals:
            run_context.request_stop()


def metric_ops(spec, global_step):
    """(one op updating every metric, {name: value Tensor}) for an EVAL spec, with TF1's "loss" (the mean of the
    batch losses) and "global_step" added."""
    metrics = dict(spec.eval_metric_ops)
    for reserved in (LOSS_METRIC_KEY, "global_step"):
        if reserved in metrics:
            raise ValueError(f"Metric with name {reserved!r} is not allowed, because Estimator already defines a "
                             "default metric with the same name.")
    metrics[LOSS_METRIC_KEY] = mean(spec.loss)
    update_op = group(*[metrics[k][1] for k in sorted(metrics)])  # sorted: the same graph every time
    final_ops = {k: value for k, (value, _) in metrics.items()}
    final_ops["global_step"] = global_step
    return update_op, final_ops


def eval_scaffold(scaffold):
    """The spec's scaffold; a local_init_op of its own also initializes the metrics and the eval step."""
    if scaffold.local_init_op is None:
        return scaffold
    get_or_create_eval_step()
    return Scaffold(local_init_op=group(scaffold.local_init_op, Scaffold.default_local_init_op()),
                    copy_from_scaffold=scaffold)


def evaluate_once(checkpoint_path, scaffold, update_op, final_ops, hooks, config=None):
    """Restore `checkpoint_path` (or initialize when None), run update_op until a hook or the input stops,
    then return the values of `final_ops` (a dict of Tensors)."""
    eval_step = get_or_create_eval_step()
    hooks = list(hooks)
    eval_ops = [eval_step.assign_add(1)] if update_op is None else [update_op, eval_step.assign_add(1)]
    for hook in hooks:
        if isinstance(hook, StopAfterNEvalsHook):
            hook.set_evals_completed_tensor(eval_ops[-1])
    final_ops_hook = FinalOpsHook(final_ops)
    hooks.append(final_ops_hook)
    logging.info("Starting evaluation at %s", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    start = time.time()
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_filename_with_path=checkpoint_path, config=config)
    with MonitoredSession(session_creator=creator, hooks=hooks) as session:
        while not session.should_stop():
            session.run(eval_ops)
    logging.info("Inference Time : %.5fs", time.time() - start)
    logging.info("Finished evaluation at %s", time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime()))
    return final_ops_hook.final_ops_values


def _summary_values(key, value):
    """The Summary values TF1 writes for one result: a scalar, or the values of a serialized Summary."""
    if isinstance(value, bytes):
        try:
            parsed = Summary.FromString(value)
        except Exception:  # noqa: BLE001 - TF1 skips what does not parse as a Summary
            logging.warning("Skipping summary for %s, cannot parse string to Summary.", key)
            return []
        return [Summary.Value(tag=f"{key}/{i}", **{k: getattr(v, k) for k in ("simple_value", "histo", "image")
                                                   if v.HasField(k)}) for i, v in enumerate(parsed.value)]
    if np.ndim(value) == 0 and np.asarray(value).dtype.kind in "fiub":
        return [Summary.Value(tag=key, simple_value=float(value))]
    logging.warning("Skipping summary for %s, must be a float or int scalar or a serialized Summary; got %r",
                    key, value)
    return []


def write_dict_to_summary(output_dir, dictionary, current_global_step):
    """Log the results and write them (global_step aside) as one Summary at `current_global_step`."""
    logging.info("Saving dict for global step %d: %s", current_global_step,
                 ", ".join(f"{k} = {v}" for k, v in sorted(dictionary.items()) if not isinstance(v, bytes)))
    values = []
    for key, value in dictionary.items():
        if value is not None and key != "global_step":
            values += _summary_values(key, value)
    writer = FileWriterCache.get(output_dir)
    writer.add_summary(Summary(value=values), current_global_step)
    writer.flush()


def write_checkpoint_path_to_summary(output_dir, checkpoint_path, current_global_step):
    """A text summary "checkpoint_path" naming the evaluated checkpoint (as TF1 writes)."""
    tensor = make_tensor_proto(checkpoint_path)
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text"))
    writer = FileWriterCache.get(output_dir)
    writer.add_summary(Summary(value=[Summary.Value(tag="checkpoint_path", metadata=metadata, tensor=tensor)]),
                       current_global_step)
    writer.flush()
