"""tensorflow.python.ops.resources: registered resources, their initialization and the report of uninitialized
ones, with TF1's collections."""
import numpy as np

import trainer as tg
from trainer.python.ops import resources


def test_resources_are_registered_initialized_and_reported():
    with tg.Graph().as_default():
        assert resources.shared_resources() == [] and resources.local_resources() == []
        empty = resources.initialize_resources([])
        assert empty.type == "NoOp" and empty.name == "init"
        flag = tg.Variable(False, name="table_ready")
        other = tg.Variable(False, name="cache_ready")
        resources.register_resource(flag, flag.assign(True), flag)
        resources.register_resource(other, other.assign(True), other, is_shared=False)
        assert [r.handle for r in tg.get_collection(tg.GraphKeys.RESOURCES)] == [flag]
        assert [r.handle for r in resources.local_resources()] == [other]
        report = resources.report_uninitialized_resources()
        init_shared = resources.initialize_resources(resources.shared_resources())
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert list(sess.run(report)) == [b"table_ready:0", b"cache_ready:0"]
            sess.run(init_shared)
            assert list(sess.run(report)) == [b"cache_ready:0"]
        with tg.Session() as sess:
            assert np.asarray(sess.run(resources.report_uninitialized_resources([]))).shape == (0,)
