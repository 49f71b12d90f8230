"""`tripod.datasets.boston_housing`: the boston_housing dataset; the code lives in tripod/data/datasets/boston_housing.py."""

from tripod.data.datasets.boston_housing import load_data

__all__ = ["load_data"]
