"""Argument checks of the Fourier-transform ops, whose complex values are (real, imag) pairs."""


def pair_parts(convert, x, name):
    """The (real, imaginary) tensors of the pair `x` given to op `name`, converted with the
    backend's `convert` and checked to be two tensors of one shape."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"{name} needs a tuple (real, imaginary) of two tensors.")
    real, imag = (convert(v) for v in x)
    if real.shape != imag.shape:
        raise ValueError(
            f"{name}: the real and imaginary parts differ in shape: {real.shape} vs {imag.shape}."
        )
    return real, imag
