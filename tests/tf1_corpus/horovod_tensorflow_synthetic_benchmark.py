# Mirrors horovod/horovod: examples/tensorflow_synthetic_benchmark.py (TF1 graph mode), reduced
"""Horovod's synthetic benchmark: a tf.keras.applications model on tf.random_uniform images and labels,
hvd.DistributedOptimizer with optional fp16 Compression, broadcast_global_variables(0) run once, then timeit
over session.run(train_opt) and images/sec per worker and in total.

Changed from the original: run with a small --image-size and --batch-size and few batches (the model builder
gets input_shape and classes to match); everything else as written.
"""
from __future__ import absolute_import, division, print_function

import argparse
import os
import numpy as np
import timeit

import tensorflow as tf
import horovod.tensorflow as hvd
from tensorflow.keras import applications

parser = argparse.ArgumentParser(description='TensorFlow Synthetic Benchmark',
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
parser.add_argument('--fp16-allreduce', action='store_true', default=False,
                    help='send gradients as float16')

parser.add_argument('--model', type=str, default='ResNet50',
                    help='a tf.keras.applications model')
parser.add_argument('--batch-size', type=int, default=32,
                    help='images per step')
parser.add_argument('--image-size', type=int, default=224,
                    help='input image height and width (the original fixes 224)')
parser.add_argument('--num-classes', type=int, default=1000,
                    help='number of classes (the original fixes 1000)')

parser.add_argument('--num-warmup-batches', type=int, default=10,
                    help='untimed steps first')
parser.add_argument('--num-batches-per-iter', type=int, default=10,
                    help='steps per timing')
parser.add_argument('--num-iters', type=int, default=10,
                    help='timings')

parser.add_argument('--eager', action='store_true', default=False,
                    help='run eagerly')
parser.add_argument('--no-cuda', action='store_true', default=False,
                    help='run on the CPU')

args = parser.parse_args()
args.cuda = not args.no_cuda

hvd.init()

config = tf.ConfigProto()
if args.cuda:
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = str(hvd.local_rank())
else:
    os.environ["CUDA_VISIBLE_DEVICES"] = "-1"
    config.gpu_options.allow_growth = False
    config.gpu_options.visible_device_list = ''

if args.eager:
    tf.enable_eager_execution(config)

model = getattr(applications, args.model)(weights=None,
                                          input_shape=(args.image_size, args.image_size, 3),
                                          classes=args.num_classes)

opt = tf.train.GradientDescentOptimizer(0.01)

compression = hvd.Compression.fp16 if args.fp16_allreduce else hvd.Compression.none

opt = hvd.DistributedOptimizer(opt, compression=compression)

init = tf.global_variables_initializer()
bcast_op = hvd.broadcast_global_variables(0)

data = tf.random_uniform([args.batch_size, args.image_size, args.image_size, 3])
target = tf.random_uniform([args.batch_size, 1], minval=0, maxval=args.num_classes - 1, dtype=tf.int64)


def loss_function():
    probs = model(data, training=True)
    return tf.losses.sparse_softmax_cross_entropy(target, probs)


def log(s, nl=True):
    if hvd.rank() != 0:
        return
    print(s, end='\n' if nl else '')


log('Model: %s' % args.model)
log('Batch size: %d' % args.batch_size)
device = 'GPU' if args.cuda else 'CPU'
log('Number of %ss: %d' % (device, hvd.size()))


def run(benchmark_step):
    log('Running warmup...')
    timeit.timeit(benchmark_step, number=args.num_warmup_batches)

    log('Running benchmark...')
    img_secs = []
    for x in range(args.num_iters):
        time = timeit.timeit(benchmark_step, number=args.num_batches_per_iter)
        img_sec = args.batch_size * args.num_batches_per_iter / time
        log('Iter #%d: %.1f img/sec per %s' % (x, img_sec, device))
        img_secs.append(img_sec)

    img_sec_mean = np.mean(img_secs)
    img_sec_conf = 1.96 * np.std(img_secs)
    log('Img/sec per %s: %.1f +-%.1f' % (device, img_sec_mean, img_sec_conf))
    log('Total img/sec on %d %s(s): %.1f +-%.1f' %
        (hvd.size(), device, hvd.size() * img_sec_mean, hvd.size() * img_sec_conf))


if tf.executing_eagerly():
    with tf.device(device):
        run(lambda: opt.minimize(loss_function, var_list=model.trainable_variables))
else:
    with tf.Session(config=config) as session:
        init.run()
        bcast_op.run()

        loss = loss_function()
        train_opt = opt.minimize(loss)
        run(lambda: session.run(train_opt))
