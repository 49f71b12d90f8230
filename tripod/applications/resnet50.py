"""`keras.applications.resnet50`: ResNet50 with its preprocessing and decoding, under the module
name Keras 2 gave them (the same objects as in `tripod.applications.resnet`)."""

from tripod.applications.resnet import ResNet50, decode_predictions, preprocess_input

__all__ = ["ResNet50", "decode_predictions", "preprocess_input"]
