"""`GRUCell` and `GRU`: the gated recurrent unit, gates in Keras's order z (update),
r (reset), h."""

from tripod.backends import active
from tripod.layers import activations
from tripod.layers.rnn.base_cell import _DenseCell
from tripod.layers.rnn.rnn import _OwnCellRNN, cell_property

ops = active()


class GRUCell(_DenseCell):
    """One step of a gated recurrent unit: an update gate z and a reset gate r mix the previous
    state with a candidate state, `h = z * h_previous + (1 - z) * candidate`.

    Called as `cell(inputs, states)` with inputs `(batch, features)` and `states = [h]`, it
    returns `(h, [h])`. The kernels hold the z, r and candidate blocks side by side
    (`3 * units` columns). With `reset_after` (the default) the bias has shape `(2, 3 * units)`
    (an input bias and a recurrent bias) and the reset gate multiplies the recurrent projection;
    without it, the bias is `(3 * units,)` and the reset gate multiplies the state before its
    projection.

    Args:
        units: int > 0, the size of the hidden state (and of the output's last axis).
        activation: activation of the candidate state; default "tanh".
        recurrent_activation: activation of the update and reset gates; default
            "sigmoid".
        use_bias: bool, add a bias (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
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
        reset_after: bool, apply the reset gate after the recurrent projection (default True).
        seed: int, seed of the dropout masks.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `units` is not a positive integer or a dropout rate is outside [0, 1]; on
            the first call, the input's last axis is unknown.

    Examples:
        >>> cell = tripod.layers.GRUCell(4)
        >>> output, states = cell(np.ones((2, 3)), [np.zeros((2, 4))])
        >>> tuple(output.shape), len(states)
        ((2, 4), 1)
        >>> tuple(cell.kernel.shape), tuple(cell.bias.shape)
        ((3, 12), (2, 12))
    """

    gates = 3

    def __init__(
        self,
        units,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        reset_after=True,
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
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states, training=False):
        h_previous = states[0] if isinstance(states, (list, tuple)) else states
        x = ops.matmul(self._masked_inputs(inputs, training), self.kernel.value)
        h_in = self._masked_state(h_previous, training)
        if self.reset_after:
            recurrent = ops.matmul(h_in, self.recurrent_kernel.value)
            if self.bias is not None:
                x = ops.add(x, self.bias.value[0])
                recurrent = ops.add(recurrent, self.bias.value[1])
            x_z, x_r, x_h = ops.split(x, 3, axis=-1)
            r_z, r_r, r_h = ops.split(recurrent, 3, axis=-1)
            z = self.recurrent_activation(ops.add(x_z, r_z))
            r = self.recurrent_activation(ops.add(x_r, r_r))
            candidate = self.activation(ops.add(x_h, ops.multiply(r, r_h)))
        else:
            if self.bias is not None:
                x = ops.add(x, self.bias.value)
            x_z, x_r, x_h = ops.split(x, 3, axis=-1)
            k_zr, k_h = ops.split(self.recurrent_kernel.value, [2 * self.units], axis=-1)
            r_z, r_r = ops.split(ops.matmul(h_in, k_zr), 2, axis=-1)
            z = self.recurrent_activation(ops.add(x_z, r_z))
            r = self.recurrent_activation(ops.add(x_r, r_r))
            candidate = self.activation(ops.add(x_h, ops.matmul(ops.multiply(r, h_in), k_h)))
        h = ops.add(ops.multiply(z, h_previous), ops.multiply(ops.subtract(1.0, z), candidate))
        return h, [h]

    def get_config(self):
        return {
            **super().get_config(),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "reset_after": self.reset_after,
        }


class GRU(_OwnCellRNN):
    """Gated recurrent unit layer (Cho et al., 2014) over `(batch, time, features)`.

    Runs a `GRUCell` over the time axis from a zero state. Where the cell is the standard one
    (default activations, `reset_after`, no dropout in the call, no mask) a backend's fused
    kernel runs it when it has one.

    Args:
        units: int > 0, the size of the hidden state (and of the output's last axis).
        activation: activation of the candidate state; default "tanh".
        recurrent_activation: activation of the update and reset gates; default
            "sigmoid".
        use_bias: bool, add a bias (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
        kernel_regularizer: regularizer of the input kernel.
        recurrent_regularizer: regularizer of the recurrent kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the input kernel.
        recurrent_constraint: constraint of the recurrent kernel.
        bias_constraint: constraint of the bias.
        dropout: float in [0, 1], the fraction of input units dropped in training (one mask
            per sequence).
        recurrent_dropout: float in [0, 1], the fraction of recurrent units dropped in
            training.
        seed: int, seed of the dropout masks.
        return_sequences: bool, return the output of every step instead of the last one
            (default False).
        return_state: bool, also return the final states: `[output, *states]` (default False).
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        unroll: bool, unroll the loop in Python instead of a backend loop (short sequences).
        reset_after: bool, apply the reset gate after the recurrent projection (default True,
            the layout with a `(2, 3 * units)` bias).
        use_cudnn: accepted for Keras compatibility; tripod has no separate cuDNN path.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: an invalid argument (e.g. `units` not positive, a dropout rate outside
            [0, 1]), named in the message; on the first call, an input of rank below 3.

    Examples:
        >>> x = np.zeros((2, 5, 3))  # 2 sequences of 5 steps, 3 features each
        >>> tuple(tripod.layers.GRU(8)(x).shape)
        (2, 8)
        >>> tuple(tripod.layers.GRU(8, return_sequences=True)(x).shape)
        (2, 5, 8)
        >>> output, h = tripod.layers.GRU(8, return_state=True)(x)
        >>> tuple(h.shape)
        (2, 8)
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
        reset_after=True,
        use_cudnn="auto",
        **kwargs,
    ):
        cell = GRUCell(
            units,
            activation=activation,
            recurrent_activation=recurrent_activation,
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
            reset_after=reset_after,
            seed=seed,
            **self._cell_kwargs(kwargs, "gru_cell"),
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
        """For a standard cell on a backend with a fused GRU kernel: that kernel. Anything else
        (and every backend without one): the cell scanned over time, which compiled steps
        (jax, tensorflow, torch.compile) run as fast as a scan of a precomputed input
        projection, and train faster."""
        if mask is None and self._standard_cell(training) and len(ops.shape(sequences)) == 3:
            cell = self.cell
            steps = ops.flip(sequences, axis=1) if self.go_backwards else sequences
            bias = None if cell.bias is None else cell.bias.value
            fused = ops.gru_sequence(
                steps, states[0], cell.kernel.value, cell.recurrent_kernel.value, bias
            )
            if fused is not None:
                outputs, h = fused
                return h, (outputs if self.return_sequences else None), [h]
        return super()._loop(sequences, states, mask, training)

    def _standard_cell(self, training):
        """Whether the cell computes what a fused GRU kernel does: built-in, `reset_after`,
        sigmoid gates, a tanh candidate, no dropout in this call."""
        cell = self.cell
        return (
            type(cell) is GRUCell
            and cell.reset_after
            and cell.activation is activations.tanh
            and cell.recurrent_activation is activations.sigmoid
            and not (training and (cell.dropout or cell.recurrent_dropout))
        )

    units = cell_property("units")
    recurrent_activation = cell_property("recurrent_activation")
    reset_after = cell_property("reset_after")
