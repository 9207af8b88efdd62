"""tf.train.basic_train_loop: a Supervisor's managed session running a step function until the supervisor says
stop, started again after an AbortedError (TF1's training/basic_loops.py)."""
from ..platform.errors import AbortedError


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Call train_step_fn(sess, *args, **kwargs) in supervisor.managed_session(master) until
    supervisor.should_stop(); an AbortedError opens a new session and goes on."""
    args, kwargs = list(args or []), dict(kwargs or {})
    while True:
        try:
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
            return
        except AbortedError:
            continue
