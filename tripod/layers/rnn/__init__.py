"""Recurrent layers: the `RNN` loop, its cells, and the wrappers that run layers over time."""

from tripod.layers.rnn.bidirectional import Bidirectional
from tripod.layers.rnn.conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D
from tripod.layers.rnn.gru import GRU, GRUCell
from tripod.layers.rnn.lstm import LSTM, LSTMCell
from tripod.layers.rnn.rnn import RNN
from tripod.layers.rnn.simple_rnn import SimpleRNN, SimpleRNNCell
from tripod.layers.rnn.stacked_rnn_cells import StackedRNNCells
from tripod.layers.rnn.time_distributed import TimeDistributed

__all__ = [
    "GRU",
    "LSTM",
    "RNN",
    "Bidirectional",
    "ConvLSTM1D",
    "ConvLSTM2D",
    "ConvLSTM3D",
    "GRUCell",
    "LSTMCell",
    "SimpleRNN",
    "SimpleRNNCell",
    "StackedRNNCells",
    "TimeDistributed",
]
