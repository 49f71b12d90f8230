"""`SimpleRNNCell` and `SimpleRNN`:
h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)."""

from tripod.backends import active
from tripod.layers.rnn.base_cell import _DenseCell
from tripod.layers.rnn.rnn import _OwnCellRNN, cell_property

ops = active()


class SimpleRNNCell(_DenseCell):
    """One step of a fully connected recurrent layer."""

    def call(self, inputs, states, training=False):
        previous = states[0] if isinstance(states, (list, tuple)) else states
        h = ops.matmul(self._masked_inputs(inputs, training), self.kernel.value)
        if self.bias is not None:
            h = ops.add(h, self.bias.value)
        recurrent = ops.matmul(self._masked_state(previous, training), self.recurrent_kernel.value)
        output = self.activation(ops.add(h, recurrent))
        return output, [output]


class SimpleRNN(_OwnCellRNN):
    """A fully connected recurrent layer: the output is fed back as the next step's state."""

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
