"""Record what real TensorFlow's queue-based input pipelines dequeue (run only in a venv that has TensorFlow):

    /work/tfvenv/bin/python scripts/record_tf_queues.py

writes tests/trainer/train/fixtures/tf_queues.json from the pipelines of tests/trainer/train/queue_pipelines.py,
built with tf.compat.v1 in graph mode; test_queue_pipelines.py replays them on ringflow.
"""
import json
import os
import sys

import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.trainer.train import queue_pipelines  # noqa: E402

OUT = os.path.join(ROOT, "tests", "trainer", "train", "fixtures", "tf_queues.json")


def main():
    tf.compat.v1.disable_v2_behavior()
    v1 = tf.compat.v1
    answers = {name: queue_pipelines.drain(v1, name) for name in queue_pipelines.PIPELINES}
    with open(OUT, "w") as f:
        json.dump({"recorded_with": f"tensorflow {tf.__version__} (tf.compat.v1, graph mode)",
                   "pipelines": answers}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: {len(answers)} pipelines")


if __name__ == "__main__":
    main()
