"""Run the probe (docs/probe/probe.cu) on a GPU with CuPy:

    clang++-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=$CUDA \
        -Wno-unknown-cuda-version -O3 -S docs/probe/probe.cu -o probe.ptx   # here
    python3 docs/probe/probe.py probe.ptx                                   # on the GPU

Output of the committed run (NVIDIA H200): probe-h200.txt.
"""
import sys

import cupy as cp
import numpy as np

mod = cp.RawModule(path=sys.argv[1] if len(sys.argv) > 1 else "probe.ptx")
n = 1 << 26; nbytes = 3 * n
src = cp.asarray(np.random.default_rng(0).integers(0, 256, nbytes, dtype=np.uint8)); dst = cp.zeros_like(src)
def bench(name, fn, reps=30):
    dst.fill(0); fn(); cp.cuda.Device().synchronize(); ok = bool((dst == src).all())
    ts = []
    for _ in range(5):
        s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
        for _ in range(reps): fn()
        e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e) / reps)
    ms = sorted(ts)[2]
    print(f"{name:<22} {ms*1e3:8.1f} us {2*nbytes/ms/1e6:8.1f} GB/s {'ok' if ok else 'WRONG'}")
bench("memcpy", lambda: dst.data.copy_from_device_async(src.data, nbytes))
for bd in (256, 512):
    f = mod.get_function("naive"); bench(f"naive {bd}", lambda: f((n // bd,), (bd,), (dst, src, np.int32(n))))
    for k in ("v16", "v16_alias", "v16_checks", "w4"):
        g = mod.get_function(k); bench(f"{k} {bd}", lambda g=g: g((n // bd,), (bd,), (dst, src)))
    g = mod.get_function("v16_k4"); bench(f"v16_k4 {bd}", lambda: g((n // bd // 4,), (bd,), (dst, src)))
