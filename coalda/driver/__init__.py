"""The driver layer: the toolchain (clang, nvcc, the plugin, the CUDA tree),
compiling a source to IR and PTX, running the pass (pipeline), `coalda cc`
and the project database (compile_commands.json).

May import: the shared vocabulary at the top of the package (errors, ir,
verdicts, buffers, report). Nothing from findings, emulator or check."""
