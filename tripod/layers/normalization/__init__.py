"""Normalization layers: Batch-, Layer-, Group-, Unit-, RMS- and SpectralNormalization."""

from tripod.layers.normalization.batch_normalization import BatchNormalization
from tripod.layers.normalization.group_normalization import GroupNormalization
from tripod.layers.normalization.layer_normalization import LayerNormalization
from tripod.layers.normalization.rms_normalization import RMSNormalization
from tripod.layers.normalization.spectral_normalization import SpectralNormalization
from tripod.layers.normalization.unit_normalization import UnitNormalization

__all__ = [
    "BatchNormalization",
    "GroupNormalization",
    "LayerNormalization",
    "RMSNormalization",
    "SpectralNormalization",
    "UnitNormalization",
]
