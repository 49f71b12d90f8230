"""`DropoutRNNCell`: the dropout masks a recurrent cell applies to its inputs and states.

A mask is drawn once per sequence, not per step: the `RNN` layer primes the masks before its
time loop (so no random op runs inside a compiled loop body) and clears them afterwards. A cell
called on its own, outside an `RNN`, draws fresh masks on each call.
"""

from tripod.backends import active

ops = active()


def state_list(states):
    """Cell states as a list (a cell may take or return a single tensor for a single state)."""
    return list(states) if isinstance(states, (list, tuple)) else [states]


def check_rate(layer, name, value):
    """`value` as a float in [0, 1], or a ValueError naming the layer and the argument."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': {name} must be a float in [0, 1], received "
            f"{value!r}."
        )
    return float(value)


def check_units(layer, units):
    """`units` if it is a positive int, else a ValueError naming the layer."""
    if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': units must be a positive integer, received "
            f"{units!r}."
        )
    return units


class DropoutRNNCell:
    """Mixin for cells with `dropout`, `recurrent_dropout` and a `seed_generator`."""

    _dropout_mask = None
    _recurrent_dropout_mask = None

    def _draw(self, like, rate):
        return ops.dropout(ops.ones_like(like), rate, seed=self.seed_generator)

    def get_dropout_mask(self, step_input):
        """The input mask of the current sequence (drawn on first use), or None without dropout."""
        if self._dropout_mask is None and self.dropout > 0:
            self._dropout_mask = self._draw(step_input, self.dropout)
        return self._dropout_mask

    def get_recurrent_dropout_mask(self, step_state):
        """The state mask of the current sequence (drawn on first use), or None without dropout."""
        if self._recurrent_dropout_mask is None and self.recurrent_dropout > 0:
            self._recurrent_dropout_mask = self._draw(step_state, self.recurrent_dropout)
        return self._recurrent_dropout_mask

    def reset_dropout_mask(self):
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self):
        self._recurrent_dropout_mask = None

    def _prime_dropout(self, step_input, states):
        """Draw this sequence's masks before the time loop starts."""
        self.get_dropout_mask(step_input)
        self.get_recurrent_dropout_mask(states[0])
        return self.output_like(states)

    def _clear_dropout(self):
        self.reset_dropout_mask()
        self.reset_recurrent_dropout_mask()

    def output_like(self, states):
        """A tensor shaped like this cell's output, given its states (the hidden state)."""
        return states[0]

    def _masked_inputs(self, inputs, training):
        """`inputs` times the input dropout mask (a primed one, else a fresh one) when training."""
        if not training or self.dropout == 0:
            return inputs
        mask = (
            self._dropout_mask
            if self._dropout_mask is not None
            else self._draw(inputs, self.dropout)
        )
        return ops.multiply(inputs, mask)

    def _masked_state(self, state, training):
        """`state` times the recurrent dropout mask when training."""
        if not training or self.recurrent_dropout == 0:
            return state
        mask = self._recurrent_dropout_mask
        if mask is None:
            mask = self._draw(state, self.recurrent_dropout)
        return ops.multiply(state, mask)
