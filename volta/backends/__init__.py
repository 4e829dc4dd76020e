"""Backends: each one a device type, a dispatch key, a storage contract and kernels.

volta's own backends register through the same plugin hooks as third-party ones."""
