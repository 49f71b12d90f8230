"""What the public namespaces need beyond re-exports: the op functions of `tripod.ops` and
`tripod.random` (built from the ops contract), the Keras stand-in, and the missing-name errors."""
