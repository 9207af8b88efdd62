"""apply_if: the update runs only when the flag is true, `otherwise` only when it is false, and what the update
builds keeps the names it has without the condition."""
import numpy as np

import trainer as tg
from trainer.parallel.apply_if import apply_if


def test_update_or_otherwise_by_the_flag_and_names_in_the_callers_scope():
    with tg.Graph().as_default():
        flag = tg.placeholder(tg.bool, [])
        x, skipped = tg.Variable(0.0, name="x"), tg.Variable(0, name="skipped")
        made = []

        def update():
            made.append(tg.Variable(1.0, name="slot"))  # as an optimizer makes its slots
            return x.assign_add(1.0).op

        with tg.name_scope("train"):
            applied = apply_if(flag, update, lambda: skipped.assign_add(1), name="apply_if_flag")
        assert made[0].op.name == "train/slot"
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert [bool(sess.run(applied, {flag: f})) for f in (True, False, True)] == [True, False, True]
            assert sess.run([x, skipped]) == [np.float32(2.0), 1]


def test_without_otherwise_nothing_runs_on_false():
    with tg.Graph().as_default():
        flag = tg.placeholder(tg.bool, [])
        x = tg.Variable(0.0)
        applied = apply_if(flag, lambda: x.assign_add(1.0).op)
        with tg.Session() as sess:
            sess.run(x.initializer)
            assert not sess.run(applied, {flag: False}) and sess.run(x) == 0.0
