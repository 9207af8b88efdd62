"""tf.keras.applications: Keras 2.2.4-tf's ImageNet models with their layer names and weights, each module with
its preprocess_input and decode_predictions. weights='imagenet' reads Keras' HDF5 file from ~/.keras/models
(h5py needed; nothing is downloaded); weights=None builds them untrained."""
from ...unsupported import missing_names
from . import (densenet, imagenet_utils, inception_resnet_v2, inception_v3, mobilenet, mobilenet_v2, nasnet,
               resnet, resnet50, resnet_v2, vgg, xception)
from .densenet import DenseNet121, DenseNet169, DenseNet201
from .inception_resnet_v2 import InceptionResNetV2
from .inception_v3 import InceptionV3
from .mobilenet import MobileNet
from .mobilenet_v2 import MobileNetV2
from .nasnet import NASNetLarge, NASNetMobile
from .resnet import ResNet101, ResNet152
from .resnet50 import ResNet50
from .resnet_v2 import ResNet50V2, ResNet101V2, ResNet152V2
from .vgg import VGG16, VGG19
from .xception import Xception

vgg16 = vgg19 = vgg  # Keras' module names: both models' preprocess_input and decode_predictions are the same

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "InceptionResNetV2", "InceptionV3", "MobileNet",
           "MobileNetV2", "NASNetLarge", "NASNetMobile", "ResNet50", "ResNet101", "ResNet152", "ResNet50V2",
           "ResNet101V2", "ResNet152V2", "VGG16", "VGG19", "Xception", "densenet", "imagenet_utils",
           "inception_resnet_v2", "inception_v3", "mobilenet", "mobilenet_v2", "nasnet", "resnet", "resnet50",
           "resnet_v2", "vgg16", "vgg19", "xception"]

__getattr__ = missing_names(__name__, have="tf.keras.applications has ResNet50/101/152, ResNet50V2/101V2/152V2, "
                            "Xception, InceptionResNetV2, NASNetMobile/Large, VGG16, VGG19, MobileNet, MobileNetV2, "
                            "InceptionV3 and DenseNet121/169/201")
