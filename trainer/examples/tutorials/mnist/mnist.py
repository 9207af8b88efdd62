"""tensorflow.examples.tutorials.mnist.mnist: TF1's two-hidden-layer MNIST model that fully_connected_feed.py
builds (inference, loss, training, evaluation), with TF1's scope and variable names so checkpoints line up."""
import math

from ....framework import dtypes
from ....framework.graph_wrappers import name_scope
from ....losses.losses_impl import sparse_softmax_cross_entropy
from ....ops.array_ops import cast, to_int64, zeros
from ....ops.gather_ops import in_top_k
from ....ops.math_ops import matmul
from ....ops.nn_ops import relu
from ....ops.random_ops import truncated_normal
from ....ops.reduction_ops import reduce_sum
from ....ops.variables import Variable
from ....summary.ops import scalar
from ....train.gradient_descent import GradientDescentOptimizer

NUM_CLASSES = 10
IMAGE_SIZE = 28
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE


def _dense(inputs, fan_in, units):
    weights = Variable(truncated_normal([fan_in, units], stddev=1.0 / math.sqrt(float(fan_in))), name="weights")
    biases = Variable(zeros([units]), name="biases")
    return matmul(inputs, weights) + biases


def inference(images, hidden1_units, hidden2_units):
    """The logits of images [batch, IMAGE_PIXELS]: two ReLU layers (scopes hidden1, hidden2), then softmax_linear."""
    with name_scope("hidden1"):
        hidden1 = relu(_dense(images, IMAGE_PIXELS, hidden1_units))
    with name_scope("hidden2"):
        hidden2 = relu(_dense(hidden1, hidden1_units, hidden2_units))
    with name_scope("softmax_linear"):
        return _dense(hidden2, hidden2_units, NUM_CLASSES)


def loss(logits, labels):
    """The mean cross entropy of the logits against the integer labels."""
    return sparse_softmax_cross_entropy(labels=to_int64(labels), logits=logits)


def training(loss, learning_rate):  # noqa: F811 - TF1's argument name shadows loss()
    """A gradient descent step on `loss` that also counts the step (global_step) and summarizes the loss."""
    scalar("loss", loss)
    global_step = Variable(0, name="global_step", trainable=False)
    return GradientDescentOptimizer(learning_rate).minimize(loss, global_step=global_step)


def evaluation(logits, labels):
    """How many examples have their label as the top prediction (an int32 count)."""
    return reduce_sum(cast(in_top_k(logits, labels, 1), dtypes.int32))
