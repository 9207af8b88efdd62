"""Matrix powers placed by `tf.device`, first all on one GPU, then one per GPU, summed on the CPU.

Idioms: `tf.device('/gpu:N')` and `tf.device('/cpu:0')` blocks around placeholders and chains of `tf.matmul`;
`tf.add_n`; `ConfigProto(log_device_placement=True, allow_soft_placement=True)` so the GPU pins fall back
to the CPU where there is no GPU; `Tensor.device` as TF1 spells it; wall-clock timing with `datetime`.
"""
import datetime

import numpy as np
import tensorflow as tf

SIDE, MULTIPLIES = 100, 8
draw = np.random.RandomState(1)
first = (draw.rand(SIDE, SIDE) / 40).astype("float32")
second = (draw.rand(SIDE, SIDE) / 40).astype("float32")
config = tf.ConfigProto(log_device_placement=True, allow_soft_placement=True)


def power_chain(matrix):
    """matrix ** (MULTIPLIES + 1), one matmul node per factor."""
    product = matrix
    for _ in range(MULTIPLIES):
        product = tf.matmul(matrix, product)
    return product


def run_on(devices):
    feeds, parts = [], []
    for device in devices:
        with tf.device(device):
            feeds.append(tf.placeholder(tf.float32, [SIDE, SIDE]))
            parts.append(power_chain(feeds[-1]))
    with tf.device("/cpu:0"):
        total = tf.add_n(parts)
    began = datetime.datetime.now()
    with tf.Session(config=config) as session:
        value = session.run(total, dict(zip(feeds, (first, second))))
    return value, datetime.datetime.now() - began, total


one, one_time, _ = run_on(["/gpu:0", "/gpu:0"])
two, two_time, total = run_on(["/gpu:0", "/gpu:1"])
print("one device took", one_time)
print("two devices took", two_time)
print("total placed on", total.device)
print("element sums: %.6e %.6e" % (one.sum(), two.sum()))
