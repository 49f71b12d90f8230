"""The PyTorch backend: hooks for layers and training."""

import torch

from tripod.backends.common import spec, tree
from tripod.backends.common.steps import Step, batch_converter
from tripod.backends.torch import nn as torch_nn
from tripod.backends.torch import numpy_ops
from tripod.backends.torch import variables as torch_variables
from tripod.backends.torch.core import convert_to_tensor


def compute_output_spec(fn, *args, **kwargs):
    def run(call, tensors):
        with torch.no_grad():
            return call(tensors)

    return spec.output_spec_by_running(
        fn, args, kwargs, lambda shape, dtype: convert_to_tensor(torch.zeros(shape), dtype), run
    )


def value_and_grad(fn, variables, has_aux=False):
    variables = list(variables)

    def run(*args, **kwargs):
        out = fn(*args, **kwargs)
        value = out[0] if has_aux else out
        natives = [v.value for v in variables]
        grads = torch.autograd.grad(value, natives, allow_unused=True)
        grads = [torch.zeros_like(n) if g is None else g for g, n in zip(grads, natives)]
        # The values come back detached, as plain as on jax (`float(loss)` just works).
        return tree.map_structure(_detached, out), grads

    return run


def _detached(x):
    return x.detach() if isinstance(x, torch.Tensor) else x


def _no_grad(fn):
    def step(batch):
        with torch.no_grad():
            return fn(batch)

    return step


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    if mode != "train":
        fn = _no_grad(fn)
    if jit_compile is True and not run_eagerly:
        fn = torch.compile(fn)
    return Step(fn, batch_converter(convert_to_tensor))


def no_grad():
    return torch.no_grad()


def fuse_variables(variables, name):
    return torch_variables.fuse(variables, name)


def conv_with_bias(inputs, kernel, bias, strides=1, padding="valid", data_format=None, dilation_rate=1):
    return torch_nn._conv((inputs, kernel, bias), strides, padding, data_format, dilation_rate)


def update_average(variable, value, weight):
    difference = numpy_ops.subtract(value, variable)  # a new tensor: scaling it in place is safe
    same_dtype = type(weight) is float or (isinstance(weight, torch.Tensor) and weight.dtype == difference.dtype)
    if same_dtype and difference.is_floating_point():
        scaled = difference.mul_(weight)  # what ops.multiply computes (same dtype), in place
    else:
        scaled = numpy_ops.multiply(difference, weight)
    return variable.assign_add(scaled)
