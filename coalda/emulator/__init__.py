"""The emulator layer: the CPU emulator of the NVVM IR (emulate.py), its
threads and fibers, the schedules it runs blocks under, and the NVVM
intrinsics.

May import: the shared vocabulary only (errors, ir, verdicts, buffers,
report). Nothing from driver, findings or check: it runs IR it is given."""
