#!/usr/bin/env python3
"""The corpus compiled ahead of time: each model as an object file linked into a C program,
run on its input, compared with PyTorch's output.

For each model and backend: `tcc MODEL.mlir --emit=obj` (and its header), a small C driver
that reads the input as raw floats, calls `NAME_run_threads` (1 thread, then 2), and
writes the output; the output is compared with `MODEL.out0.npy` like `tcc run --expect`
(max |error| relative to the reference's max |value|, tolerance 1e-4). With `--time N`,
the driver also runs the model N more times per thread count (after 3 warm-up runs) and
the report gives the median latency of the linked program.

Usage (numpy; a C compiler on PATH):

    python benchmarks/models/check_aot.py --models DIR --tcc target/release/tcc \\
        --only resnet18,bert_layer --backends cranelift,llvm
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "model.h"
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int timed = atoi(argv[3]);
    double *ms = malloc(sizeof(double) * (timed > 0 ? timed : 1));
    float *in = malloc(sizeof(float) * model_input_numel[0]);
    float *out = malloc(sizeof(float) * model_output_numel[0]);
    FILE *f = fopen(argv[1], "rb");
    if (!f || fread(in, sizeof(float), model_input_numel[0], f) != (size_t)model_input_numel[0]) return 3;
    fclose(f);
    const float *inputs[1] = {in};
    float *outputs[1] = {out};
    for (int threads = 1; threads <= 2; threads++) {
        int rc = model_run_threads(inputs, outputs, threads);
        if (rc != 0) { fprintf(stderr, "%s\n", model_error_message(rc)); return 1; }
        for (int i = 0; i < 3 && timed > 0; i++) model_run_threads(inputs, outputs, threads);
        for (int i = 0; i < timed; i++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            model_run_threads(inputs, outputs, threads);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            ms[i] = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
        }
        if (timed > 0) {
            qsort(ms, timed, sizeof(double), cmp);
            printf("%d %.4f\n", threads, ms[timed / 2]);
        }
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", argv[2], threads);
        FILE *o = fopen(path, "wb");
        fwrite(out, sizeof(float), model_output_numel[0], o);
        fclose(o);
    }
    return 0;
}
"""


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", required=True)
    p.add_argument("--tcc", required=True)
    p.add_argument("--only", required=True)
    p.add_argument("--backends", default="cranelift,llvm")
    p.add_argument("--tolerance", type=float, default=1e-4)
    p.add_argument("--time", type=int, default=0, help="timed runs per thread count (0: none)")
    a = p.parse_args()
    runtime = subprocess.run([a.tcc, "--print-runtime-lib"], check=True, capture_output=True, text=True).stdout.strip()
    failed = False
    for name in a.only.split(","):
        x = np.load(os.path.join(a.models, name + ".in0.npy")).astype(np.float32)
        want = np.load(os.path.join(a.models, name + ".out0.npy")).astype(np.float64)
        for backend in a.backends.split(","):
            with tempfile.TemporaryDirectory() as d:
                obj = os.path.join(d, "model.o")
                subprocess.run(
                    [a.tcc, os.path.join(a.models, name + ".mlir"), "--emit=obj", "-o", obj, "--name", "model",
                     "--backend", backend],
                    check=True,
                )
                with open(os.path.join(d, "main.c"), "w") as f:
                    f.write(DRIVER)
                exe = os.path.join(d, "main")
                subprocess.run(["cc", "-O2", "-I", d, os.path.join(d, "main.c"), obj, runtime, "-lpthread", "-lm",
                                "-ldl", "-o", exe], check=True)
                x.tofile(os.path.join(d, "in.bin"))
                run = subprocess.run([exe, os.path.join(d, "in.bin"), os.path.join(d, "out"), str(a.time)],
                                     check=True, capture_output=True, text=True)
                medians = dict(line.split() for line in run.stdout.splitlines())
                for threads in (1, 2):
                    got = np.fromfile(os.path.join(d, f"out.{threads}"), dtype=np.float32).astype(np.float64)
                    err = np.max(np.abs(got - want.ravel()))
                    scale = np.max(np.abs(want))
                    ok = err <= a.tolerance * scale
                    failed |= not ok
                    timing = f", median {float(medians[str(threads)]):.3f} ms" if a.time else ""
                    print(f"{name:16} {backend:10} {threads} thread(s): max error {err:.3e} "
                          f"({err / scale:.3e} of the scale): {'ok' if ok else 'MISMATCH'}{timing}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
