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
"""

import torch

from tripod.backends.torch.tensors import convert_to_tensor

#: the float dtypes the CPU and GPU recurrent kernels take (half precision scans instead)
NATIVE_DTYPES = (torch.float32, torch.float64)


def native_operands(*tensors):
    """`tensors` as torch tensors of one float32 / float64 dtype, or None where a native recurrent
    kernel cannot run them: half precision, mixed dtypes, or under `torch.compile` (whose CPU
    lowering of the recurrent kernels fails)."""
    if torch.compiler.is_compiling():
        return None
    tensors = [convert_to_tensor(t) for t in tensors]
    dtype = tensors[0].dtype
    if dtype not in NATIVE_DTYPES or any(t.dtype != dtype for t in tensors):
        return None
    return tensors


def lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias):
    """The `lstm_sequence` hook: `torch.lstm` (one layer, batch first) on the transposed kernels
    (views); None where `native_operands` refuses the tensors."""
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
        inputs, (h.unsqueeze(0), c.unsqueeze(0)), params, bias is not None, 1, 0.0, False, False,
        True,
    )  # fmt: skip
    return outputs, last_h[0], last_c[0]


def torch_gate_order(weights):
    """Keras's z, r, h blocks along the last axis of `weights` reordered to torch's r, z, n."""
    z, r, h = torch.chunk(weights, 3, dim=-1)
    return torch.cat([r, z, h], dim=-1)


def gru_sequence(inputs, h, kernel, recurrent_kernel, bias):
    """The `gru_sequence` hook: `torch.gru` (one layer, batch first) on the reordered, transposed
    kernels and the two rows of the bias; None where `native_operands` refuses the tensors."""
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
