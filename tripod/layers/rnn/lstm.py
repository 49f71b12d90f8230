"""`LSTMCell` and `LSTM`: the long short-term memory recurrence, gates in Keras's order
i, f, c, o."""

import numpy as np

from tripod.backends import active
from tripod.layers import activations
from tripod.layers.rnn.base_cell import _DenseCell
from tripod.layers.rnn.rnn import _OwnCellRNN, cell_property

ops = active()


class UnitForgetBias:
    """The LSTM bias initializer with `unit_forget_bias`: the forget gate's block starts at ones."""

    def __init__(self, initializer, units):
        self.initializer, self.units = initializer, units

    def __call__(self, shape, dtype=None):
        u = self.units
        parts = [
            self.initializer((u,), dtype=dtype),
            np.ones((u,)),
            self.initializer((2 * u,), dtype=dtype),
        ]
        return np.concatenate([np.asarray(p) for p in parts]).astype(parts[0].dtype)


def lstm_bias_initializer(cell, units):
    """The bias initializer of a cell with LSTM gates: `cell.bias_initializer`, with the forget
    gate's `units` starting at ones under `cell.unit_forget_bias`."""
    if cell.unit_forget_bias:
        return UnitForgetBias(cell.bias_initializer, units)
    return cell.bias_initializer


def lstm_states(cell, z, c_previous, axis=-1):
    """The output h and the new states [h, c] of an LSTM step, from the pre-activations `z` of
    its gates i, f, c, o (stacked along `axis`) and the previous carry state."""
    i, f, c, o = ops.split(z, 4, axis=axis)
    c = ops.add(
        ops.multiply(cell.recurrent_activation(f), c_previous),
        ops.multiply(cell.recurrent_activation(i), cell.activation(c)),
    )
    h = ops.multiply(cell.recurrent_activation(o), cell.activation(c))
    return h, [h, c]


class LSTMCell(_DenseCell):
    """One step of a long short-term memory: the states are the hidden state h and the cell
    state c.

    Called as `cell(inputs, [h, c])` with inputs `(batch, features)`, it returns
    `(h_new, [h_new, c_new])`: the input, forget and output gates (i, f, o) and the candidate g
    come from `x @ kernel + h @ recurrent_kernel + bias` (4 blocks of `units` columns, in the
    order i, f, g, o), then `c_new = f * c + i * g` and `h_new = o * activation(c_new)`.

    Args:
        units: int > 0, the size of the hidden state (and of the output's last axis).
        activation: activation of the candidate and of the new cell state in the output;
            default "tanh".
        recurrent_activation: activation of the input, forget and output gates; default
            "sigmoid".
        use_bias: bool, add a bias (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
        unit_forget_bias: bool, start the forget gate's bias at one (default True).
        kernel_regularizer: regularizer of the input kernel.
        recurrent_regularizer: regularizer of the recurrent kernel.
        bias_regularizer: regularizer of the bias.
        kernel_constraint: constraint of the input kernel.
        recurrent_constraint: constraint of the recurrent kernel.
        bias_constraint: constraint of the bias.
        dropout: float in [0, 1], the fraction of input units dropped in training (inside an
            `RNN`, one mask per sequence).
        recurrent_dropout: float in [0, 1], the fraction of recurrent units dropped in
            training.
        seed: int, seed of the dropout masks.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `units` is not a positive integer or a dropout rate is outside [0, 1]; on
            the first call, the input's last axis is unknown.

    Examples:
        >>> cell = tripod.layers.LSTMCell(4)
        >>> h, c = np.zeros((2, 4)), np.zeros((2, 4))
        >>> output, (h, c) = cell(np.ones((2, 3)), [h, c])
        >>> tuple(output.shape), tuple(c.shape)
        ((2, 4), (2, 4))
        >>> cell.state_size, tuple(cell.kernel.shape)
        ([4, 4], (3, 16))
    """

    gates = 4

    def __init__(
        self,
        units,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        super().__init__(
            units,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            **kwargs,
        )
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = [self.units, self.units]

    def _bias_initializer(self):
        return lstm_bias_initializer(self, self.units)

    def call(self, inputs, states, training=False):
        h_previous, c_previous = states[0], states[1]
        z = ops.add(
            ops.matmul(self._masked_inputs(inputs, training), self.kernel.value),
            ops.matmul(self._masked_state(h_previous, training), self.recurrent_kernel.value),
        )
        if self.bias is not None:
            z = ops.add(z, self.bias.value)
        return lstm_states(self, z, c_previous)

    def get_config(self):
        return {
            **super().get_config(),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "unit_forget_bias": self.unit_forget_bias,
        }


class LSTM(_OwnCellRNN):
    """Long short-term memory layer (Hochreiter & Schmidhuber, 1997) over `(batch, time, features)`.

    Runs an `LSTMCell` over the time axis, carrying a hidden state `h` and a cell state `c`.
    Where the cell is the standard one (default activations, no recurrent dropout, no mask) the
    backend's fused kernel runs it.

    Args:
        units: int > 0, the size of the hidden and cell states (and of the output's last axis).
        activation: activation of the candidate state and output; default "tanh".
        recurrent_activation: activation of the input, forget and output gates; default
            "sigmoid".
        use_bias: bool, add a bias to the gates (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
        unit_forget_bias: bool, start the forget gate's bias at one (default True).
        kernel_regularizer: regularizer of the input kernel.
        recurrent_regularizer: regularizer of the recurrent kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the input kernel.
        recurrent_constraint: constraint of the recurrent kernel.
        bias_constraint: constraint of the bias.
        dropout: float in [0, 1], the fraction of input units dropped in training.
        recurrent_dropout: float in [0, 1], the fraction of recurrent units dropped in training.
        seed: int, seed of the dropout masks.
        return_sequences: bool, return the output of every step `(batch, time, units)` instead
            of the last one `(batch, units)`.
        return_state: bool, also return the final `h` and `c`: `[output, h, c]`.
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        unroll: bool, unroll the loop in Python instead of a backend loop (short sequences).
        use_cudnn: accepted for Keras compatibility; tripod has no separate cuDNN path.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: an invalid argument (e.g. `units` not positive, a dropout rate outside
            [0, 1]), named in the message.

    Examples:
        >>> x = np.zeros((2, 5, 3))  # 2 sequences of 5 steps, 3 features each
        >>> tuple(tripod.layers.LSTM(16)(x).shape)
        (2, 16)
        >>> tuple(tripod.layers.LSTM(16, return_sequences=True)(x).shape)
        (2, 5, 16)
        >>> output, h, c = tripod.layers.LSTM(16, return_state=True)(x)
        >>> tuple(h.shape), tuple(c.shape)
        ((2, 16), (2, 16))
    """

    def __init__(
        self,
        units,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        use_cudnn="auto",
        **kwargs,
    ):
        cell = LSTMCell(
            units,
            activation=activation,
            recurrent_activation=recurrent_activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            **self._cell_kwargs(kwargs, "lstm_cell"),
        )
        super().__init__(
            cell,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            unroll=unroll,
            activity_regularizer=activity_regularizer,
            **kwargs,
        )
        self.use_cudnn = use_cudnn  # accepted for Keras compatibility; there is no cuDNN path

    def _loop(self, sequences, states, mask, training):
        """For a standard cell: the backend's `lstm_sequence` (a native kernel on torch, a scan
        of the recurrent half after one input projection on tensorflow), unless it declines.
        Any other cell, and a declined call: the cell scanned over time."""
        if mask is None and self._standard_cell(training) and len(ops.shape(sequences)) == 3:
            cell = self.cell
            steps = ops.flip(sequences, axis=1) if self.go_backwards else sequences
            bias = None if cell.bias is None else cell.bias.value
            fused = ops.lstm_sequence(
                steps, states[0], states[1], cell.kernel.value, cell.recurrent_kernel.value, bias
            )
            if fused is not None:
                outputs, h, c = fused
                return h, (outputs if self.return_sequences else None), [h, c]
        return super()._loop(sequences, states, mask, training)

    def _standard_cell(self, training):
        """Whether the cell computes what a fused LSTM kernel does: built-in, sigmoid gates, tanh
        activations, no dropout in this call."""
        cell = self.cell
        return (
            type(cell) is LSTMCell
            and cell.activation is activations.tanh
            and cell.recurrent_activation is activations.sigmoid
            and not (training and (cell.dropout or cell.recurrent_dropout))
        )

    units = cell_property("units")
    recurrent_activation = cell_property("recurrent_activation")
    unit_forget_bias = cell_property("unit_forget_bias")
