"""The torch backend: fused recurrent kernels behind the `lstm_sequence` and `gru_sequence`
hooks.

Keras's LSTM gates i, f, c, o are torch's i, f, g, o: its kernels are only transposed, and its one
bias is torch's input bias beside a zero recurrent bias.

Keras orders a GRU's gates z (update), r (reset), h (candidate) along the kernels' last axis;
torch orders them r, z, n along the first axis of its (3*units, features) weights. With Keras's
`reset_after=True` the two compute the same recurrence:

    z = sigmoid(x W_z + b_iz + h U_z + b_hz),  r = sigmoid(x W_r + b_ir + h U_r + b_hr)
    n = tanh(x W_n + b_in + r * (h U_n + b_hn)),  h' = z * h + (1 - z) * n

so the kernels are reordered and transposed, and Keras's (2, 3*units) bias gives torch's input
bias `b_ih` (row 0) and recurrent bias `b_hh` (row 1).

Under `torch.compile` the kernels run as they do eagerly, called from the compiled code (see
`keep_out_of_compiled_graphs`): traced, a layer would unroll a Python loop over the time steps,
slow to compile and to run, and torch's CPU lowering of the fused kernels fails.
"""

import torch

from tripod.backends.torch.tensors import convert_to_tensor

#: the float dtypes the CPU and GPU recurrent kernels take (half precision scans instead)
NATIVE_DTYPES = (torch.float32, torch.float64)


def native_operands(*tensors):
    """`tensors` as torch tensors of one float32 / float64 dtype, or None where a native recurrent
    kernel cannot run them: half precision or mixed dtypes."""
    tensors = [convert_to_tensor(t) for t in tensors]
    dtype = tensors[0].dtype
    if dtype not in NATIVE_DTYPES or any(t.dtype != dtype for t in tensors):
        return None
    return tensors


def lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias):
    """The `lstm_sequence` hook: `torch.lstm` (one layer, batch first) on the transposed kernels
    (views); None where `native_operands` refuses the tensors."""
    return _kernels["lstm"](inputs, h, c, kernel, recurrent_kernel, bias)


def gru_sequence(inputs, h, kernel, recurrent_kernel, bias):
    """The `gru_sequence` hook: `torch.gru` (one layer, batch first) on the reordered, transposed
    kernels and the two rows of the bias; None where `native_operands` refuses the tensors."""
    return _kernels["gru"](inputs, h, kernel, recurrent_kernel, bias)


def keep_out_of_compiled_graphs():
    """Make `torch.compile` call the kernels as opaque eager functions rather than trace them
    (once; not at import, as `torch.compiler.disable` loads dynamo). Autograd still records
    them, so gradients flow through as eagerly."""
    if _kernels["lstm"] is _lstm:
        _kernels.update(lstm=torch.compiler.disable(_lstm), gru=torch.compiler.disable(_gru))


def _lstm(inputs, h, c, kernel, recurrent_kernel, bias):
    """`lstm_sequence`'s kernel call."""
    operands = native_operands(
        inputs, h, c, kernel, recurrent_kernel, *([] if bias is None else [bias])
    )
    if operands is None:
        return None
    inputs, h, c, kernel, recurrent_kernel = operands[:5]
    params = [kernel.t(), recurrent_kernel.t()]
    if bias is not None:
        params += [operands[5], torch.zeros_like(operands[5])]
    outputs, last_h, last_c = torch.lstm(
        inputs,
        (h.unsqueeze(0), c.unsqueeze(0)),
        params,
        bias is not None,
        1,
        0.0,
        False,
        False,
        True,
    )
    return outputs, last_h[0], last_c[0]


def torch_gate_order(weights):
    """Keras's z, r, h blocks along the last axis of `weights` reordered to torch's r, z, n."""
    z, r, h = torch.chunk(weights, 3, dim=-1)
    return torch.cat([r, z, h], dim=-1)


def _gru(inputs, h, kernel, recurrent_kernel, bias):
    """`gru_sequence`'s kernel call."""
    operands = native_operands(
        inputs, h, kernel, recurrent_kernel, *([] if bias is None else [bias])
    )
    if operands is None:
        return None
    inputs, h, kernel, recurrent_kernel = operands[:4]
    params = [torch_gate_order(kernel).t(), torch_gate_order(recurrent_kernel).t()]
    if bias is not None:
        bias = torch_gate_order(operands[4])
        params += [bias[0], bias[1]]
    outputs, last_h = torch.gru(
        inputs, h.unsqueeze(0), params, bias is not None, 1, 0.0, False, False, True
    )
    return outputs, last_h[0]


#: the kernels the hooks run: swapped for their opaque forms by `keep_out_of_compiled_graphs`
_kernels = {"lstm": _lstm, "gru": _gru}
