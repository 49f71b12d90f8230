"""The public namespaces, assembled from the layers below: names only."""
