"""`tripod.datasets`: Keras's small example datasets, loaded from the same files and cache
(`~/.keras/datasets`) with the same return values; the code lives in tripod/data/datasets/."""

from tripod.datasets import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
)

__all__ = [
    "boston_housing",
    "california_housing",
    "cifar10",
    "cifar100",
    "fashion_mnist",
    "imdb",
    "mnist",
    "reuters",
]
