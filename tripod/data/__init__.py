"""Data in: downloading and caching files (`get_file`), safe archive extraction, the built-in
datasets and the dataset builders, exposed through `tripod.utils` and `tripod.datasets`."""
