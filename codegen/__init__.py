"""volta's code generator: ops.yaml -> Python (op functions, Tensor methods, autograd nodes,
pointwise kernels, the schema registry) and docs/ops.md.

It ships with volta so plugin authors can run it on their own yaml: ``python -m codegen``.
"""
