"""Where Keras's dataset files are hosted (the same URLs Keras downloads from)."""

#: the folder of Keras's own dataset files
KERAS_DATASETS_URL = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
#: the CIFAR python archives, from their authors' site
CIFAR_URL = "https://www.cs.toronto.edu/~kriz/"
