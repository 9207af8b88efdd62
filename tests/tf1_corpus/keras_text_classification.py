# Mirrors tensorflow/docs site/en/r1/tutorials/keras/basic_text_classification.ipynb (TF 1.x, "Text classification with movie reviews"): 25000 -> 4000 reviews
"""Changed from the original: the reviews come from corpus_data.imdb_like (keras.datasets.imdb's layout, a
synthetic vocabulary) instead of the IMDB download, with 4000 training and 1000 test reviews, 1000 of them held
out for validation; the word index and decode_review parts are left out (there are no words). Run with
`lstm` as its argument, the model's average pooling is replaced by Embedding(mask_zero=True) + LSTM(16) over
reviews cut to 64 words, the tutorial's suggested recurrent variant."""
from __future__ import absolute_import, division, print_function

import sys

import tensorflow as tf
from tensorflow import keras

import numpy as np

import corpus_data

print(tf.__version__)
np.random.seed(0)
tf.set_random_seed(0)

(train_data, train_labels), (test_data, test_labels) = corpus_data.imdb_like(num_words=10000)

print("Training entries: {}, labels: {}".format(len(train_data), len(train_labels)))
print(train_data[0][:10])
print(len(train_data[0]), len(train_data[1]))

lstm = len(sys.argv) > 1 and sys.argv[1] == "lstm"
maxlen = 64 if lstm else 256

train_data = keras.preprocessing.sequence.pad_sequences(train_data,
                                                        value=0,
                                                        padding='post',
                                                        maxlen=maxlen)

test_data = keras.preprocessing.sequence.pad_sequences(test_data,
                                                       value=0,
                                                       padding='post',
                                                       maxlen=maxlen)

print(len(train_data[0]), len(train_data[1]))

# input shape is the vocabulary count used for the movie reviews (10,000 words)
vocab_size = 10000

model = keras.Sequential()
if lstm:
    model.add(keras.layers.Embedding(vocab_size, 16, mask_zero=True))
    model.add(keras.layers.LSTM(16))
else:
    model.add(keras.layers.Embedding(vocab_size, 16))
    model.add(keras.layers.GlobalAveragePooling1D())
model.add(keras.layers.Dense(16, activation=tf.nn.relu))
model.add(keras.layers.Dense(1, activation=tf.nn.sigmoid))

model.compile(optimizer=tf.train.AdamOptimizer(),
              loss='binary_crossentropy',
              metrics=['accuracy'])

x_val = train_data[:1000]
partial_x_train = train_data[1000:]

y_val = train_labels[:1000]
partial_y_train = train_labels[1000:]

history = model.fit(partial_x_train,
                    partial_y_train,
                    epochs=40 if not lstm else 5,
                    batch_size=512 if not lstm else 64,
                    validation_data=(x_val, y_val),
                    verbose=2)

model.summary()

results = model.evaluate(test_data, test_labels, verbose=0)

print(results)

history_dict = history.history
print(sorted(history_dict.keys()))
print("final val_acc: {:.4f}".format(history_dict['val_acc'][-1]))
