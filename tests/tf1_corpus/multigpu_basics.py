# Mirrors aymericdamien/TensorFlow-Examples: examples/6_MultiGPU/multigpu_basics.py
"""A^n + B^n with matpow built under tf.device('/gpu:0'), then split over '/gpu:0' and '/gpu:1', the sum on
'/cpu:0', sessions with log_device_placement.

Changed from the original: 100x100 matrices drawn with a fixed seed (10000x10000 in the original);
allow_soft_placement=True so that the GPU pins fall back to the CPU on a machine without GPUs (TF1 refuses
them otherwise); the result's checksum is printed next to the timings.
"""
from __future__ import print_function

import datetime

import numpy as np
import tensorflow as tf

log_device_placement = True

n = 10

rng = np.random.RandomState(0)
A = (rng.rand(100, 100) / 50).astype('float32')
B = (rng.rand(100, 100) / 50).astype('float32')

c1 = []
c2 = []


def matpow(M, n):
    if n < 1:
        return M
    else:
        return tf.matmul(M, matpow(M, n - 1))


with tf.device('/gpu:0'):
    a = tf.placeholder(tf.float32, [100, 100])
    b = tf.placeholder(tf.float32, [100, 100])
    c1.append(matpow(a, n))
    c1.append(matpow(b, n))

with tf.device('/cpu:0'):
    sum = tf.add_n(c1)

t1_1 = datetime.datetime.now()
with tf.Session(config=tf.ConfigProto(log_device_placement=log_device_placement,
                                      allow_soft_placement=True)) as sess:
    single = sess.run(sum, {a: A, b: B})
t2_1 = datetime.datetime.now()


with tf.device('/gpu:0'):
    a = tf.placeholder(tf.float32, [100, 100])
    c2.append(matpow(a, n))

with tf.device('/gpu:1'):
    b = tf.placeholder(tf.float32, [100, 100])
    c2.append(matpow(b, n))

with tf.device('/cpu:0'):
    sum = tf.add_n(c2)

t1_2 = datetime.datetime.now()
with tf.Session(config=tf.ConfigProto(log_device_placement=log_device_placement,
                                      allow_soft_placement=True)) as sess:
    multi = sess.run(sum, {a: A, b: B})
t2_2 = datetime.datetime.now()


print("Single GPU computation time: " + str(t2_1 - t1_1))
print("Multi GPU computation time: " + str(t2_2 - t1_2))
print("sum device:", sum.device)
print("checksums: %.6e %.6e" % (single.sum(), multi.sum()))
