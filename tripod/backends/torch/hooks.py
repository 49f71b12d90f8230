"""The PyTorch backend: hooks for layers and training."""

import contextlib
import functools

import torch
import torch.nn.functional as F
from torch.utils import checkpoint
from torch.utils import data as torch_data

from tripod.backends.common import devices, remat_args, spec, tree
from tripod.backends.common.steps import Step, batch_converter
from tripod.backends.torch import arrays, elementwise, export, interop, module_adapter, tensors
from tripod.backends.torch import conv as torch_conv
from tripod.backends.torch import distribution as torch_distribution
from tripod.backends.torch import nn as torch_nn
from tripod.backends.torch import optimizer_kernels as kernels
from tripod.backends.torch import recurrent as torch_recurrent
from tripod.backends.torch import variables as torch_variables
from tripod.backends.torch.compiled import CompiledStep
from tripod.backends.torch.tensors import convert_to_tensor

__all__ = [
    "adopt_variable",
    "batch_norm_training",
    "compile_step",
    "compute_output_spec",
    "conv_with_bias",
    "device_scope",
    "distribution_engine",
    "export_artifact",
    "export_formats",
    "fuse_variables",
    "gru_sequence",
    "initialize_processes",
    "list_devices",
    "lstm_sequence",
    "matmul_with_bias",
    "native_parameters",
    "no_grad",
    "optimizer_kernel",
    "process_count",
    "process_index",
    "remat",
    "update_average",
    "value_and_grad",
    "worker_seed",
    "zero_grad",
]


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
        replicas = module_adapter.running()  # a data-parallel step's DDP, else None
        if replicas is not None:
            out, grads = replicas.value_and_grad(
                fn, args, kwargs, [v.value for v in variables], has_aux
            )
            return tree.map_structure(_detached, out), grads
        out = fn(*args, **kwargs)
        value = out[0] if has_aux else out
        natives = [v.value for v in variables]
        grads = _grads(value, natives)
        # The values come back detached, as plain as on jax (`float(loss)` just works).
        return tree.map_structure(_detached, out), grads

    return run


def _grads(value, natives):
    """d value / d each of `natives`, zeros where it does not depend on one: also when it
    depends on none (no variables, or a loss only added, as jax and tensorflow answer), and for
    a tensor autograd does not track (a variable of a layer frozen since the step was made)."""
    if not (natives and isinstance(value, torch.Tensor) and value.requires_grad):
        return [torch.zeros_like(n) for n in natives]
    tracked = [n for n in natives if n.requires_grad]
    if len(tracked) == len(natives):  # the usual case
        return [
            _or_zeros(g, n)
            for g, n in zip(torch.autograd.grad(value, natives, allow_unused=True), natives)
        ]
    grads = (
        dict(zip(map(id, tracked), torch.autograd.grad(value, tracked, allow_unused=True)))
        if tracked
        else {}
    )
    return [_or_zeros(grads.get(id(n)), n) for n in natives]


def _or_zeros(grad, native):
    return torch.zeros_like(native) if grad is None else grad


def _detached(x):
    return x.detach() if isinstance(x, torch.Tensor) else x


def _no_grad(fn):
    def step(batch):
        with torch.no_grad():
            return fn(batch)

    return step


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    owner = getattr(fn, "__self__", None)
    if mode != "train":
        fn = _no_grad(fn)
    if jit_compile is True and not run_eagerly:
        fn = CompiledStep(fn, state_variables, f"{mode} step", owner)
    return Step(fn, batch_converter(convert_to_tensor))


def no_grad():
    return torch.no_grad()


def fuse_variables(variables, name):
    if torch_distribution.engaged():  # engines place and wrap each variable's own parameter
        return None
    return torch_variables.fuse(variables, name)


def zero_grad(variables, set_to_none=True):
    torch_variables.zero_grad(variables, set_to_none)


def native_parameters(variables):
    return torch_variables.parameters(variables)


def optimizer_kernel(name):
    return kernels.optimizer_kernel(name)


def conv_with_bias(
    inputs, kernel, bias, strides=1, padding="valid", data_format=None, dilation_rate=1
):
    return torch_conv._conv((inputs, kernel, bias), strides, padding, data_format, dilation_rate)


def matmul_with_bias(x, kernel, bias):
    x, kernel, bias = convert_to_tensor(x), convert_to_tensor(kernel), convert_to_tensor(bias)
    dtype = x.dtype
    # Eager only: traced for export, `addmm` would let the exporter drop a zero bias from the
    # artifact's named weights (and compilers fuse the add themselves).
    fusable = dtype == kernel.dtype == bias.dtype and dtype.is_floating_point and x.ndim >= 2
    if fusable and not torch.compiler.is_compiling():
        if x.ndim == 2:
            return torch.addmm(bias, x, kernel)
        if x.ndim == 3 and x.is_contiguous():
            # torch's linear runs this very addmm over the rows of the view, in C++: no Python
            # reshapes (other inputs take its matmul-then-add path, so they are reshaped here)
            return F.linear(x, kernel.t(), bias)
        rows = torch.addmm(bias, x.reshape(-1, x.shape[-1]), kernel)
        return rows.reshape(*x.shape[:-1], kernel.shape[-1])
    return elementwise.add(arrays.matmul(x, kernel), bias)


def update_average(variable, value, weight):
    difference = elementwise.subtract(value, variable)  # a new tensor: scaling it in place is safe
    same_dtype = type(weight) is float or (
        isinstance(weight, torch.Tensor) and weight.dtype == difference.dtype
    )
    if same_dtype and difference.is_floating_point():
        scaled = difference.mul_(weight)  # what ops.multiply computes (same dtype), in place
    else:
        scaled = elementwise.multiply(difference, weight)
    return variable.assign_add(scaled)


def device_scope(device_name):
    kind, index = devices.parse_device(device_name)
    try:
        device = torch.device("cuda" if kind == "gpu" else kind, index)
    except RuntimeError:
        raise ValueError(f"device: torch has no device type for {device_name!r}.") from None
    return _placed_on(device)


@contextlib.contextmanager
def _placed_on(device):
    """New tensors, tripod's and torch's own factories', go to `device` inside the block."""
    outer = tensors.placement.device
    tensors.placement.device = device
    try:
        with device:
            yield
    finally:
        tensors.placement.device = outer


def worker_seed():
    info = torch_data.get_worker_info()
    return None if info is None else info.seed


def remat(f):
    return remat_args.tensor_only(f, torch.is_tensor, _checkpointed)


def _checkpointed(f):
    """`f` run through torch's non-reentrant activation checkpointing."""
    return functools.partial(checkpoint.checkpoint, f, use_reentrant=False)


def list_devices(device_type=None):
    return torch_distribution.list_devices(device_type)


def initialize_processes(job_addresses, num_processes, process_id):
    torch_distribution.initialize_processes(job_addresses, num_processes, process_id)


def process_count():
    return torch_distribution.process_count()


def process_index():
    return torch_distribution.process_index()


def distribution_engine(distribution):
    return torch_distribution.engine_for(distribution, compile_step)


def export_formats():
    return export.FORMATS


def export_artifact(format, endpoints, filepath, options):
    export.export_artifact(format, endpoints, filepath, options)


def adopt_variable(native, name, trainable):
    return interop.adopt_variable(native, name, trainable)


def batch_norm_training(x, axis, scale, offset, epsilon):
    return torch_nn._batch_norm_training(x, axis, scale, offset, epsilon)


lstm_sequence = torch_recurrent.lstm_sequence
gru_sequence = torch_recurrent.gru_sequence
