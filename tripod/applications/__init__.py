"""Keras 3's image-classification applications (ResNet, MobileNet, EfficientNet, ...): the same
names, signatures and layer names, built from tripod layers, loading Keras's published weights
(`weights="imagenet"`, fetched once into `~/.keras/models`) or a local file."""

from tripod.applications import (
    convnext,
    densenet,
    efficientnet,
    efficientnet_v2,
    imagenet_utils,
    inception_resnet_v2,
    inception_v3,
    mobilenet,
    mobilenet_v2,
    mobilenet_v3,
    nasnet,
    resnet,
    resnet50,
    resnet_v2,
    vgg16,
    vgg19,
    xception,
)
from tripod.applications.convnext import (
    ConvNeXtBase,
    ConvNeXtLarge,
    ConvNeXtSmall,
    ConvNeXtTiny,
    ConvNeXtXLarge,
)
from tripod.applications.densenet import DenseNet121, DenseNet169, DenseNet201
from tripod.applications.efficientnet import (
    EfficientNetB0,
    EfficientNetB1,
    EfficientNetB2,
    EfficientNetB3,
    EfficientNetB4,
    EfficientNetB5,
    EfficientNetB6,
    EfficientNetB7,
)
from tripod.applications.efficientnet_v2 import (
    EfficientNetV2B0,
    EfficientNetV2B1,
    EfficientNetV2B2,
    EfficientNetV2B3,
    EfficientNetV2L,
    EfficientNetV2M,
    EfficientNetV2S,
)
from tripod.applications.inception_resnet_v2 import InceptionResNetV2
from tripod.applications.inception_v3 import InceptionV3
from tripod.applications.mobilenet import MobileNet
from tripod.applications.mobilenet_v2 import MobileNetV2
from tripod.applications.mobilenet_v3 import MobileNetV3Large, MobileNetV3Small
from tripod.applications.nasnet import NASNetLarge, NASNetMobile
from tripod.applications.resnet import ResNet50, ResNet101, ResNet152
from tripod.applications.resnet_v2 import ResNet50V2, ResNet101V2, ResNet152V2
from tripod.applications.vgg16 import VGG16
from tripod.applications.vgg19 import VGG19
from tripod.applications.xception import Xception

__all__ = [
    "VGG16",
    "VGG19",
    "ConvNeXtBase",
    "ConvNeXtLarge",
    "ConvNeXtSmall",
    "ConvNeXtTiny",
    "ConvNeXtXLarge",
    "DenseNet121",
    "DenseNet169",
    "DenseNet201",
    "EfficientNetB0",
    "EfficientNetB1",
    "EfficientNetB2",
    "EfficientNetB3",
    "EfficientNetB4",
    "EfficientNetB5",
    "EfficientNetB6",
    "EfficientNetB7",
    "EfficientNetV2B0",
    "EfficientNetV2B1",
    "EfficientNetV2B2",
    "EfficientNetV2B3",
    "EfficientNetV2L",
    "EfficientNetV2M",
    "EfficientNetV2S",
    "InceptionResNetV2",
    "InceptionV3",
    "MobileNet",
    "MobileNetV2",
    "MobileNetV3Large",
    "MobileNetV3Small",
    "NASNetLarge",
    "NASNetMobile",
    "ResNet50",
    "ResNet50V2",
    "ResNet101",
    "ResNet101V2",
    "ResNet152",
    "ResNet152V2",
    "Xception",
    "convnext",
    "densenet",
    "efficientnet",
    "efficientnet_v2",
    "imagenet_utils",
    "inception_resnet_v2",
    "inception_v3",
    "mobilenet",
    "mobilenet_v2",
    "mobilenet_v3",
    "nasnet",
    "resnet",
    "resnet50",
    "resnet_v2",
    "vgg16",
    "vgg19",
    "xception",
]
