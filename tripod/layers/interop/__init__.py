"""Native modules inside tripod models: a torch module, a JAX function or flax module, a
TensorFlow SavedModel endpoint, each as a layer whose weights are tripod variables."""

from tripod.layers.interop.jax_layer import FlaxLayer, JaxLayer
from tripod.layers.interop.tfsm_layer import TFSMLayer
from tripod.layers.interop.torch_module_wrapper import TorchModuleWrapper

__all__ = ["FlaxLayer", "JaxLayer", "TFSMLayer", "TorchModuleWrapper"]
