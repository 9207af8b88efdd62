"""The hooks and graph additions of Estimator.train (TF1's _train_with_estimator_spec), before the session starts.

Every rank runs: the input's hooks, the caller's, a StopAtStepHook for steps/max_steps, NanTensorHook on the loss,
"loss = ..., step = ..." logs every log_step_count_steps, and the spec's training_hooks. The chief also saves
checkpoints on RunConfig's cadence (with the saving listeners) unless a hook of the caller's already does.
"""
from .. import summary
from ..framework.graph_wrappers import add_to_collection, get_collection
from ..framework.graph_keys import GraphKeys
from ..train.summary_and_checkpoint_hooks import CheckpointSaverHook
from ..train.basic_session_run_hooks import LoggingTensorHook, NanTensorHook, StopAtStepHook
from ..train.saver import Saver


def _add_loss_summary_and_saver(spec, config):
    # TensorBoard shows the loss under the tag "loss" unless model_fn already wrote a summary by that name.
    if not any(s.op.name == "loss" for s in get_collection(GraphKeys.SUMMARIES)):
        summary.scalar("loss", spec.loss)
    add_to_collection(GraphKeys.LOSSES, spec.loss)
    if not (spec.scaffold.saver or get_collection(GraphKeys.SAVERS)):
        add_to_collection(GraphKeys.SAVERS, Saver(
            sharded=True, max_to_keep=config.keep_checkpoint_max,
            keep_checkpoint_every_n_hours=config.keep_checkpoint_every_n_hours, defer_build=True,
            save_relative_paths=True))


def _chief_hooks(spec, config, all_hooks, listeners):
    saver_hooks = [h for h in all_hooks if isinstance(h, CheckpointSaverHook)]
    if saver_hooks:
        if listeners:
            raise NotImplementedError(
                "saving_listeners together with a CheckpointSaverHook of your own: ringflow cannot add listeners "
                "to a hook already built; pass them to it as CheckpointSaverHook(..., listeners=[...])")
        return []
    if config.save_checkpoints_secs or config.save_checkpoints_steps:
        return [CheckpointSaverHook(config.model_dir, save_secs=config.save_checkpoints_secs,
                                    save_steps=config.save_checkpoints_steps, scaffold=spec.scaffold,
                                    listeners=list(listeners))]
    if listeners:
        raise ValueError("There should be a CheckpointSaverHook to use saving_listeners. Please set one of the "
                         "RunConfig.save_checkpoints_steps or RunConfig.save_checkpoints_secs.")
    return []


def train_hooks(spec, config, input_hooks, hooks, listeners, steps, max_steps, global_step):
    """(worker_hooks, chief_only_hooks) for MonitoredTrainingSession; adds the loss summary and default Saver."""
    _add_loss_summary_and_saver(spec, config)
    worker_hooks = list(input_hooks) + list(hooks)
    if steps is not None or max_steps is not None:
        worker_hooks.append(StopAtStepHook(steps, max_steps))
    worker_hooks.append(NanTensorHook(spec.loss))
    if config.log_step_count_steps is not None:
        worker_hooks.append(LoggingTensorHook({"loss": spec.loss, "step": global_step},
                                              every_n_iter=config.log_step_count_steps))
    worker_hooks += list(spec.training_hooks)
    chief_hooks = _chief_hooks(spec, config, worker_hooks + list(spec.training_chief_hooks), listeners)
    return worker_hooks, chief_hooks + list(spec.training_chief_hooks)
