"""`SimpleRNNCell` and `SimpleRNN`:
h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)."""

from tripod.backends import active
from tripod.layers.rnn.base_cell import _DenseCell
from tripod.layers.rnn.rnn import _OwnCellRNN, cell_property

ops = active()


class SimpleRNNCell(_DenseCell):
    """One step of a fully connected recurrent layer:
    `h = activation(x @ kernel + h_previous @ recurrent_kernel + bias)`.

    Called as `cell(inputs, states)` with inputs `(batch, features)` and `states = [h]`, it
    returns `(h, [h])`; the output is the new state. `RNN(cell)` runs it over a sequence.

    Args:
        units: int > 0, the size of the hidden state (and of the output's last axis).
        activation: activation of the new state; default "tanh".
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
        seed: int, seed of the dropout masks.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `units` is not a positive integer or a dropout rate is outside [0, 1]; on
            the first call, the input's last axis is unknown.

    Examples:
        >>> cell = tripod.layers.SimpleRNNCell(
        ...     2, activation=None, kernel_initializer="ones", recurrent_initializer="ones"
        ... )
        >>> output, states = cell(np.array([[1.0, 2.0, 3.0]]), [np.ones((1, 2))])
        >>> print(tripod.ops.convert_to_numpy(output))  # 1 + 2 + 3, plus 1 + 1
        [[8. 8.]]
        >>> tuple(tripod.layers.RNN(cell)(np.zeros((4, 5, 3))).shape)
        (4, 2)
    """

    def call(self, inputs, states, training=False):
        previous = states[0] if isinstance(states, (list, tuple)) else states
        h = ops.matmul(self._masked_inputs(inputs, training), self.kernel.value)
        if self.bias is not None:
            h = ops.add(h, self.bias.value)
        recurrent = ops.matmul(self._masked_state(previous, training), self.recurrent_kernel.value)
        output = self.activation(ops.add(h, recurrent))
        return output, [output]


class SimpleRNN(_OwnCellRNN):
    """A fully connected recurrent layer over `(batch, time, features)`: each step's output is
    fed back as the next step's state.

    Runs a `SimpleRNNCell`, `h_t = activation(x_t @ kernel + h_(t-1) @ recurrent_kernel + bias)`,
    over the time axis from a zero state. The output is the last `h` `(batch, units)`, or every
    step's `(batch, time, units)` with `return_sequences`.

    Args:
        units: int > 0, the size of the hidden state (and of the output's last axis).
        activation: activation of the state; default "tanh".
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
        return_sequences: bool, return the output of every step instead of the last one
            (default False).
        return_state: bool, also return the final states: `[output, *states]` (default False).
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        unroll: bool, unroll the loop in Python instead of a backend loop (short sequences).
        seed: int, seed of the dropout masks.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: an invalid argument (e.g. `units` not positive, a dropout rate outside
            [0, 1]), named in the message; on the first call, an input of rank below 3.

    Examples:
        >>> x = np.zeros((2, 5, 3))  # 2 sequences of 5 steps, 3 features each
        >>> tuple(tripod.layers.SimpleRNN(4)(x).shape)
        (2, 4)
        >>> rnn = tripod.layers.SimpleRNN(  # a running sum: h_t = x_t + h_(t-1)
        ...     1, activation=None, kernel_initializer="ones", recurrent_initializer="ones",
        ...     return_sequences=True,
        ... )
        >>> print(tripod.ops.convert_to_numpy(rnn(np.array([[[1.0], [2.0], [3.0]]]))).ravel())
        [1. 3. 6.]
    """

    def __init__(
        self,
        units,
        activation="tanh",
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
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        seed=None,
        **kwargs,
    ):
        cell = SimpleRNNCell(
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
            **self._cell_kwargs(kwargs, "simple_rnn_cell"),
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

    units = cell_property("units")
