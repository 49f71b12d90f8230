"""Audio preprocessing layers: mel and STFT spectrograms, written once over the backend ops."""

from tripod.layers.preprocessing.audio.mel_spectrogram import MelSpectrogram
from tripod.layers.preprocessing.audio.stft_spectrogram import STFTSpectrogram

__all__ = ["MelSpectrogram", "STFTSpectrogram"]
