"""The check layer: the differential oracle (original against rewrite), the
kernel specs, the GPU executor, `coalda run` and `coalda bench`.

May import: the shared vocabulary, driver, findings and emulator. Only cli
(and entry) import check."""
