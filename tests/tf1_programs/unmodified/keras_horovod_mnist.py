"""An unmodified standalone-Keras + Horovod program in the style of Horovod's keras_mnist.py and
keras_mnist_advanced.py: `import keras` and `import horovod.keras as hvd`, the learning rate scaled by size,
DistributedOptimizer with fp16 compression, the broadcast, metric-average and warmup callbacks, checkpoints and
prints on rank 0 only, MNIST from Keras' cache.

The tests run it with `[mpiexec -n 2] python -m trainer.as_tensorflow --keras keras_horovod_mnist.py`.
"""
import math

import numpy as np
import keras
from keras import backend as K
from keras.datasets import mnist
from keras.layers import Conv2D, Dense, Dropout, Flatten, MaxPooling2D
from keras.models import Sequential
import tensorflow as tf
import horovod.keras as hvd
from horovod.tensorflow.compression import Compression

hvd.init()
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
K.set_session(tf.Session(config=config))
np.random.seed(1234)  # fit's shuffling
tf.set_random_seed(1234)  # the initial weights and dropout: one outcome per run

batch_size, num_classes = 32, 10
epochs = int(math.ceil(4.0 / hvd.size()))
(x_train, y_train), (x_test, y_test) = mnist.load_data()
x_train = x_train.reshape(x_train.shape[0], 28, 28, 1).astype("float32") / 255
x_test = x_test.reshape(x_test.shape[0], 28, 28, 1).astype("float32") / 255
y_train = keras.utils.to_categorical(y_train, num_classes)
y_test = keras.utils.to_categorical(y_test, num_classes)
# each rank trains on its own shard, as the advanced example samples 1 / N of the batches
x_train, y_train = x_train[hvd.rank()::hvd.size()], y_train[hvd.rank()::hvd.size()]

model = Sequential()
model.add(Conv2D(8, kernel_size=(3, 3), activation="relu", input_shape=(28, 28, 1)))
model.add(MaxPooling2D(pool_size=(2, 2)))
model.add(Dropout(0.25))
model.add(Flatten())
model.add(Dense(32, activation="relu"))
model.add(Dense(num_classes, activation="softmax"))

opt = keras.optimizers.Adadelta(lr=1.0 * hvd.size())
opt = hvd.DistributedOptimizer(opt, compression=Compression.fp16)
model.compile(loss=keras.losses.categorical_crossentropy, optimizer=opt, metrics=["accuracy"])

callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(0),
             hvd.callbacks.MetricAverageCallback(),
             hvd.callbacks.LRWarmupCallback(warmup_epochs=1, verbose=1 if hvd.rank() == 0 else 0),
             keras.callbacks.ReduceLROnPlateau(patience=3, verbose=1)]
if hvd.rank() == 0:
    callbacks.append(keras.callbacks.ModelCheckpoint("./checkpoint-{epoch}.h5"))

history = model.fit(x_train, y_train, batch_size=batch_size, callbacks=callbacks, epochs=epochs,
                    verbose=2 if hvd.rank() == 0 else 0, validation_data=(x_test, y_test))
score = model.evaluate(x_test, y_test, verbose=0)
weights = hvd.allgather(model.get_weights()[-1][None])  # every rank's output bias, to show they agree
if hvd.rank() == 0:
    print("Test loss:", score[0])
    print("Test accuracy:", score[1])
    print("ranks agree:", bool((weights == weights[0]).all()), "lr:", history.history["lr"][-1])
