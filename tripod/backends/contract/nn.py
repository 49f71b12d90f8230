"""Neural-network ops: activations, convolution, pooling, normalization, losses."""

# ruff: noqa: A001, A002


def adaptive_average_pool(inputs, output_size, data_format=None):
    """DOC"""


def adaptive_max_pool(inputs, output_size, data_format=None):
    """DOC"""


def average_pool(inputs, pool_size, strides=None, padding='valid', data_format=None):
    """DOC"""


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    """DOC"""


def binary_crossentropy(target, output, from_logits=False):
    """DOC"""


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """DOC"""


def celu(x, alpha=1.0):
    """DOC"""


def conv(inputs, kernel, strides=1, padding='valid', data_format=None, dilation_rate=1):
    """DOC"""


def conv_transpose(inputs, kernel, strides=1, padding='valid', output_padding=None, data_format=None, dilation_rate=1):
    """DOC"""


def ctc_decode(inputs, sequence_lengths, strategy='greedy', beam_width=100, top_paths=1, merge_repeated=True, mask_index=0):
    """DOC"""


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """DOC"""


def depth_to_space(x, block_size, data_format='channels_last'):
    """DOC"""


def depthwise_conv(inputs, kernel, strides=1, padding='valid', data_format=None, dilation_rate=1):
    """DOC"""


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False, flash_attention=None, attn_logits_soft_cap=None):
    """DOC"""


def elu(x, alpha=1.0):
    """DOC"""


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """DOC"""


def gelu(x, approximate=True):
    """DOC"""


def glu(x, axis=-1):
    """DOC"""


def hard_shrink(x, threshold=0.5):
    """DOC"""


def hard_sigmoid(x):
    """DOC"""


def hard_silu(x):
    """DOC"""


def hard_swish(x):
    """DOC"""


def hard_tanh(x):
    """DOC"""


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """DOC"""


def leaky_relu(x, negative_slope=0.2):
    """DOC"""


def log_sigmoid(x):
    """DOC"""


def log_softmax(x, axis=-1):
    """DOC"""


def max_pool(inputs, pool_size, strides=None, padding='valid', data_format=None):
    """DOC"""


def moments(x, axes, keepdims=False, synchronized=False):
    """DOC"""


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """DOC"""


def normalize(x, axis=-1, order=2, epsilon=None):
    """DOC"""


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """DOC"""


def polar(abs_, angle):
    """DOC"""


def psnr(x1, x2, max_val):
    """DOC"""


def relu(x):
    """DOC"""


def relu6(x):
    """DOC"""


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """DOC"""


def selu(x):
    """DOC"""


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding='valid', data_format=None, dilation_rate=1):
    """DOC"""


def sigmoid(x):
    """DOC"""


def silu(x):
    """DOC"""


def soft_shrink(x, threshold=0.5):
    """DOC"""


def softmax(x, axis=-1):
    """DOC"""


def softplus(x):
    """DOC"""


def softsign(x):
    """DOC"""


def space_to_depth(x, block_size, data_format='channels_last'):
    """DOC"""


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """DOC"""


def sparse_plus(x):
    """DOC"""


def sparse_sigmoid(x):
    """DOC"""


def sparsemax(x, axis=-1):
    """DOC"""


def squareplus(x, b=4):
    """DOC"""


def swish(x):
    """DOC"""


def tanh_shrink(x):
    """DOC"""


def threshold(x, threshold, default_value):
    """DOC"""


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """DOC"""
