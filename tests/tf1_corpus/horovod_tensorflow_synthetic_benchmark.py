"""Images per second of a tf.keras.applications model (built with weights=None and a chosen input shape and
class count) trained on tf.random_uniform images and labels with Horovod: tf.train.GradientDescentOptimizer in
hvd.DistributedOptimizer (fp16 Compression on request), a ConfigProto pinning the rank's GPU or hiding every GPU,
tf.global_variables_initializer and hvd.broadcast_global_variables(0) run with Operation.run() inside the
session, then timeit over session.run of the training op; only rank 0 prints. The eager path
(tf.enable_eager_execution, minimize of a loss callable) is kept behind --eager."""
import argparse
import os
import timeit

import numpy as np
import tensorflow as tf
import horovod.tensorflow as hvd
from tensorflow.keras import applications

flags = argparse.ArgumentParser(description="synthetic-data training speed under Horovod",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
flags.add_argument("--model", default="ResNet50", help="a tf.keras.applications constructor")
flags.add_argument("--image-size", type=int, default=224, help="side of the square input images")
flags.add_argument("--num-classes", type=int, default=1000, help="width of the model's output")
flags.add_argument("--batch-size", type=int, default=32, help="images per step on each worker")
flags.add_argument("--num-warmup-batches", type=int, default=10, help="untimed steps before timing")
flags.add_argument("--num-batches-per-iter", type=int, default=10, help="steps in each timing")
flags.add_argument("--num-iters", type=int, default=10, help="number of timings")
flags.add_argument("--fp16-allreduce", action="store_true", help="exchange gradients as float16")
flags.add_argument("--no-cuda", action="store_true", help="train on the CPU")
flags.add_argument("--eager", action="store_true", help="run eagerly instead of in a graph")
options = flags.parse_args()
where = "CPU" if options.no_cuda else "GPU"

hvd.init()
config = tf.ConfigProto()
if options.no_cuda:
    os.environ["CUDA_VISIBLE_DEVICES"] = "-1"
    config.gpu_options.visible_device_list = ""
else:
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = str(hvd.local_rank())
if options.eager:
    tf.enable_eager_execution(config)


def say(line):
    if hvd.rank() == 0:
        print(line)


side = options.image_size
network = getattr(applications, options.model)(weights=None, input_shape=(side, side, 3),
                                               classes=options.num_classes)
images = tf.random_uniform([options.batch_size, side, side, 3])
classes = tf.random_uniform([options.batch_size, 1], minval=0, maxval=options.num_classes - 1, dtype=tf.int64)
optimizer = hvd.DistributedOptimizer(
    tf.train.GradientDescentOptimizer(0.01),
    compression=hvd.Compression.fp16 if options.fp16_allreduce else hvd.Compression.none)
initialise, broadcast = tf.global_variables_initializer(), hvd.broadcast_global_variables(0)


def loss():
    return tf.losses.sparse_softmax_cross_entropy(classes, network(images, training=True))


def measure(step):
    timeit.timeit(step, number=options.num_warmup_batches)
    rates = []
    for timing in range(options.num_iters):
        seconds = timeit.timeit(step, number=options.num_batches_per_iter)
        rates.append(options.batch_size * options.num_batches_per_iter / seconds)
        say("timing %d: %.1f images/s per %s" % (timing, rates[-1], where))
    mean, spread = np.mean(rates), 1.96 * np.std(rates)
    say("per %s: %.1f +- %.1f images/s" % (where, mean, spread))
    say("all %d %s workers: %.1f +- %.1f images/s" % (hvd.size(), where, hvd.size() * mean, hvd.size() * spread))


say("model %s, %d images a batch, %d %s worker(s)" % (options.model, options.batch_size, hvd.size(), where))
if tf.executing_eagerly():
    with tf.device(where):
        measure(lambda: optimizer.minimize(loss, var_list=network.trainable_variables))
else:
    with tf.Session(config=config) as session:
        initialise.run()
        broadcast.run()
        train = optimizer.minimize(loss())
        measure(lambda: session.run(train))
