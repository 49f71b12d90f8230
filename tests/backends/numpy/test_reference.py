"""The numpy reference backend against hand-computed values and independent computations.

Only `tripod.backends.load("numpy")` is used, so these tests run whatever backend is active.
"""

import itertools
import math

import numpy as np
import pytest

from tripod.backends import load

np_ops = load("numpy")
rng = np.random.default_rng(7)


def randn(*shape):
    return rng.standard_normal(shape).astype("float32")


# -- convolution ---------------------------------------------------------------------------------
def same_pads(size, kernel, stride, dilation):
    """TensorFlow's 'same' rule: output ceil(size / stride), extra padding after."""
    span = (kernel - 1) * dilation + 1
    total = max((math.ceil(size / stride) - 1) * stride + span - size, 0)
    return total // 2, total - total // 2


def direct_conv(x, kernel, strides, padding, dilation):
    """Grouped convolution of channels_last `x` by nested loops over outputs and kernel taps."""
    rank = x.ndim - 2
    if padding == "same":
        pads = [
            same_pads(x.shape[i + 1], kernel.shape[i], strides[i], dilation[i]) for i in range(rank)
        ]
    else:
        pads = [(0, 0)] * rank
    x = np.pad(x.astype(np.float64), [(0, 0), *pads, (0, 0)])
    cin_g, cout = kernel.shape[-2:]
    groups = x.shape[-1] // cin_g
    cout_g = cout // groups
    spans = [(kernel.shape[i] - 1) * dilation[i] + 1 for i in range(rank)]
    out_shape = [(x.shape[i + 1] - spans[i]) // strides[i] + 1 for i in range(rank)]
    out = np.zeros((x.shape[0], *out_shape, cout))
    for o in np.ndindex(*out_shape):
        for t in np.ndindex(*kernel.shape[:rank]):
            pos = tuple(o[i] * strides[i] + t[i] * dilation[i] for i in range(rank))
            patch = x[(slice(None), *pos)]
            for g in range(groups):
                w = kernel[t][:, g * cout_g : (g + 1) * cout_g]
                out[(slice(None), *o, slice(g * cout_g, (g + 1) * cout_g))] += (
                    patch[:, g * cin_g : (g + 1) * cin_g] @ w
                )
    return out


CONV_CASES = [
    # input shape (channels_last), kernel shape, strides, padding, dilation
    ((2, 7, 3), (3, 3, 4), (1,), "valid", (1,)),
    ((2, 8, 3), (4, 3, 2), (3,), "same", (1,)),
    ((1, 9, 2), (3, 2, 2), (1,), "same", (2,)),
    ((2, 6, 5, 3), (3, 2, 3, 4), (2, 1), "same", (1, 1)),
    ((1, 7, 6, 2), (2, 3, 2, 3), (1, 2), "valid", (2, 1)),
    ((1, 6, 6, 4), (3, 3, 2, 4), (1, 1), "same", (1, 1)),  # 2 groups
    ((1, 4, 5, 3, 2), (2, 3, 2, 2, 3), (1, 2, 1), "same", (1, 1, 2)),
]


@pytest.mark.parametrize("x_shape, k_shape, strides, padding, dilation", CONV_CASES)
def test_conv_matches_nested_loops(x_shape, k_shape, strides, padding, dilation):
    x, kernel = randn(*x_shape), randn(*k_shape)
    expected = direct_conv(x, kernel, strides, padding, dilation)
    got = np_ops.conv(x, kernel, strides, padding, "channels_last", dilation)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_conv_channels_first_is_a_transposed_channels_last():
    x, kernel = randn(2, 3, 7, 6), randn(3, 3, 3, 5)
    got = np_ops.conv(x, kernel, 2, "same", "channels_first")
    expected = np_ops.conv(np.moveaxis(x, 1, -1), kernel, 2, "same", "channels_last")
    np.testing.assert_allclose(got, np.moveaxis(expected, -1, 1), rtol=1e-6, atol=1e-6)


def test_depthwise_and_separable_conv():
    x, depthwise = randn(2, 6, 5, 3), randn(3, 3, 3, 2)
    pointwise = randn(1, 1, 6, 4)
    # channel c with multiplier m is output channel c * 2 + m: a conv with 3 groups
    grouped = depthwise.reshape(3, 3, 1, 6)
    expected = direct_conv(x, grouped, (1, 1), "same", (1, 1))
    got = np_ops.depthwise_conv(x, depthwise, 1, "same", "channels_last")
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    separable = np_ops.separable_conv(x, depthwise, pointwise, 1, "same", "channels_last")
    np.testing.assert_allclose(separable, expected @ pointwise[0, 0], rtol=1e-5, atol=1e-5)


# (padding, kernel, stride, output_padding) -> (output length, crop) for an input of length 4:
# the transposed conv writes kernel tap t of input i at position i * stride + t - crop.
TRANSPOSE_LAYOUT = [
    ("valid", 3, 2, None, 9, 0),
    ("valid", 2, 3, None, 12, 0),
    ("valid", 4, 3, 1, 14, 0),
    ("same", 3, 1, None, 4, 1),
    ("same", 3, 2, None, 8, 0),
    ("same", 4, 2, None, 8, 1),
    ("same", 5, 3, None, 12, 1),
    ("same", 2, 1, 0, 3, 1),
    ("same", 4, 2, 1, 7, 1),
]


@pytest.mark.parametrize("padding, k, s, op, length, crop", TRANSPOSE_LAYOUT)
def test_conv_transpose_layout_matches_keras(padding, k, s, op, length, crop):
    x, kernel = randn(1, 4, 2), randn(k, 3, 2)
    got = np_ops.conv_transpose(x, kernel, s, padding, op, "channels_last")
    full = np.zeros((1, 3 * s + k + 8, 3))
    for i, t in itertools.product(range(4), range(k)):
        full[:, i * s + t] += x[:, i] @ kernel[t].T
    np.testing.assert_allclose(got, full[:, crop : crop + length], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize(
    "strides, dilation", [((2, 1), (1, 1)), ((1, 1), (2, 1)), ((3, 2), (1, 1))]
)
def test_conv_transpose_is_the_adjoint_of_conv(padding, strides, dilation):
    """<conv(y, K), x> == <y, conv_transpose(x, K)> whenever the shapes line up."""
    x, kernel = randn(2, 4, 5, 3), randn(3, 3, 2, 3)
    y_t = np_ops.conv_transpose(x, kernel, strides, padding, None, "channels_last", dilation)
    y = randn(*y_t.shape)
    conv_y = np_ops.conv(y, kernel, strides, padding, "channels_last", dilation)
    if conv_y.shape != x.shape:
        pytest.skip("conv of the transposed output does not map back to the input shape")
    np.testing.assert_allclose(np.sum(conv_y * x), np.sum(y * y_t), rtol=1e-4)


# -- pooling -------------------------------------------------------------------------------------
def test_max_and_average_pool_by_hand():
    x = np.arange(1, 6, dtype="float32").reshape(1, 5, 1)
    np.testing.assert_array_equal(np_ops.max_pool(x, 2, 2, "valid")[0, :, 0], [2, 4])
    np.testing.assert_array_equal(np_ops.max_pool(-x, 3, 2, "same")[0, :, 0], [-1, -2, -4])
    np.testing.assert_allclose(np_ops.average_pool(x, 2, 2, "same")[0, :, 0], [1.5, 3.5, 5])
    # 'same' padding is left out of the average: the last window holds only 4 and 5
    np.testing.assert_allclose(np_ops.average_pool(x, 3, 2, "same")[0, :, 0], [1.5, 3, 4.5])


def test_pool_2d_matches_loops():
    x = randn(2, 7, 6, 3)
    got_max = np_ops.max_pool(x, (3, 2), (2, 1), "valid")
    got_avg = np_ops.average_pool(x, (3, 2), (2, 1), "valid")
    for i, j in np.ndindex(*got_max.shape[1:3]):
        window = x[:, 2 * i : 2 * i + 3, j : j + 2]
        np.testing.assert_allclose(got_max[:, i, j], window.max(axis=(1, 2)))
        np.testing.assert_allclose(got_avg[:, i, j], window.mean(axis=(1, 2)), rtol=1e-6)


def test_adaptive_pools_use_overlapping_windows():
    x = np.arange(7, dtype="float32").reshape(1, 7, 1, 1)
    avg = np_ops.adaptive_average_pool(x, (4, 1))[0, :, 0, 0]
    top = np_ops.adaptive_max_pool(x, (4, 1))[0, :, 0, 0]
    # windows [0, 2), [1, 4), [3, 6), [5, 7)
    np.testing.assert_allclose(avg, [0.5, 2.0, 4.0, 5.5])
    np.testing.assert_array_equal(top, [1, 3, 5, 6])


# -- CTC -----------------------------------------------------------------------------------------
def log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def collapse(path, blank=0):
    out = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
    return tuple(c for c in out if c != blank)


def labelling_log_probs(logits, blank=0):
    """log p(labelling) for every labelling, by enumerating every alignment."""
    lp = log_softmax(logits.astype(np.float64))
    totals = {}
    for path in itertools.product(range(lp.shape[1]), repeat=lp.shape[0]):
        label = collapse(path, blank)
        totals[label] = np.logaddexp(
            totals.get(label, -np.inf), sum(lp[t, c] for t, c in enumerate(path))
        )
    return totals


def test_ctc_loss_two_steps_by_hand():
    logits = np.array([[[0.0, 1.0], [2.0, 0.5]]], dtype="float32")
    p = np.exp(log_softmax(logits[0].astype(np.float64)))
    # alignments of label [1] over 2 steps: (1, 1), (0, 1), (1, 0)
    expected = -np.log(p[0, 1] * p[1, 1] + p[0, 0] * p[1, 1] + p[0, 1] * p[1, 0])
    got = np_ops.ctc_loss(np.array([[1]]), logits, np.array([1]), np.array([2]))
    np.testing.assert_allclose(got, [expected], rtol=1e-6)


@pytest.mark.parametrize("blank", [0, 2])
def test_ctc_loss_matches_alignment_enumeration(blank):
    logits = randn(2, 5, 3)
    target = np.array([[1, 1, 0], [2 - blank // 2, 0, 0]])  # 2nd: a single non-blank label
    target_length, output_length = np.array([2, 1]), np.array([5, 4])
    got = np_ops.ctc_loss(target, logits, target_length, output_length, mask_index=blank)
    for b in range(2):
        table = labelling_log_probs(logits[b, : output_length[b]], blank)
        label = tuple(int(c) for c in target[b, : target_length[b]])
        np.testing.assert_allclose(got[b], -table[label], rtol=1e-5)


def test_ctc_decode_greedy_by_hand():
    best = [[2, 2, 0, 2, 1, 1], [1, 0, 1, 1, 3, 3]]
    logits = np.zeros((2, 6, 4), "float32")
    for b, t in np.ndindex(2, 6):
        logits[b, t, best[b][t]] = 1.0 + t
    decoded, scores = np_ops.ctc_decode(logits, np.array([6, 4]), "greedy")
    assert decoded.dtype == np.int32 and decoded.shape == (1, 2, 6)
    np.testing.assert_array_equal(decoded[0], [[2, 2, 1, -1, -1, -1], [1, 1, -1, -1, -1, -1]])
    np.testing.assert_allclose(scores, [[-21.0], [-10.0]])
    unmerged, _ = np_ops.ctc_decode(logits, np.array([6, 4]), "greedy", merge_repeated=False)
    np.testing.assert_array_equal(unmerged[0, 0], [2, 2, 2, 1, 1, -1])


def test_ctc_decode_beam_search_is_exact_with_a_wide_beam():
    logits = randn(1, 4, 3) * 2
    decoded, scores = np_ops.ctc_decode(
        logits, np.array([4]), "beam_search", beam_width=100, top_paths=3
    )
    table = sorted(labelling_log_probs(logits[0]).items(), key=lambda item: -item[1])[:3]
    for i, (label, log_p) in enumerate(table):
        assert tuple(c for c in decoded[i, 0] if c >= 0) == label
        np.testing.assert_allclose(scores[0, i], log_p, rtol=1e-5)


# -- attention -----------------------------------------------------------------------------------
def explicit_attention(q, k, v, mask=None, scale=None):
    """softmax(Q K^T * scale) V per batch and head, with masked logits removed."""
    out = np.zeros(q.shape)
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    group = q.shape[2] // k.shape[2]
    for b, n in np.ndindex(q.shape[0], q.shape[2]):
        logits = q[b, :, n].astype(np.float64) @ k[b, :, n // group].T * scale
        if mask is not None:
            logits = np.where(mask[b, n], logits, -np.inf)
        weights = np.exp(logits - logits.max(-1, keepdims=True))
        out[b, :, n] = weights / weights.sum(-1, keepdims=True) @ v[b, :, n // group]
    return out


def test_dot_product_attention_plain_and_grouped():
    q, k, v = randn(2, 4, 6, 8), randn(2, 5, 3, 8), randn(2, 5, 3, 8)
    np.testing.assert_allclose(
        np_ops.dot_product_attention(q, k, v), explicit_attention(q, k, v), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(
        np_ops.dot_product_attention(q, k, v, scale=0.3),
        explicit_attention(q, k, v, scale=0.3),
        rtol=1e-5,
        atol=1e-6,
    )


def test_dot_product_attention_mask_bias_and_causal():
    q, k, v = randn(2, 4, 3, 8), randn(2, 4, 3, 8), randn(2, 4, 3, 8)
    mask = rng.random((2, 1, 4, 4)) > 0.3
    mask[..., 0] = True  # every query keeps one key
    causal = np.tril(np.ones((4, 4), bool))
    full = np.broadcast_to(mask & causal, (2, 3, 4, 4))
    got = np_ops.dot_product_attention(q, k, v, mask=mask, is_causal=True)
    np.testing.assert_allclose(got, explicit_attention(q, k, v, full), rtol=1e-5, atol=1e-6)
    # a bias of -inf where the mask is False acts like the mask
    bias = np.where(mask, 0.0, -1e9).astype("float32")
    got_bias = np_ops.dot_product_attention(q, k, v, bias=bias)
    np.testing.assert_allclose(
        got_bias,
        explicit_attention(q, k, v, np.broadcast_to(mask, (2, 3, 4, 4))),
        rtol=1e-5,
        atol=1e-6,
    )


# -- image resizing ------------------------------------------------------------------------------
def resize_1d(values, size, method, antialias=False):
    image = np.asarray(values, "float32").reshape(1, -1, 1, 1)
    return np_ops.resize(image, (size, 1), method, antialias)[0, :, 0, 0]


def test_resize_tiny_images_by_hand():
    np.testing.assert_allclose(resize_1d([0, 1], 4, "bilinear"), [0, 0.25, 0.75, 1])
    np.testing.assert_allclose(resize_1d([0, 2, 4, 8], 2, "bilinear"), [1, 6])
    np.testing.assert_array_equal(resize_1d([1, 2, 3], 6, "nearest"), [1, 1, 2, 2, 3, 3])
    np.testing.assert_array_equal(resize_1d([1, 2, 3, 4, 5, 6], 3, "nearest"), [2, 4, 6])
    np.testing.assert_allclose(resize_1d([0, 2, 4, 8], 2, "area"), [1, 6])
    # antialiased 4 -> 2: the triangle kernel doubles in width; the first output samples
    # x = 0.5 with distances (0.5, 0.5, 1.5, 2.5) / 2 -> weights (3, 3, 1, 0) / 7, the second
    # x = 2.5 -> weights (0, 1, 3, 3) / 7
    np.testing.assert_allclose(
        resize_1d([0, 2, 4, 8], 2, "bilinear", True), [10 / 7, 38 / 7], rtol=1e-6
    )
    # Keys' cubic (a = -0.5) at an exact pixel centre is the pixel itself
    np.testing.assert_allclose(resize_1d([1, 5, 2], 3, "bicubic"), [1, 5, 2], atol=1e-6)


def test_resize_integer_images_round_and_clip():
    image = np.array([0, 255, 0, 255], "uint8").reshape(1, 4, 1, 1)
    up = np_ops.resize(image, (8, 1), "bicubic")
    assert up.dtype == np.uint8
    floats = np_ops.resize(image.astype("float32"), (8, 1), "bicubic")
    np.testing.assert_array_equal(up, np.clip(np.round(floats), 0, 255))


def test_resize_crop_and_pad_to_aspect_ratio():
    image = np.arange(35, dtype="float32").reshape(1, 7, 5, 1)
    cropped = np_ops.resize(image, (3, 5), "nearest", crop_to_aspect_ratio=True)
    # the centred 3 x 5 window: rows 2..4
    np.testing.assert_array_equal(cropped[0, :, :, 0], image[0, 2:5, :, 0])
    padded = np_ops.resize(image, (7, 7), "nearest", pad_to_aspect_ratio=True, fill_value=-1)
    np.testing.assert_array_equal(padded[0, :, 0, 0], np.full(7, -1))
    np.testing.assert_array_equal(padded[0, :, 1:6, 0], image[0, :, :, 0])


def test_map_coordinates_by_hand():
    x = np.arange(1, 6, dtype="float32")
    coords = np.array([[-0.2, 0.5, 1.5, 4.5, 5.6]])
    np.testing.assert_allclose(
        np_ops.map_coordinates(x, coords, 1, "constant", -10), [-1.2, 1.5, 2.5, -2.5, -10]
    )
    np.testing.assert_allclose(np_ops.map_coordinates(x, coords, 0, "nearest"), [1, 2, 3, 5, 5])
    np.testing.assert_allclose(
        np_ops.map_coordinates(x, coords, 1, "wrap"), [1.8, 1.5, 2.5, 3.0, 1.6], rtol=1e-6
    )
    np.testing.assert_allclose(np_ops.map_coordinates(x, coords, 0, "mirror"), [1, 2, 3, 4, 3])
    np.testing.assert_allclose(np_ops.map_coordinates(x, coords, 0, "reflect"), [1, 2, 3, 5, 4])
    image = np.arange(12, dtype="float32").reshape(3, 4)
    got = np_ops.map_coordinates(image, [np.array([0.5, 1.0]), np.array([2.0, 0.25])], 1)
    np.testing.assert_allclose(got, [4.0, 4.25])


def test_scale_and_translate_identity_and_shift():
    image = randn(1, 5, 4, 2)
    same = np_ops.scale_and_translate(image, (1, 5, 4, 2), [1.0, 1.0], [0.0, 0.0], (1, 2), "linear")
    np.testing.assert_allclose(same, image, rtol=1e-6, atol=1e-6)
    row = np.arange(5, dtype="float32").reshape(1, 5, 1, 1)
    shifted = np_ops.scale_and_translate(
        row, (1, 5, 1, 1), [1.0, 1.0], [0.5, 0.0], (1, 2), "linear"
    )
    # output pixel i samples input position i - 0.5 (the first sample is at the border)
    np.testing.assert_allclose(shifted[0, :, 0, 0], [0, 0.5, 1.5, 2.5, 3.5])


# -- fold / unfold -------------------------------------------------------------------------------
def test_unfold_matches_loops_and_fold_inverts_non_overlapping_blocks():
    x = randn(2, 3, 6, 4)
    patches = np_ops.unfold(x, (2, 3), 1, (1, 0), (2, 1))
    rows, cols = (6 + 2 - 2) // 2 + 1, (4 - 3) // 1 + 1
    padded = np.pad(x, [(0, 0), (0, 0), (1, 1), (0, 0)])
    assert patches.shape == (2, 3 * 6, rows * cols)
    for i, j in np.ndindex(rows, cols):
        block = padded[:, :, 2 * i : 2 * i + 2, j : j + 3].reshape(2, -1)
        np.testing.assert_array_equal(patches[:, :, i * cols + j], block)
    blocks = np_ops.unfold(x, 2, stride=2)
    np.testing.assert_array_equal(np_ops.fold(blocks, (6, 4), 2, stride=2), x)
    # overlapping blocks add up: fold(unfold(ones)) counts how many blocks cover each pixel
    counts = np_ops.fold(np_ops.unfold(np.ones((1, 1, 3, 3), "float32"), 2), (3, 3), 2)
    np.testing.assert_array_equal(counts[0, 0], [[1, 2, 1], [2, 4, 2], [1, 2, 1]])
