"""tf.keras.applications: Keras 2.2.4-tf's ImageNet models with their layer names and weights, each module with
its preprocess_input and decode_predictions. weights='imagenet' reads Keras' HDF5 file from ~/.keras/models
(h5py needed; nothing is downloaded); weights=None builds them untrained."""
from ...unsupported import missing_names
from . import densenet, imagenet_utils, inception_v3, mobilenet, mobilenet_v2, resnet50, vgg
from .densenet import DenseNet121, DenseNet169, DenseNet201
from .inception_v3 import InceptionV3
from .mobilenet import MobileNet
from .mobilenet_v2 import MobileNetV2
from .resnet50 import ResNet50
from .vgg import VGG16, VGG19

vgg16 = vgg19 = vgg  # Keras' module names: both models' preprocess_input and decode_predictions are the same

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "InceptionV3", "MobileNet", "MobileNetV2", "ResNet50",
           "VGG16", "VGG19", "densenet", "imagenet_utils", "inception_v3", "mobilenet", "mobilenet_v2", "resnet50",
           "vgg16", "vgg19"]

__getattr__ = missing_names(__name__, have="tf.keras.applications has ResNet50, VGG16, VGG19, MobileNet, "
                            "MobileNetV2, InceptionV3 and DenseNet121/169/201")
