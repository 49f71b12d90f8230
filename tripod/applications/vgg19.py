"""VGG19 (Simonyan & Zisserman, 2014), as `keras.applications.vgg19` builds it: VGG16 with a
fourth convolution in each of the last three blocks. Arguments as in
`tripod.applications.vgg16`; inputs are preprocessed with `preprocess_input` ("caffe")."""

from tripod.applications.vgg16 import build_vgg, decode_predictions, preprocess_input

WEIGHTS_PATH = (
    "https://storage.googleapis.com/tensorflow/keras-applications/"
    "vgg19/vgg19_weights_tf_dim_ordering_tf_kernels.h5"
)
WEIGHTS_PATH_NO_TOP = (
    "https://storage.googleapis.com/tensorflow/keras-applications/"
    "vgg19/vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5"
)
#: md5 of Keras's published files: (with the top classifier, without it)
WEIGHTS_HASHES = ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")
_WEIGHTS_FILES = ((WEIGHTS_PATH, WEIGHTS_HASHES[0]), (WEIGHTS_PATH_NO_TOP, WEIGHTS_HASHES[1]))

__all__ = ["VGG19", "decode_predictions", "preprocess_input"]


def VGG19(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="vgg19",
):
    """VGG19 (16 convolutions in blocks of 2, 2, 4, 4, 4; 144M parameters with the top)."""
    return build_vgg((2, 2, 4, 4, 4), _WEIGHTS_FILES, **locals())
