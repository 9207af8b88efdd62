"""tf.train.SessionManager: make a session whose model is ready, by restoring a checkpoint or initializing.

"Ready" is TF1's test: `ready_op` (by default tg.report_uninitialized_variables()) returns no names. The
chief restores or initializes (prepare_session); other workers wait for a ready model (wait_for_session).
In ringflow every process holds its own variables, so a waiting worker can only become ready through its
own local_init_op; with MPI ranks make every rank a chief and broadcast rank 0's variables instead.
"""
import time

import numpy as np

from ..client.session import Session
from ..framework.graph import get_default_graph
from ..platform.errors import DeadlineExceededError, FailedPreconditionError
from .checkpoint_management import get_checkpoint_state, latest_checkpoint
from .logger import logger


def _new_session(master, graph, config):
    return Session(master, graph=graph, config=config)


def _op_name(op):
    return getattr(op, "name", op)


class SessionManager:
    """Creates sessions for one graph, restoring from checkpoints or running the init ops."""

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None, graph=None,
                 recovery_wait_secs=30, local_init_run_options=None, local_init_feed_dict=None):
        self._local_init_op, self._ready_op = local_init_op, ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph if graph is not None else get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_run_options = local_init_run_options  # accepted; run options do not apply here
        self._local_init_feed_dict = local_init_feed_dict
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError(f"If you pass a ready_for_local_init_op ({_op_name(ready_for_local_init_op)!r}) you "
                             "must also pass a local_init_op")

    def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                            wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        """A new session, and whether a checkpoint was restored into it."""
        sess = _new_session(master, self._graph, config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError(f"Can not provide both checkpoint_dir ({checkpoint_dir!r}) and "
                             f"checkpoint_filename_with_path ({checkpoint_filename_with_path!r}).")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return sess, True
        # TF1 restores the state file's newest entry as it is; latest_checkpoint also passes over a listed file
        # that is missing or damaged (with a warning) for the newest intact one.
        waited = 0
        prefix = latest_checkpoint(checkpoint_dir)
        while prefix is None:
            if not wait_for_checkpoint or waited >= max_wait_secs:
                return sess, False
            logger().info("Waiting for checkpoint to be available.")
            time.sleep(self._recovery_wait_secs)
            waited += self._recovery_wait_secs
            prefix = latest_checkpoint(checkpoint_dir)
        saver.restore(sess, prefix)
        if hasattr(saver, "recover_last_checkpoints"):
            saver.recover_last_checkpoints(get_checkpoint_state(checkpoint_dir).all_model_checkpoint_paths)
        return sess, True

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None,
                        checkpoint_filename_with_path=None):
        """A session with the model restored from the latest checkpoint, else initialized by init_op/init_fn."""
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir, checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        ok, msg = self._try_run_local_init_op(sess)
        if not ok:
            raise RuntimeError(f"Init operations did not make model ready for local_init.  Init op: "
                               f"{_op_name(init_op)}, init fn: {init_fn}, error: {msg}")
        ready, msg = self._model_ready(sess)
        if not ready:
            raise RuntimeError(f"Init operations did not make model ready.  Init op: {_op_name(init_op)}, init fn: "
                               f"{init_fn}, local_init_op: {_op_name(self._local_init_op)}, error: {msg}")
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None, wait_for_checkpoint=False, max_wait_secs=7200,
                        config=None, checkpoint_filename_with_path=None):
        """(session, True) if a checkpoint was restored and made the model ready, else (session, False)."""
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir, checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
        ok, msg = self._try_run_local_init_op(sess)
        if not restored:
            return sess, False
        source = checkpoint_dir or checkpoint_filename_with_path
        if not ok:
            logger().info("Restoring model from %s did not make model ready for local init: %s", source, msg)
            return sess, False
        ready, msg = self._model_ready(sess)
        if not ready:
            logger().info("Restoring model from %s did not make model ready: %s", source, msg)
            return sess, False
        logger().info("Restored model from %s", source)
        return sess, True

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session once the model is ready, polling every recovery_wait_secs; DeadlineExceededError after
        max_wait_secs."""
        max_wait_secs = float("Inf") if max_wait_secs is None else max_wait_secs
        deadline = time.time() + max_wait_secs
        while True:
            sess = _new_session(master, self._graph, config)
            not_ready_msg = None
            ok, not_ready_local_msg = self._try_run_local_init_op(sess)
            if ok:
                ready, not_ready_msg = self._model_ready(sess)
                if ready:
                    return sess
            sess.close()
            if deadline - time.time() - self._recovery_wait_secs < 0:
                why = not_ready_msg or not_ready_local_msg
                raise DeadlineExceededError(
                    None, None, f"Session was not ready after waiting {max_wait_secs} secs: {why}. In ringflow a non-chief worker cannot be initialized by the chief (each "
                    "process holds its own variables): run every rank with is_chief=True and broadcast rank 0's "
                    "variables (hvd.BroadcastGlobalVariablesHook(0)).")
            logger().info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, ready: %s",
                          not_ready_local_msg, not_ready_msg)
            time.sleep(self._recovery_wait_secs)

    def _try_run_local_init_op(self, sess):
        if self._local_init_op is None:
            return True, None
        ready, msg = self._model_ready_for_local_init(sess)
        if not ready:
            return False, msg
        logger().info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict)
        logger().info("Done running local_init_op.")
        return True, None

    def _model_ready(self, sess):
        return _ready(self._ready_op, sess, "Model not ready")

    def _model_ready_for_local_init(self, sess):
        return _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")


def _ready(op, sess, what):
    """(True, None) if `op` (a list of uninitialized variable names) is None or empty, else (False, why)."""
    if op is None:
        return True, None
    try:
        value = sess.run(op)
    except FailedPreconditionError as exc:
        if "uninitialized" not in str(exc):
            logger().warning("%s : error [%s]", what, exc)
            raise
        return False, str(exc)
    value = np.asarray(value) if value is not None else None
    if value is None or value.dtype == np.int32 or value.size == 0:
        return True, None
    names = ", ".join(v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in value.ravel())
    return False, "Variables not initialized: " + names
