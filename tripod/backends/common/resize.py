"""Image resampling math shared by every backend: interpolation kernels and weight matrices.

Resizing one spatial dim is a matrix product: output[i] = sum_j W[i, j] * input[j]. The
functions here build W with half-pixel centres (pixel j covers [j, j + 1), its centre is
j + 0.5), the semantics of Keras 3 / `jax.image.scale_and_translate`:

- output pixel i samples the input at s_i = (i + 0.5 - translation) / scale - 0.5;
- W[i, j] = k((j - s_i) / kernel_scale) for the method's kernel k, with kernel_scale =
  max(1 / scale, 1) when antialiasing (a wider kernel when downsampling), else 1;
- each row is normalised to sum to 1 (a row whose weights sum to ~0 becomes 0), and rows whose
  sample point lies outside [-0.5, input_size - 0.5] are 0.

"area" averages the input over each output pixel's footprint [i / scale, (i + 1) / scale) with
exact overlap weights, as TensorFlow's area resize does. "nearest" is an index gather
(`nearest_indices`), not a weight matrix.

The weight builders take `xp`, a namespace of numpy-named functions: `numpy` itself for static
sizes and scales, or an assembled tripod backend when `scale`/`translation` are tensors.
"""

import math

import numpy as np

INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5", "area")

#: Keras-compatible aliases of method names
_ALIASES = {
    "linear": "bilinear",
    "cubic": "bicubic",
    "trilinear": "bilinear",
    "tricubic": "bicubic",
}

#: the `a` of Keys' cubic convolution kernel, as in Keras / JAX / TensorFlow
CUBIC_A = -0.5


def standardize_method(method, allowed=INTERPOLATIONS):
    """`method` with aliases (linear, cubic, ...) resolved; a ValueError if not in `allowed`."""
    name = _ALIASES.get(method, method)
    if name not in allowed:
        raise ValueError(f"interpolation must be one of {allowed}, received {method!r}.")
    return name


def kernel_radius(method):
    """How far (in input pixels, before antialias widening) a method's kernel reaches."""
    return {"bilinear": 1.0, "bicubic": 2.0, "lanczos3": 3.0, "lanczos5": 5.0}[method]


def _triangle(xp, x):
    return xp.maximum(1.0 - x, 0.0)


def _keys_cubic(xp, x):
    a = CUBIC_A
    near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    far = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
    return xp.where(x <= 1.0, near, xp.where(x < 2.0, far, 0.0))


def _lanczos(xp, x, radius):
    # sinc(x) * sinc(x / r) = r * sin(pi x) * sin(pi x / r) / (pi x)^2, 1 at x = 0.
    safe = xp.where(x == 0.0, 1.0, x)
    value = (
        radius * xp.sin(math.pi * safe) * xp.sin(math.pi * safe / radius) / (math.pi * safe) ** 2
    )
    return xp.where(x == 0.0, 1.0, xp.where(x < radius, value, 0.0))


def kernel(xp, method, distance):
    """The interpolation kernel of `method` at non-negative `distance` (an array)."""
    if method == "bilinear":
        return _triangle(xp, distance)
    if method == "bicubic":
        return _keys_cubic(xp, distance)
    if method in ("lanczos3", "lanczos5"):
        return _lanczos(xp, distance, kernel_radius(method))
    raise ValueError(f"no interpolation kernel for method {method!r}.")


def _footprint_weights(xp, input_size, output_size, scale, translation, dtype):
    """Exact overlap of input pixels with each output pixel's footprint, rows normalised."""
    start = (xp.arange(output_size, dtype=dtype)[:, None] - translation) / scale
    stop = start + 1.0 / scale
    left = xp.arange(input_size, dtype=dtype)[None, :]
    overlap = xp.maximum(xp.minimum(stop, left + 1.0) - xp.maximum(start, left), 0.0)
    total = xp.sum(overlap, axis=1, keepdims=True)
    return xp.where(total > 1e-6, overlap / xp.where(total > 1e-6, total, 1.0), 0.0)


def scale_translate_weights(
    xp, input_size, output_size, scale, translation, method, antialias, dtype="float32"
):
    """The (output_size, input_size) matrix of `dtype` resampling one dim (see the module doc).

    `scale` and `translation` are scalars (Python floats or 0-d tensors of `dtype`).
    """
    if method == "area":
        return _footprint_weights(xp, input_size, output_size, scale, translation, dtype)
    sample = (xp.arange(output_size, dtype=dtype) + 0.5 - translation) / scale - 0.5
    kernel_scale = xp.maximum(1.0 / scale, 1.0) if antialias else 1.0
    distance = xp.abs(xp.arange(input_size, dtype=dtype)[None, :] - sample[:, None])
    weights = kernel(xp, method, distance / kernel_scale)
    total = xp.sum(weights, axis=1, keepdims=True)
    usable = xp.abs(total) > 1000.0 * float(np.finfo(np.float32).eps)
    weights = xp.where(usable, weights / xp.where(usable, total, 1.0), 0.0)
    inside = xp.logical_and(sample >= -0.5, sample <= input_size - 0.5)
    return xp.where(inside[:, None], weights, 0.0)


def resize_weights(input_size, output_size, method, antialias=False, dtype="float32"):
    """The static (output_size, input_size) NumPy matrix of `dtype` resizing one dim."""
    scale = np.asarray(output_size / input_size, dtype=dtype)
    return scale_translate_weights(
        np, input_size, output_size, scale, 0.0, method, antialias, dtype
    )


def nearest_indices(input_size, output_size):
    """Input index of each output pixel for nearest resizing: floor((i + 0.5) * in / out)."""
    centres = (np.arange(output_size, dtype=np.float64) + 0.5) * input_size / output_size
    return np.minimum(np.floor(centres).astype(np.int32), input_size - 1)


def crop_to_aspect_box(height, width, target_height, target_width):
    """(top, left, crop_height, crop_width): the largest centred crop with the target's aspect.

    Sizes are truncated to ints, and the crop starts at half the removed amount, rounded down
    (Keras 3's rule).
    """
    crop_height = max(min(height, int(width * target_height / target_width)), 1)
    crop_width = max(min(width, int(height * target_width / target_height)), 1)
    return (height - crop_height) // 2, (width - crop_width) // 2, crop_height, crop_width


def pad_to_aspect_amounts(height, width, target_height, target_width):
    """((top, bottom), (left, right)) padding giving (about) the target's aspect ratio.

    The padded size is truncated to an int and each side gets half the difference, rounded
    down, so an odd difference loses one row or column (Keras 3's rule).
    """
    pad_height = (max(height, int(width * target_height / target_width)) - height) // 2
    pad_width = (max(width, int(height * target_width / target_height)) - width) // 2
    return (pad_height, pad_height), (pad_width, pad_width)
