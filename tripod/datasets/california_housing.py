"""`tripod.datasets.california_housing`: the california_housing dataset; the code lives in tripod/data/datasets/california_housing.py."""

from tripod.data.datasets.california_housing import load_data

__all__ = ["load_data"]
