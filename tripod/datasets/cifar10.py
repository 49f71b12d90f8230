"""`tripod.datasets.cifar10`: the cifar10 dataset; the code lives in tripod/data/datasets/cifar10.py."""

from tripod.data.datasets.cifar10 import load_data

__all__ = ["load_data"]
