"""`tripod.layers`: the `Layer` base class, `Input`, and every built-in layer.

Each kind of layer lives in its own subpackage, which lists its public names in `__all__`.
"""

from tripod.layers.activations_layers import *
from tripod.layers.attention import *
from tripod.layers.convolution import *
from tripod.layers.core import *
from tripod.layers.input_layer import Input, InputLayer
from tripod.layers.input_spec import InputSpec
from tripod.layers.interop import *
from tripod.layers.layer import Layer
from tripod.layers.merging import *
from tripod.layers.normalization import *
from tripod.layers.pooling import *
from tripod.layers.preprocessing import *
from tripod.layers.regularization import *
from tripod.layers.reshaping import *
from tripod.layers.rnn import *
from tripod.saving.serialization import deserialize, serialize
