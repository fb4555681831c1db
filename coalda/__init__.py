"""COALDA: find uncoalesced global-memory accesses in CUDA kernels and rewrite them."""

__version__ = "0.1.0"
