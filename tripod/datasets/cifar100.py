"""`tripod.datasets.cifar100`: the cifar100 dataset; the code lives in tripod/data/datasets/cifar100.py."""

from tripod.data.datasets.cifar100 import load_data

__all__ = ["load_data"]
