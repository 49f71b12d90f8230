"""`SimpleRNNCell` and `SimpleRNN`: h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)."""

from tripod.backends import active
from tripod.layers import regularizers
from tripod.layers.rnn.base_cell import _DenseCell
from tripod.layers.rnn.rnn import RNN, cell_config, cell_property

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


class SimpleRNN(RNN):
    """A fully connected recurrent layer: the output is fed back as the next step's state."""

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, seed=None, **kwargs):  # fmt: skip
        cell = SimpleRNNCell(
            units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, dtype=kwargs.get("dtype"),
            trainable=kwargs.get("trainable", True), name="simple_rnn_cell",
        )  # fmt: skip
        super().__init__(
            cell, return_sequences=return_sequences, return_state=return_state, go_backwards=go_backwards,
            stateful=stateful, unroll=unroll, activity_regularizer=activity_regularizer, **kwargs,
        )  # fmt: skip

    units = cell_property("units")
    activation = cell_property("activation")
    use_bias = cell_property("use_bias")
    dropout = cell_property("dropout")
    recurrent_dropout = cell_property("recurrent_dropout")

    def get_config(self):
        return {
            **super().get_config(), **cell_config(self.cell),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
        }  # fmt: skip
