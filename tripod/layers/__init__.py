"""`tripod.layers`: the `Layer` base class, `Input`, and every built-in layer.

Each kind of layer lives in its own subpackage, which lists its public names in `__all__`.
"""

from tripod.layers.activations_layers import *  # noqa: F403
from tripod.layers.attention import *  # noqa: F403
from tripod.layers.convolution import *  # noqa: F403
from tripod.layers.core import *  # noqa: F403
from tripod.layers.input_layer import Input, InputLayer
from tripod.layers.input_spec import InputSpec
from tripod.layers.interop import *  # noqa: F403
from tripod.layers.layer import Layer
from tripod.layers.merging import *  # noqa: F403
from tripod.layers.normalization import *  # noqa: F403
from tripod.layers.pooling import *  # noqa: F403
from tripod.layers.preprocessing import *  # noqa: F403
from tripod.layers.regularization import *  # noqa: F403
from tripod.layers.reshaping import *  # noqa: F403
from tripod.layers.rnn import *  # noqa: F403
from tripod.saving.serialization import deserialize, serialize
