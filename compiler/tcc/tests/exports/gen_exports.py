#!/usr/bin/env python3
"""Small PyTorch modules exported with torch-mlir to TOSA, with PyTorch's outputs: the
regression corpus of issue 35 (ops and element types torch-mlir exports that tcc once
refused, and the two bugs it had on them).

Run from the repository root with a Python that has torch, torch-mlir, numpy and
ml_dtypes (numpy's bfloat16):

    python compiler/tcc/tests/exports/gen_exports.py [CASE_PREFIX...]

It (re)writes, next to this script, `<case>.mlir` (the TOSA export, `func.func @main`),
`<case>.in<i>.npy` (the arguments) and `<case>.out<i>.npy` (PyTorch's results), after
deleting the old ones; with prefixes, only the cases whose names start with one of them
(the others' files stay). bf16 arrays are saved as `ml_dtypes.bfloat16` (two-byte
voids, `<V2`, in the file). `tests/export_corpus.rs` runs every case with every backend
on 1 and 2 threads: integer and boolean results must be equal, f32 and f64 ones within
1e-5 of the output's scale (f16 ones within 1e-3, bf16 ones within 1e-2). Every case
seeds torch from its name, so the files are reproducible.
"""

import glob
import os
import sys
import zlib

import ml_dtypes
import numpy as np
import torch
from torch_mlir import fx

HERE = os.path.dirname(os.path.abspath(__file__))


class Fn(torch.nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, *args):
        return self.f(*args)


def ints(*shape, dtype=torch.int8, lo=-20, hi=20):
    return torch.randint(lo, hi, shape, dtype=dtype)


def with_nan(x, *positions):
    for p in positions:
        x[p] = float("nan")
    return x


def cases():
    """(name, function or module, argument maker): parameters are redrawn and the arguments
    made after seeding."""
    def scatter_rows(x, i, v):
        y = x.clone()
        y[i] = v
        return y

    def clone_put(x, i, v):
        return torch.index_put(x, (i,), v)

    return [
        # The two bugs: dependent matmuls sharing an operand; an i1 mask constant.
        ("mm_chain", lambda a, b: torch.mm(a, torch.mm(a, b)), lambda: (torch.rand(4, 4), torch.rand(4, 4))),
        ("count_nonzero_i64", lambda x: torch.count_nonzero(x), lambda: (ints(3, 5, dtype=torch.int64, lo=-2, hi=3),)),
        ("count_nonzero_dim", lambda x: torch.count_nonzero(x, dim=1), lambda: (ints(3, 6, dtype=torch.int64, lo=-1, hi=2),)),
        ("all", lambda x: torch.all(x > 0.1), lambda: (torch.rand(3, 5),)),
        ("nll_loss", lambda x, t: torch.nn.functional.nll_loss(x, t),
         lambda: (torch.randn(4, 5).log_softmax(1), torch.tensor([0, 3, 1, 4]))),
        ("cross_entropy", lambda x, t: torch.nn.functional.cross_entropy(x, t),
         lambda: (torch.randn(4, 5), torch.tensor([0, 3, 1, 4]))),
        # reduce_product.
        ("prod_dim", lambda x: torch.prod(x, dim=1), lambda: (torch.rand(3, 7, 5) + 0.5,)),
        ("prod_all", lambda x: torch.prod(x), lambda: (torch.rand(4, 6) + 0.5,)),
        ("prod_i32_keepdim", lambda x: torch.prod(x, dim=0, keepdim=True), lambda: (ints(5, 9, dtype=torch.int32, lo=-3, hi=4),)),
        # reverse.
        ("flip", lambda x: torch.flip(x, dims=[1, 2]), lambda: (torch.rand(2, 3, 4),)),
        ("flip_i64", lambda x: torch.flip(x, dims=[0]), lambda: (ints(5, 2, dtype=torch.int64),)),
        # argmax: NaN, ties, integers, keepdim, flattened.
        ("argmax_nan_ties", lambda x: torch.argmax(x, dim=1),
         lambda: (with_nan(torch.rand(4, 7), (1, 3), (1, 5)).index_fill_(0, torch.tensor([2]), 0.5),)),
        ("argmax_i32_keepdim", lambda x: torch.argmax(x, dim=0, keepdim=True), lambda: (ints(5, 6, dtype=torch.int32, lo=-2, hi=3),)),
        ("argmax_flat", lambda x: torch.argmax(x), lambda: (torch.rand(3, 4, 5),)),
        # scatter.
        ("scatter_dim1", lambda x, i, s: x.scatter(1, i, s),
         lambda: (torch.rand(3, 5), torch.tensor([[0, 1], [2, 3], [4, 0]]), torch.rand(3, 2))),
        ("index_put_rows", clone_put, lambda: (torch.rand(6, 4), torch.tensor([1, 3]), torch.rand(2, 4))),
        ("masked_rows", scatter_rows, lambda: (torch.rand(6), torch.tensor([0, 2, 5]), torch.rand(3))),
        # i8 and i16 arithmetic, wrapping like PyTorch.
        ("i8_add", lambda x, y: x + y, lambda: (ints(3, 4, lo=-100, hi=100), ints(3, 4, lo=-100, hi=100))),
        ("i8_sub", lambda x, y: x - y, lambda: (ints(3, 4, lo=-100, hi=100), ints(3, 4, lo=-100, hi=100))),
        ("i8_mul", lambda x, y: x * y, lambda: (ints(3, 17), ints(3, 17))),
        ("i16_mul", lambda x, y: x * y, lambda: (ints(3, 9, dtype=torch.int16, lo=-300, hi=300), ints(3, 9, dtype=torch.int16, lo=-300, hi=300))),
        ("i16_add", lambda x, y: x + y, lambda: (ints(3, 4, dtype=torch.int16), ints(3, 4, dtype=torch.int16))),
        ("i8_clamp", lambda x: torch.clamp(x, -5, 7), lambda: (ints(3, 4),)),
        ("i8_reshape_transpose", lambda x: x.reshape(4, 3).t(), lambda: (ints(3, 4),)),
        ("i8_index", lambda x, i: x[i], lambda: (ints(5, 4), torch.tensor([0, 3]))),
        ("i8_and", lambda x, y: x & y, lambda: (ints(3, 4, lo=-128, hi=127), ints(3, 4, lo=-128, hi=127))),
        ("i8_max_dim", lambda x: torch.max(x, dim=1).values, lambda: (ints(3, 4),)),
        ("i8_sum_i8", lambda x: torch.sum(x, dim=1, dtype=torch.int8), lambda: (ints(3, 40, lo=-100, hi=100),)),
        ("i8_matmul", lambda x, y: x @ y, lambda: (ints(3, 4, lo=-100, hi=100), ints(4, 2, lo=-100, hi=100))),
        ("i8_eq_where", lambda x, y: torch.where(x == y, x, y), lambda: (ints(3, 4, lo=-2, hi=2), ints(3, 4, lo=-2, hi=2))),
        ("i16_abs", lambda x: torch.abs(x), lambda: (ints(3, 4, dtype=torch.int16),)),
        ("i8_neg", lambda x: -x, lambda: (ints(3, 4, lo=-128, hi=127),)),
        ("i8_cat", lambda x, y: torch.cat([x, y], 1), lambda: (ints(3, 4), ints(3, 2))),
        ("i8_to_f32", lambda x: x.to(torch.float32) * 2, lambda: (ints(3, 4, lo=-100, hi=100),)),
        ("bool_and", lambda x, y: x & y, lambda: (torch.rand(3, 4) > 0.5, torch.rand(3, 4) > 0.5)),
        # transpose_conv2d (ConvTranspose2d): strides, padding (a slice after it), output
        # padding, rectangular kernels.
        ("conv_transpose_s2", torch.nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1),
         lambda: (torch.rand(2, 3, 5, 6),)),
        ("conv_transpose_rect", torch.nn.ConvTranspose2d(3, 5, (3, 2), stride=(3, 1), padding=(2, 0), output_padding=(1, 0)),
         lambda: (torch.rand(1, 3, 3, 7),)),
        ("conv_transpose_k4_nobias", torch.nn.ConvTranspose2d(2, 2, 4, stride=2, padding=1, bias=False),
         lambda: (torch.rand(1, 2, 3, 3),)),
        # conv3d (Conv3d): strides, padding and dilation per dimension, no bias.
        ("conv3d", torch.nn.Conv3d(2, 3, (2, 3, 3), stride=(1, 2, 1), padding=(1, 1, 0), dilation=(2, 1, 1)),
         lambda: (torch.rand(2, 2, 4, 6, 5),)),
        ("conv3d_nobias", torch.nn.Conv3d(3, 2, 3, padding=1, bias=False), lambda: (torch.rand(1, 3, 3, 4, 4),)),
        # f16 end to end: inputs, outputs, parameters and constants in half precision
        # (PyTorch rounds each op's f32 result to f16, as tcc does).
        ("f16_add_mul", lambda x, y: (x + y) * x, lambda: (torch.randn(3, 37).half(), torch.randn(37).half())),
        ("f16_sigmoid_exp", lambda x: torch.sigmoid(x) + torch.exp(x / 4), lambda: (torch.randn(2, 5, 9).half(),)),
        ("f16_softmax", lambda x: torch.softmax(x, dim=-1), lambda: (torch.randn(4, 33).half(),)),
        ("f16_matmul", lambda x, y: x @ y, lambda: (torch.randn(2, 5, 24).half(), torch.randn(24, 7).half())),
        ("f16_linear_relu", torch.nn.Sequential(torch.nn.Linear(16, 12), torch.nn.ReLU()).half(),
         lambda: (torch.randn(3, 16).half(),)),
        ("f16_conv_bn", torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8).eval()).half(),
         lambda: (torch.randn(1, 3, 9, 10).half(),)),
        ("f16_layer_norm", torch.nn.LayerNorm(20).half(), lambda: (torch.randn(3, 20).half(),)),
        ("f16_sum_max", lambda x: (x.sum(dim=1), x.amax(dim=0)), lambda: (torch.randn(6, 10).half(),)),
        ("f16_casts", lambda x, y: (x.float() * 3, y.half() + 1, x.to(torch.int32)),
         lambda: (torch.randn(3, 5).half() * 100, torch.randn(3, 5))),
        ("f16_flip_cat", lambda x, y: torch.cat([torch.flip(x, dims=[1]), y.t()], 0),
         lambda: (torch.randn(2, 3).half(), torch.randn(3, 4).half())),
        # Bilinear resizing (F.interpolate), which torch-mlir exports as four gathers and
        # three blends: up and down, odd sizes, both coordinate conventions, a batch.
        ("resize_up_odd", lambda x: torch.nn.functional.interpolate(x, size=(11, 13), mode="bilinear"),
         lambda: (torch.rand(2, 3, 5, 7),)),
        ("resize_up_corners", lambda x: torch.nn.functional.interpolate(x, size=(9, 14), mode="bilinear", align_corners=True),
         lambda: (torch.rand(1, 4, 5, 7),)),
        ("resize_scale2", lambda x: torch.nn.functional.interpolate(x, scale_factor=2, mode="bilinear"),
         lambda: (torch.rand(1, 5, 6, 6),)),
        ("resize_down", lambda x: torch.nn.functional.interpolate(x, size=(4, 3), mode="bilinear"),
         lambda: (torch.rand(1, 2, 9, 10),)),
        ("resize_down_corners", lambda x: torch.nn.functional.interpolate(x, size=(3, 5), mode="bilinear", align_corners=True),
         lambda: (torch.rand(1, 2, 7, 11),)),
        # bf16 end to end, as f16 above (PyTorch rounds each op's f32 result to bf16).
        ("bf16_add_mul", lambda x, y: (x + y) * x, lambda: (torch.randn(3, 37).bfloat16(), torch.randn(37).bfloat16())),
        ("bf16_softmax", lambda x: torch.softmax(x, dim=-1), lambda: (torch.randn(4, 33).bfloat16(),)),
        ("bf16_matmul", lambda x, y: x @ y, lambda: (torch.randn(2, 5, 24).bfloat16(), torch.randn(24, 7).bfloat16())),
        ("bf16_linear_gelu", torch.nn.Sequential(torch.nn.Linear(16, 12), torch.nn.GELU()).bfloat16(),
         lambda: (torch.randn(3, 16).bfloat16(),)),
        ("bf16_layer_norm", torch.nn.LayerNorm(20).bfloat16(), lambda: (torch.randn(3, 20).bfloat16(),)),
        ("bf16_casts", lambda x, y, z: (x.float() * 3, y.bfloat16() + 1, x.to(torch.int32), z.bfloat16()),
         lambda: (torch.randn(3, 5).bfloat16() * 100, torch.randn(3, 5), torch.randn(3, 5).half())),
    ]


def to_numpy(t):
    """A tensor as a C-order numpy array (bf16 as `ml_dtypes.bfloat16`, its bits kept)."""
    if t.dtype == torch.bfloat16:
        return np.array(t.view(torch.int16).numpy().view(ml_dtypes.bfloat16), order="C")
    # C order: a transposed result is a Fortran-order view, which .npy would keep.
    return np.array(t.numpy(), order="C")


def main():
    prefixes = sys.argv[1:]
    wanted = [c for c in cases() if not prefixes or c[0].startswith(tuple(prefixes))]
    for name in [c[0] for c in wanted] if prefixes else ["*"]:
        for f in glob.glob(os.path.join(HERE, f"{name}.mlir")) + glob.glob(os.path.join(HERE, f"{name}.*.npy")):
            os.remove(f)
    for name, f, make in wanted:
        torch.manual_seed(zlib.crc32(name.encode()))
        module = f if isinstance(f, torch.nn.Module) else Fn(f)
        for p in module.parameters():
            with torch.no_grad():
                p.copy_(torch.randn_like(p))
        args = make()
        exported = fx.export_and_import(module, *args, output_type="tosa", func_name="main")
        with torch.no_grad():
            outs = module(*args)
        outs = outs if isinstance(outs, tuple) else (outs,)
        with open(os.path.join(HERE, f"{name}.mlir"), "w") as fh:
            fh.write(str(exported))
        for i, a in enumerate(args):
            np.save(os.path.join(HERE, f"{name}.in{i}.npy"), to_numpy(a))
        for i, o in enumerate(outs):
            np.save(os.path.join(HERE, f"{name}.out{i}.npy"), to_numpy(o))
        print(name)


if __name__ == "__main__":
    main()
