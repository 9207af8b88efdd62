"""Saving and restoring a tf.keras model every way TF 1.15's Keras offers: ModelCheckpoint writing weights in TF's
checkpoint format (one fixed path, then a path templated with the epoch and written every other epoch),
load_weights into a freshly built model, tf.train.latest_checkpoint over the callback's directory, save_weights to
a plain prefix, the whole model to HDF5 with keras.models.load_model, and a SavedModel directory. Each restore is
evaluated next to an untrained model's accuracy."""
import os
import time

import tensorflow.compat.v1 as tf
from tensorflow import keras

(x, y), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
x, y = x[:1000].reshape(-1, 784) / 255.0, y[:1000]
x_test, y_test = x_test[:1000].reshape(-1, 784) / 255.0, y_test[:1000]


def build():
    net = keras.models.Sequential([keras.layers.Dense(256, activation="relu", input_shape=(784,)),
                                   keras.layers.Dropout(0.2),
                                   keras.layers.Dense(10, activation="softmax")])
    net.compile(optimizer=keras.optimizers.Adam(), loss=keras.losses.sparse_categorical_crossentropy,
                metrics=["accuracy"])
    return net


def report(net, what):
    print("{}: accuracy {:5.2f}%".format(what, 100 * net.evaluate(x_test, y_test, verbose=0)[1]))


build().summary()
report(build(), "untrained")

every_epoch = keras.callbacks.ModelCheckpoint("weights_a/w.ckpt", save_weights_only=True, verbose=1)
build().fit(x, y, epochs=2, validation_data=(x_test, y_test), callbacks=[every_epoch])
net = build()
net.load_weights("weights_a/w.ckpt")
report(net, "restored from weights_a")

template = "weights_b/w-{epoch:04d}.ckpt"
net = build()
net.save_weights(template.format(epoch=0))
net.fit(x, y, epochs=6, verbose=0, validation_data=(x_test, y_test),
        callbacks=[keras.callbacks.ModelCheckpoint(template, save_weights_only=True, verbose=1, period=2)])
newest = tf.train.latest_checkpoint(os.path.dirname(template))
print("newest:", newest)
net = build()
net.load_weights(newest)
report(net, "restored from the newest")

net.save_weights("./plain/prefix")
again = build()
again.load_weights("./plain/prefix")
report(again, "restored from a plain prefix")

net.save("whole.h5")
loaded = keras.models.load_model("whole.h5")
loaded.summary()
report(loaded, "restored from HDF5")

exported = os.path.join("exports", str(int(time.time())))
net.save(exported, save_format="tf")
served = tf.keras.models.load_model(exported)
served.compile(optimizer=keras.optimizers.Adam(), loss=keras.losses.sparse_categorical_crossentropy,
               metrics=["accuracy"])
report(served, "restored from a SavedModel")
