"""The CPU backend: numpy arrays as storage, numpy kernels. The readable reference backend."""
