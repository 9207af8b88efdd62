"""tf.keras as a TF 1.13-1.15 user first meets it: a Sequential classifier of 28x28 grey images loaded with
keras.datasets.fashion_mnist, scaled to [0, 1], fitted with the default progress bar, evaluated, and asked for
the class of one image (expanded to a batch of one). The test checks the printed shapes, the progress bar's
lines, the accuracies, and that the predicted class printed for the first test image is an argmax."""
import numpy as np
import tensorflow as tf
from tensorflow import keras

print("running on", tf.__version__)

(images, labels), (held_images, held_labels) = keras.datasets.fashion_mnist.load_data()
print("train", images.shape, "labels", len(labels))
print("test", held_images.shape)
images, held_images = images / 255.0, held_images / 255.0

classifier = keras.Sequential()
classifier.add(keras.layers.Flatten(input_shape=(28, 28)))
classifier.add(keras.layers.Dense(96, activation=tf.nn.relu))
classifier.add(keras.layers.Dense(10, activation=tf.nn.softmax))
classifier.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

classifier.fit(images, labels, epochs=3)
_, held_accuracy = classifier.evaluate(held_images, held_labels)
print("held-out accuracy:", held_accuracy)

scores = classifier.predict(held_images)
print("scores per image:", scores.shape)
print("first image's class:", np.argmax(scores[0]), "label:", held_labels[0])

one = held_images[0]
batch_of_one = np.expand_dims(one, 0)
print("one image", one.shape, "as a batch", batch_of_one.shape)
print("its class again:", np.argmax(classifier.predict(batch_of_one)[0]))
