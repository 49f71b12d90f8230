"""The built-in datasets of `keras.datasets`: one module per dataset, each with `load_data`,
reading the same files from the same cache folder (`~/.keras/datasets`) as Keras."""
