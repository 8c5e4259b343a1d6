#!/usr/bin/env python3
"""PyTorch reference data for the graph dialect's reference interpreter.

Run from the repository root with any Python that has torch and numpy, e.g.

    /work/venv/bin/python dialects/graph/tests/reference/gen_reference.py

It (re)writes, next to this script,

    models/<case>.mlir          a graph-dialect `func.func @main` for the case
    data/<case>.in<i>.npy       the i-th argument of @main
    data/<case>.out<i>.npy      the i-th result of @main, as computed by PyTorch

and deletes stale `.mlir`/`.npy` files there first. `tests/reference.rs` discovers the
cases by listing `models/`, runs each through `tcc_dialect_graph::run_function` and
compares with the `.out*.npy` files.

Two kinds of cases:

* op cases: one graph op (conv2d, pooling, matmul, softmax, activations, reductions, a
  few data-movement ops), every operand (conv weights included) a function argument and
  the expected result computed with `torch.nn.functional` / `torch` directly;
* whole models (`small_cnn`, `attention_block`, `group_norm_block`): an `nn.Module` with
  random weights evaluated by PyTorch in float32 and the same network spelled in graph
  ops, weights embedded as `graph.constant {value = dense<"0x..."> : ...}` (hex of the
  little-endian f32 bytes) and the input as the only argument. The generator also
  evaluates the graph formulation itself in float64 (the "shadow" values below, which
  also give every op its result type) and checks it against the module's output, so a
  mistake in the generator shows up here and not as a confusing Rust failure.

Outputs are deterministic: every case seeds torch (and numpy) from a fixed per-case seed,
so re-running on the same torch/numpy versions reproduces the files byte for byte (other
versions may differ in the last bits of some float32 results, far below the test's
tolerance). Everything runs on the CPU in a single thread.
"""

import math
import os
import sys
import zlib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
MODELS = os.path.join(HERE, "models")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

# ---------------------------------------------------------------------------------------
# Writing graph-dialect functions
# ---------------------------------------------------------------------------------------

ELEM = {
    torch.float32: "f32",
    torch.float64: "f32",  # shadow values are f64, the IR is f32
    torch.int64: "i64",
    torch.int32: "i32",
    torch.bool: "i1",
}


def ttype(shape, elem="f32"):
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{elem}>"


def fmt_attr(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.17e}"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt_attr(x) for x in v) + "]"
    raise TypeError(f"unsupported attribute {v!r}")


def fmt_attrs(attrs):
    if not attrs:
        return ""
    return " {" + ", ".join(f"{k} = {fmt_attr(v)}" for k, v in attrs.items()) + "}"


class Node:
    """An SSA value and its (shadow) torch value, which fixes its type."""

    def __init__(self, name, value):
        self.name = name
        self.value = value

    @property
    def shape(self):
        return tuple(self.value.shape)

    @property
    def type(self):
        return ttype(self.shape, ELEM[self.value.dtype])


class Graph:
    """Builds `func.func @main`; each op records the value the caller computed for it."""

    def __init__(self):
        self.args = []
        self.lines = []
        self.count = 0

    def _fresh(self):
        name = f"%{self.count}"
        self.count += 1
        return name

    def arg(self, value):
        node = Node(f"%arg{len(self.args)}", value)
        self.args.append(node)
        return node

    def op(self, name, operands, attrs, value):
        node = Node(self._fresh(), value)
        ins = ", ".join(o.type for o in operands)
        uses = ", ".join(o.name for o in operands)
        self.lines.append(f"  {node.name} = {name} {uses}{fmt_attrs(attrs)} : ({ins}) -> {node.type}")
        return node

    def const(self, array):
        a = np.array(array, dtype=np.float32, order="C")  # keeps rank 0 (ascontiguousarray does not)
        node = Node(self._fresh(), torch.from_numpy(a.copy()).double())
        hexdata = a.astype("<f4").tobytes().hex().upper()
        self.lines.append(
            f'  {node.name} = graph.constant {{value = dense<"0x{hexdata}"> : {node.type}}} : () -> {node.type}'
        )
        return node

    def text(self, outputs, comment):
        params = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        results = ", ".join(o.type for o in outputs)
        if len(outputs) != 1:
            results = f"({results})"
        body = "\n".join(self.lines)
        ret = ", ".join(o.name for o in outputs)
        rtypes = ", ".join(o.type for o in outputs)
        head = "".join(f"// {line}\n" for line in comment.strip().splitlines())
        return (
            f"// Generated by gen_reference.py; do not edit.\n{head}"
            f"func.func @main({params}) -> {results} {{\n{body}\n  return {ret} : {rtypes}\n}}\n"
        )

    # -- ops with a float64 shadow evaluation (used by the whole models) --------------

    def conv2d(self, x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), groups=1):
        t, l, bo, r = pads
        v = F.conv2d(F.pad(x.value, (l, r, t, bo)), w.value, None if b is None else b.value,
                     stride=tuple(strides), dilation=tuple(dilations), groups=groups)
        attrs = {"strides": list(strides), "pads": list(pads), "dilations": list(dilations), "groups": groups}
        return self.op("graph.conv2d", [x, w] + ([] if b is None else [b]), attrs, v)

    def max_pool2d(self, x, kernel, strides):
        return self.op("graph.max_pool2d", [x], {"kernel": list(kernel), "strides": list(strides)},
                       F.max_pool2d(x.value, kernel, strides))

    def avg_pool2d(self, x, kernel, strides):
        return self.op("graph.avg_pool2d", [x], {"kernel": list(kernel), "strides": list(strides)},
                       F.avg_pool2d(x.value, kernel, strides))

    def unary(self, name, x):
        fns = {"relu": torch.relu, "rsqrt": torch.rsqrt, "sqrt": torch.sqrt, "erf": torch.erf,
               "sigmoid": torch.sigmoid, "tanh": torch.tanh, "exp": torch.exp, "neg": torch.neg,
               "abs": torch.abs, "gelu": F.gelu}
        return self.op(f"graph.{name}", [x], {}, fns[name](x.value))

    def binary(self, name, a, b):
        fns = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
               "max": torch.maximum, "min": torch.minimum}
        return self.op(f"graph.{name}", [a, b], {}, fns[name](a.value, b.value))

    def matmul(self, a, b):
        return self.op("graph.matmul", [a, b], {}, torch.matmul(a.value, b.value))

    def reduce_mean(self, x, axes, keepdims):
        return self.op("graph.reduce_mean", [x], {"axes": list(axes), "keepdims": keepdims},
                       x.value.mean(dim=tuple(axes), keepdim=keepdims))

    def reshape(self, x, shape):
        return self.op("graph.reshape", [x], {"shape": list(shape)}, x.value.reshape(shape))

    def transpose(self, x, perm):
        return self.op("graph.transpose", [x], {"perm": list(perm)}, x.value.permute(*perm))

    def softmax(self, x, axis):
        return self.op("graph.softmax", [x], {"axis": axis}, torch.softmax(x.value, dim=axis))


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------

WRITTEN = []


def seed(name):
    s = zlib.crc32(name.encode())
    torch.manual_seed(s)
    return np.random.default_rng(s)


def to_numpy(t):
    a = t.detach().cpu().numpy()
    if a.dtype == np.float64:
        a = a.astype(np.float32)
    return np.array(a, order="C")  # keeps rank 0 (ascontiguousarray does not)


def save_case(name, graph, inputs, outputs, comment):
    """inputs: torch tensors in argument order; outputs: (Node, expected torch tensor)."""
    assert len(inputs) == len(graph.args)
    for i, t in enumerate(inputs):
        np.save(os.path.join(DATA, f"{name}.in{i}.npy"), to_numpy(t))
    for i, (node, want) in enumerate(outputs):
        assert tuple(want.shape) == node.shape, (name, want.shape, node.shape)
        np.save(os.path.join(DATA, f"{name}.out{i}.npy"), to_numpy(want))
    with open(os.path.join(MODELS, f"{name}.mlir"), "w") as f:
        f.write(graph.text([n for n, _ in outputs], comment))
    WRITTEN.append(name)


def op_case(name, inputs, build, comment=""):
    """One-op case: `build(graph, *args)` returns the result node(s); each node's value is
    the PyTorch reference computed from the float32 inputs."""
    g = Graph()
    args = [g.arg(t) for t in inputs]
    out = build(g, *args)
    outs = out if isinstance(out, (list, tuple)) else [out]
    save_case(name, g, inputs, [(n, n.value) for n in outs], comment or name)


def randn(*shape):
    return torch.randn(tuple(shape), dtype=torch.float32)


# ---------------------------------------------------------------------------------------
# Op cases
# ---------------------------------------------------------------------------------------


def conv_case(name, xs, ws, bias=True, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), groups=1):
    seed(name)
    x, w = randn(*xs), randn(*ws)
    b = randn(ws[0]) if bias else None
    t, l, bo, r = pads

    def build(g, xa, wa, ba=None):
        # Asymmetric padding is F.pad then an unpadded conv; symmetric uses conv's own.
        if t == bo and l == r:
            want = F.conv2d(x, w, b, stride=strides, padding=(t, l), dilation=dilations, groups=groups)
        else:
            want = F.conv2d(F.pad(x, (l, r, t, bo)), w, b, stride=strides, dilation=dilations, groups=groups)
        attrs = {"strides": list(strides), "pads": list(pads), "dilations": list(dilations), "groups": groups}
        return g.op("graph.conv2d", [xa, wa] + ([ba] if ba is not None else []), attrs, want)

    op_case(name, [x, w] + ([b] if bias else []), build,
            f"conv2d: x {list(xs)}, w {list(ws)}, bias {bias}, strides {list(strides)}, "
            f"pads {list(pads)}, dilations {list(dilations)}, groups {groups}")


def conv_cases():
    conv_case("conv2d_plain", (1, 3, 7, 7), (4, 3, 3, 3))
    conv_case("conv2d_plain_nobias", (2, 3, 6, 5), (5, 3, 3, 3), bias=False)
    conv_case("conv2d_1x1", (2, 5, 4, 3), (7, 5, 1, 1))
    conv_case("conv2d_pad_same", (2, 3, 6, 5), (5, 3, 3, 3), pads=(1, 1, 1, 1))
    conv_case("conv2d_pad_asym", (1, 2, 7, 6), (3, 2, 3, 2), pads=(1, 0, 2, 1))
    conv_case("conv2d_pad_asym_nobias", (2, 3, 5, 8), (4, 3, 2, 3), bias=False, pads=(0, 2, 1, 0))
    conv_case("conv2d_stride2", (1, 3, 9, 8), (4, 3, 3, 3), bias=False, strides=(2, 2), pads=(1, 1, 1, 1))
    conv_case("conv2d_stride_rect", (1, 2, 10, 11), (3, 2, 3, 3), strides=(2, 3), pads=(1, 1, 1, 1))
    conv_case("conv2d_dilated", (1, 2, 9, 9), (3, 2, 3, 3), dilations=(2, 2), pads=(2, 2, 2, 2))
    conv_case("conv2d_dilated_rect", (1, 3, 10, 9), (2, 3, 3, 2), bias=False, dilations=(2, 3), pads=(1, 2, 1, 2))
    conv_case("conv2d_grouped", (1, 6, 7, 7), (4, 3, 3, 3), groups=2, pads=(1, 1, 1, 1))
    conv_case("conv2d_grouped3_1x1", (2, 6, 5, 5), (9, 2, 1, 1), bias=False, groups=3)
    conv_case("conv2d_depthwise", (1, 4, 8, 8), (4, 1, 3, 3), groups=4, pads=(1, 1, 1, 1))
    conv_case("conv2d_depthwise_nobias_stride2", (2, 5, 9, 7), (5, 1, 3, 3), bias=False, groups=5,
              strides=(2, 2), pads=(1, 1, 1, 1))
    conv_case("conv2d_depthwise_mult2", (1, 3, 6, 6), (6, 1, 3, 3), groups=3, strides=(2, 1))
    conv_case("conv2d_odd", (1, 3, 11, 13), (2, 3, 5, 3), strides=(2, 1), pads=(2, 1, 1, 0), dilations=(1, 2))
    conv_case("conv2d_everything", (2, 4, 13, 12), (6, 2, 3, 3), strides=(2, 3), pads=(0, 2, 3, 1),
              dilations=(2, 1), groups=2)
    conv_case("conv2d_big_kernel", (1, 2, 5, 6), (3, 2, 5, 5), pads=(2, 2, 2, 2))


def pool_case(name, kind, xs, kernel, strides, pads=(0, 0, 0, 0), count_include_pad=None, shift=0.0):
    seed(name)
    x = randn(*xs) + shift
    t, l, b, r = pads

    def build(g, xa):
        attrs = {"kernel": list(kernel), "strides": list(strides), "pads": list(pads)}
        if kind == "max":
            if t == b and l == r:
                want = F.max_pool2d(x, kernel, strides, padding=(t, l))
            else:  # padded cells never win: pad with -inf
                want = F.max_pool2d(F.pad(x, (l, r, t, b), value=-math.inf), kernel, strides)
            return g.op("graph.max_pool2d", [xa], attrs, want)
        if count_include_pad is not None:
            attrs["count_include_pad"] = count_include_pad
        include = bool(count_include_pad)
        if t == b and l == r:
            want = F.avg_pool2d(x, kernel, strides, padding=(t, l), count_include_pad=include)
        else:
            assert include, "asymmetric avg pooling is only expressible in torch with count_include_pad"
            want = F.avg_pool2d(F.pad(x, (l, r, t, b)), kernel, strides)
        return g.op("graph.avg_pool2d", [xa], attrs, want)

    op_case(name, [x], build,
            f"{kind}_pool2d: x {list(xs)}, kernel {list(kernel)}, strides {list(strides)}, pads {list(pads)}, "
            f"count_include_pad {count_include_pad}")


def pool_cases():
    pool_case("max_pool2d_k2s2", "max", (1, 3, 8, 8), (2, 2), (2, 2))
    pool_case("max_pool2d_k3s2", "max", (2, 3, 9, 10), (3, 3), (2, 2))
    pool_case("max_pool2d_k3s2_pad1", "max", (2, 3, 9, 10), (3, 3), (2, 2), pads=(1, 1, 1, 1))
    # All-negative input: a padded zero must never win.
    pool_case("max_pool2d_k3s1_pad1_negative", "max", (1, 2, 6, 7), (3, 3), (1, 1), pads=(1, 1, 1, 1), shift=-10.0)
    pool_case("max_pool2d_rect", "max", (1, 2, 7, 9), (2, 3), (1, 2), pads=(1, 1, 1, 1))
    pool_case("max_pool2d_asym_negative", "max", (1, 3, 7, 6), (3, 2), (2, 2), pads=(0, 1, 2, 0), shift=-10.0)
    pool_case("avg_pool2d_k2s2", "avg", (1, 3, 8, 8), (2, 2), (2, 2))
    pool_case("avg_pool2d_k3s2", "avg", (2, 3, 9, 10), (3, 3), (2, 2))
    pool_case("avg_pool2d_k3s2_pad1_include", "avg", (2, 3, 9, 10), (3, 3), (2, 2), pads=(1, 1, 1, 1),
              count_include_pad=True)
    pool_case("avg_pool2d_k3s2_pad1_exclude", "avg", (2, 3, 9, 10), (3, 3), (2, 2), pads=(1, 1, 1, 1),
              count_include_pad=False)
    # count_include_pad left at its default (false).
    pool_case("avg_pool2d_k3s1_pad1_default", "avg", (1, 2, 6, 7), (3, 3), (1, 1), pads=(1, 1, 1, 1))
    pool_case("avg_pool2d_rect_include", "avg", (1, 2, 7, 9), (2, 3), (1, 2), pads=(1, 1, 1, 1),
              count_include_pad=True)
    pool_case("avg_pool2d_rect_exclude", "avg", (1, 2, 7, 9), (2, 3), (1, 2), pads=(1, 1, 1, 1),
              count_include_pad=False)
    pool_case("avg_pool2d_asym_include", "avg", (1, 3, 7, 6), (3, 2), (2, 2), pads=(0, 1, 2, 0),
              count_include_pad=True)


def matmul_case(name, sa, sb):
    seed(name)
    a, b = randn(*sa), randn(*sb)
    op_case(name, [a, b], lambda g, x, y: g.op("graph.matmul", [x, y], {}, torch.matmul(a, b)),
            f"matmul: {list(sa)} x {list(sb)}")


def matmul_cases():
    matmul_case("matmul_2d", (5, 7), (7, 3))
    matmul_case("matmul_batched", (3, 4, 6), (3, 6, 5))
    matmul_case("matmul_batched_bcast", (2, 1, 3, 4), (5, 4, 6))
    matmul_case("matmul_batched_x_2d", (2, 3, 4, 6), (6, 5))
    matmul_case("matmul_2d_x_batched", (4, 6), (3, 6, 2))
    matmul_case("matmul_1d_x_2d", (6,), (6, 4))
    matmul_case("matmul_2d_x_1d", (4, 6), (6,))
    matmul_case("matmul_1d_x_1d", (9,), (9,))
    matmul_case("matmul_1d_x_batched", (5,), (2, 3, 5, 4))
    matmul_case("matmul_batched_x_1d", (2, 3, 4, 5), (5,))


def softmax_cases():
    for name, shape, axis, scale in [
        ("softmax_axis0", (3, 4, 5), 0, 1.0),
        ("softmax_axis1", (2, 3, 4, 5), 1, 1.0),
        ("softmax_axis_last", (2, 3, 4, 5), 3, 1.0),
        ("softmax_axis_neg1", (2, 3, 4, 5), -1, 1.0),
        ("softmax_axis_neg2", (2, 3, 4, 5), -2, 1.0),
        ("softmax_large_logits", (4, 7), 1, 30.0),
    ]:
        seed(name)
        x = randn(*shape) * scale
        op_case(name, [x], lambda g, xa, x=x, axis=axis: g.op("graph.softmax", [xa], {"axis": axis},
                                                              torch.softmax(x, dim=axis)),
                f"softmax: x {list(shape)}, axis {axis}")


def activation_input(name):
    seed(name)
    ramp = torch.linspace(-8.0, 8.0, 61, dtype=torch.float32)
    return torch.cat([ramp, randn(59) * 3.0]).reshape(4, 30)


def activation_cases():
    cases = [
        ("gelu_none", "graph.gelu", {"approximate": "none"}, lambda x: F.gelu(x, approximate="none")),
        ("gelu_default", "graph.gelu", {}, lambda x: F.gelu(x)),
        ("gelu_tanh", "graph.gelu", {"approximate": "tanh"}, lambda x: F.gelu(x, approximate="tanh")),
        ("erf", "graph.erf", {}, torch.erf),
        ("sigmoid", "graph.sigmoid", {}, torch.sigmoid),
        ("tanh", "graph.tanh", {}, torch.tanh),
        ("relu", "graph.relu", {}, torch.relu),
        ("exp", "graph.exp", {}, torch.exp),
        ("neg", "graph.neg", {}, torch.neg),
        ("abs", "graph.abs", {}, torch.abs),
        ("floor", "graph.floor", {}, torch.floor),
        ("ceil", "graph.ceil", {}, torch.ceil),
        ("clamp", "graph.clamp", {"min": -1.5, "max": 2.25}, lambda x: torch.clamp(x, -1.5, 2.25)),
    ]
    for name, op, attrs, fn in cases:
        x = activation_input(name)
        op_case(name, [x], lambda g, xa, x=x, op=op, attrs=attrs, fn=fn: g.op(op, [xa], attrs, fn(x)),
                f"{op} {attrs} on [-8, 8] and random values")
    # Functions of positive inputs.
    for name, op, fn in [("log", "graph.log", torch.log), ("sqrt", "graph.sqrt", torch.sqrt),
                         ("rsqrt", "graph.rsqrt", torch.rsqrt), ("reciprocal", "graph.reciprocal", torch.reciprocal)]:
        seed(name)
        x = torch.rand(3, 17, dtype=torch.float32) * 4.0 + 0.25
        op_case(name, [x], lambda g, xa, x=x, op=op, fn=fn: g.op(op, [xa], {}, fn(x)), f"{op} on [0.25, 4.25)")


def binary_cases():
    for name, op, sa, sb, fn in [
        ("add_bcast", "graph.add", (2, 3, 1, 5), (4, 1), torch.add),
        ("sub_bcast", "graph.sub", (3, 1), (2, 3, 4), torch.sub),
        ("mul_scalar", "graph.mul", (2, 3, 4), (), torch.mul),
        ("div_bcast", "graph.div", (2, 3, 4), (3, 1), torch.div),
        ("max_bcast", "graph.max", (2, 1, 5), (3, 1), torch.maximum),
        ("min_bcast", "graph.min", (4, 5), (5,), torch.minimum),
        ("pow_bcast", "graph.pow", (3, 4), (4,), torch.pow),
    ]:
        seed(name)
        a, b = randn(*sa), randn(*sb)
        if op == "graph.div":
            b = b.sign() * (b.abs() + 0.5)
        if op == "graph.pow":
            a = a.abs() + 0.5
        op_case(name, [a, b], lambda g, x, y, a=a, b=b, op=op, fn=fn: g.op(op, [x, y], {}, fn(a, b)),
                f"{op}: {list(sa)} with {list(sb)}")


def reduce_cases():
    fns = {
        "sum": lambda x, axes, keep: x.sum(dim=axes, keepdim=keep),
        "mean": lambda x, axes, keep: x.mean(dim=axes, keepdim=keep),
        "max": lambda x, axes, keep: x.amax(dim=axes, keepdim=keep),
        "min": lambda x, axes, keep: x.amin(dim=axes, keepdim=keep),
    }
    for kind, axes, keep in [
        ("sum", [1], False), ("sum", [1], True), ("sum", [0, 1, 2, 3], False), ("sum", [-1, 0], True),
        ("mean", [0, 2], True), ("mean", [-2, -1], False), ("mean", [3], False), ("mean", [0, 1, 2, 3], True),
        ("max", [-1], True), ("max", [0], False), ("max", [1, 2], False),
        ("min", [1, 3], False), ("min", [2], True), ("min", [0, 1, 2, 3], False),
    ]:
        tag = "_".join(str(a).replace("-", "n") for a in axes)
        name = f"reduce_{kind}_axes{tag}_{'keep' if keep else 'drop'}"
        seed(name)
        x = randn(2, 3, 4, 5)
        want = fns[kind](x, tuple(axes), keep)
        op_case(name, [x],
                lambda g, xa, kind=kind, axes=axes, keep=keep, want=want:
                    g.op(f"graph.reduce_{kind}", [xa], {"axes": axes, "keepdims": keep}, want),
                f"reduce_{kind}: x [2, 3, 4, 5], axes {axes}, keepdims {keep}")


def movement_cases():
    name = "transpose_4d"
    seed(name)
    x = randn(2, 3, 4, 5)
    op_case(name, [x], lambda g, xa: g.op("graph.transpose", [xa], {"perm": [2, 0, 3, 1]}, x.permute(2, 0, 3, 1)),
            "transpose perm [2, 0, 3, 1]")
    name = "reshape_infer"
    seed(name)
    x = randn(2, 3, 4)
    op_case(name, [x], lambda g, xa: g.op("graph.reshape", [xa], {"shape": [4, -1]}, x.reshape(4, -1)),
            "reshape to [4, -1]")
    name = "broadcast_to"
    seed(name)
    x = randn(3, 1)
    op_case(name, [x], lambda g, xa: g.op("graph.broadcast_to", [xa], {"shape": [2, 3, 4]}, x.expand(2, 3, 4)),
            "broadcast_to [2, 3, 4]")
    name = "concat_axis1"
    seed(name)
    a, b, c = randn(2, 1, 3), randn(2, 4, 3), randn(2, 2, 3)
    op_case(name, [a, b, c], lambda g, x, y, z: g.op("graph.concat", [x, y, z], {"axis": 1}, torch.cat([a, b, c], 1)),
            "concat along axis 1")
    name = "split_axis_neg1"
    seed(name)
    x = randn(2, 3, 7)
    parts = torch.split(x, [2, 4, 1], dim=-1)

    def build_split(g, xa):
        # One op, three results: written by hand (the builder's op() has one result).
        types = ", ".join(ttype(p.shape) for p in parts)
        g.lines.append(f"  %0:3 = graph.split {xa.name} {{axis = -1, sizes = [2, 4, 1]}} : ({xa.type}) -> ({types})")
        g.count = 1
        return [Node(f"%0#{i}", p) for i, p in enumerate(parts)]

    op_case(name, [x], build_split, "split along axis -1 into [2, 4, 1]")
    name = "slice_steps"
    seed(name)
    x = randn(4, 9, 5)
    op_case(name, [x], lambda g, xa: g.op("graph.slice", [xa], {"starts": [1, 0, 2], "sizes": [2, 3, 3],
                                                                "steps": [2, 3, 1]}, x[1:4:2, 0:9:3, 2:5]),
            "slice starts [1, 0, 2], sizes [2, 3, 3], steps [2, 3, 1]")
    name = "pad_value"
    seed(name)
    x = randn(2, 3, 4)
    op_case(name, [x], lambda g, xa: g.op("graph.pad", [xa], {"low": [0, 1, 2], "high": [1, 0, 3], "value": -2.5},
                                          F.pad(x, (2, 3, 1, 0, 0, 1), value=-2.5)),
            "pad low [0, 1, 2], high [1, 0, 3], value -2.5")
    name = "gather_axis1_i64"
    seed(name)
    x = randn(3, 6, 2)
    idx = torch.tensor([[0, 5, -1], [2, 2, -6]], dtype=torch.int64)
    op_case(name, [x, idx], lambda g, xa, ia: g.op("graph.gather", [xa, ia], {"axis": 1},
                                                   torch.from_numpy(np.take(x.numpy(), idx.numpy(), axis=1))),
            "gather (numpy take) along axis 1 with i64 indices, negative ones included")


def special_value_cases():
    """NaN propagates through max-like ops (as in PyTorch and the contract); -inf logits
    get probability 0 (an attention mask)."""
    nan, inf = math.nan, math.inf

    def with_nans(name, *shape, count=3):
        seed(name)
        x = randn(*shape)
        flat = x.view(-1)
        for i in torch.randperm(flat.numel())[:count]:
            flat[i] = nan
        return x

    name = "max_pool2d_nan"
    x = with_nans(name, 1, 2, 6, 6)
    op_case(name, [x], lambda g, xa: g.op("graph.max_pool2d", [xa], {"kernel": [3, 3], "strides": [2, 2],
                                                                     "pads": [1, 1, 1, 1]},
                                          F.max_pool2d(x, 3, 2, padding=1)),
            "max_pool2d with NaN inputs: a window holding NaN yields NaN")
    for kind, fn in (("max", torch.amax), ("min", torch.amin)):
        name = f"reduce_{kind}_nan"
        x = with_nans(name, 4, 6)
        op_case(name, [x], lambda g, xa, x=x, kind=kind, fn=fn:
                    g.op(f"graph.reduce_{kind}", [xa], {"axes": [1], "keepdims": False}, fn(x, dim=1)),
                f"reduce_{kind} with NaN inputs")
    for name, op, fn in (("max_nan", "graph.max", torch.maximum), ("min_nan", "graph.min", torch.minimum)):
        a, b = with_nans(name + "_a", 3, 5), with_nans(name + "_b", 5)
        op_case(name, [a, b], lambda g, x, y, a=a, b=b, op=op, fn=fn: g.op(op, [x, y], {}, fn(a, b)),
                f"{op} with NaN inputs")
    for name, op, attrs, fn in (("relu_nan", "graph.relu", {}, torch.relu),
                                ("clamp_nan", "graph.clamp", {"min": -0.5, "max": 0.5},
                                 lambda t: torch.clamp(t, -0.5, 0.5))):
        x = with_nans(name, 2, 7)
        op_case(name, [x], lambda g, xa, x=x, op=op, attrs=attrs, fn=fn: g.op(op, [xa], attrs, fn(x)),
                f"{op} keeps NaN")
    name = "softmax_masked"
    seed(name)
    x = randn(2, 3, 6)
    x[0, :, 4:] = -inf
    x[1, 1, ::2] = -inf
    op_case(name, [x], lambda g, xa: g.op("graph.softmax", [xa], {"axis": -1}, torch.softmax(x, dim=-1)),
            "softmax with -inf (masked) logits")


# ---------------------------------------------------------------------------------------
# Whole models
# ---------------------------------------------------------------------------------------


def check_shadow(name, shadow, want):
    err = (shadow.double() - want.double()).abs().max().item()
    scale = max(1.0, want.abs().max().item())
    print(f"  {name}: graph formulation (f64) vs torch module (f32): max abs err {err:.3e}")
    assert err <= 1e-5 * scale, f"{name}: the graph formulation does not match the module ({err})"


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        self.pool2 = nn.AvgPool2d(2)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.pool1(F.relu(self.conv1(x)))
        x = F.relu(self.bn(self.conv2(x)))
        x = torch.flatten(self.pool2(x), 1)
        return torch.softmax(self.fc(x), dim=1)


def small_cnn():
    name = "small_cnn"
    seed(name)
    m = SmallCNN()
    with torch.no_grad():
        m.bn.running_mean.copy_(torch.randn(16) * 0.5)
        m.bn.running_var.copy_(torch.rand(16) + 0.5)
        m.bn.weight.copy_(torch.rand(16) + 0.5)
        m.bn.bias.copy_(torch.randn(16) * 0.3)
        m.fc.weight.mul_(4.0)  # spread the logits so the softmax is far from uniform
    m.eval()
    x = randn(2, 3, 16, 16)
    with torch.no_grad():
        want = m(x)

    p = lambda t: t.detach().numpy()
    g = Graph()
    xa = g.arg(x.double())
    h = g.conv2d(xa, g.const(p(m.conv1.weight)), g.const(p(m.conv1.bias)), pads=(1, 1, 1, 1))
    h = g.unary("relu", h)
    h = g.max_pool2d(h, (2, 2), (2, 2))
    h = g.conv2d(h, g.const(p(m.conv2.weight)), strides=(2, 2), pads=(1, 1, 1, 1))
    # BatchNorm (eval): (h - mean) * (gamma * rsqrt(var + eps)) + beta, per channel.
    c = lambda t: g.const(p(t).reshape(16, 1, 1))
    h = g.binary("sub", h, c(m.bn.running_mean))
    inv = g.unary("rsqrt", g.binary("add", c(m.bn.running_var), g.const(np.array([m.bn.eps]))))
    h = g.binary("mul", h, g.binary("mul", inv, c(m.bn.weight)))
    h = g.binary("add", h, c(m.bn.bias))
    h = g.unary("relu", h)
    h = g.avg_pool2d(h, (2, 2), (2, 2))
    h = g.reshape(h, (2, 64))
    h = g.matmul(h, g.const(p(m.fc.weight).T))
    h = g.binary("add", h, g.const(p(m.fc.bias)))
    out = g.softmax(h, 1)
    check_shadow(name, out.value, want)
    save_case(name, g, [x], [(out, want)],
              "small CNN: conv3x3(3->8, pad 1)+bias, relu, maxpool 2x2, conv3x3(8->16, stride 2, pad 1), "
              "batchnorm (eval) as sub/mul/add, relu, avgpool 2x2, flatten, linear, softmax.\n"
              "Reference: torch nn.Module (nn.Conv2d, nn.BatchNorm2d, nn.Linear) with random weights.")


class AttentionBlock(nn.Module):
    """A BERT layer: self-attention + residual + LayerNorm, GELU FFN + residual + LayerNorm."""

    def __init__(self, hidden=32, heads=4, ffn=64):
        super().__init__()
        self.heads, self.d = heads, hidden // heads
        self.q, self.k, self.v, self.o = (nn.Linear(hidden, hidden) for _ in range(4))
        self.ln1 = nn.LayerNorm(hidden, eps=1e-5)
        self.ff1 = nn.Linear(hidden, ffn)
        self.ff2 = nn.Linear(ffn, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        b, s, h = x.shape

        def split(t):
            return t.view(b, s, self.heads, self.d).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        probs = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.d), dim=-1)
        ctx = (probs @ v).transpose(1, 2).reshape(b, s, h)
        h1 = self.ln1(x + self.o(ctx))
        return self.ln2(h1 + self.ff2(F.gelu(self.ff1(h1))))


def attention_block():
    name = "attention_block"
    seed(name)
    B, S, H, NH = 2, 8, 32, 4
    D = H // NH
    m = AttentionBlock(H, NH, 64)
    with torch.no_grad():
        for ln in (m.ln1, m.ln2):
            ln.weight.copy_(torch.rand(H) + 0.5)
            ln.bias.copy_(torch.randn(H) * 0.2)
    m.eval()
    x = randn(B, S, H)
    with torch.no_grad():
        want = m(x)

    p = lambda t: t.detach().numpy()
    g = Graph()
    xa = g.arg(x.double())

    def linear(t, lin):  # t @ W^T + b
        return g.binary("add", g.matmul(t, g.const(p(lin.weight).T)), g.const(p(lin.bias)))

    def layer_norm(t, ln, use_rsqrt):
        mean = g.reduce_mean(t, [-1], True)
        cen = g.binary("sub", t, mean)
        var = g.reduce_mean(g.binary("mul", cen, cen), [2], True)
        var_eps = g.binary("add", var, g.const(np.array([ln.eps])))
        if use_rsqrt:
            nrm = g.binary("mul", cen, g.unary("rsqrt", var_eps))
        else:
            nrm = g.binary("div", cen, g.unary("sqrt", var_eps))
        return g.binary("add", g.binary("mul", nrm, g.const(p(ln.weight))), g.const(p(ln.bias)))

    q = g.transpose(g.reshape(linear(xa, m.q), (B, S, NH, D)), (0, 2, 1, 3))  # B, NH, S, D
    kt = g.transpose(g.reshape(linear(xa, m.k), (B, S, NH, D)), (0, 2, 3, 1))  # B, NH, D, S
    v = g.transpose(g.reshape(linear(xa, m.v), (B, S, NH, D)), (0, 2, 1, 3))
    scores = g.binary("mul", g.matmul(q, kt), g.const(np.array(1.0 / math.sqrt(D))))  # rank-0 constant
    probs = g.softmax(scores, -1)
    ctx = g.reshape(g.transpose(g.matmul(probs, v), (0, 2, 1, 3)), (B, S, H))
    h1 = layer_norm(g.binary("add", linear(ctx, m.o), xa), m.ln1, True)
    f = linear(h1, m.ff1)
    # erf GELU: 0.5 * f * (1 + erf(f / sqrt(2)))
    e = g.unary("erf", g.binary("mul", f, g.const(np.array([1.0 / math.sqrt(2.0)]))))
    f = g.binary("mul", g.binary("mul", f, g.binary("add", e, g.const(np.array([1.0])))), g.const(np.array([0.5])))
    out = layer_norm(g.binary("add", h1, linear(f, m.ff2)), m.ln2, False)
    check_shadow(name, out.value, want)
    save_case(name, g, [x], [(out, want)],
              "BERT-style layer, hidden 32, 4 heads, seq 8, batch 2: q/k/v projections, per-head scaled\n"
              "dot-product attention, output projection, residual + layer norm (rsqrt), erf-GELU FFN (32->64->32),\n"
              "residual + layer norm (sqrt/div). Reference: torch nn.Linear, nn.LayerNorm, F.gelu, torch.softmax.")


class GroupNormBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.gn = nn.GroupNorm(2, 8)

    def forward(self, x):
        return F.relu(self.gn(self.conv(x)))


def group_norm_block():
    name = "group_norm_block"
    seed(name)
    m = GroupNormBlock()
    with torch.no_grad():
        m.gn.weight.copy_(torch.rand(8) + 0.5)
        m.gn.bias.copy_(torch.randn(8) * 0.5)
    m.eval()
    N, C, G, HW = 2, 8, 2, 6
    x = randn(N, 4, HW, HW)
    with torch.no_grad():
        want = m(x)

    p = lambda t: t.detach().numpy()
    g = Graph()
    xa = g.arg(x.double())
    h = g.conv2d(xa, g.const(p(m.conv.weight)), g.const(p(m.conv.bias)), pads=(1, 1, 1, 1))
    r = g.reshape(h, (N, G, C // G, HW, HW))
    mean = g.reduce_mean(r, [2, 3, 4], True)
    cen = g.binary("sub", r, mean)
    var = g.reduce_mean(g.binary("mul", cen, cen), [-3, -2, -1], True)
    inv = g.unary("rsqrt", g.binary("add", var, g.const(np.array([m.gn.eps]))))
    nrm = g.reshape(g.binary("mul", cen, inv), (N, C, HW, HW))
    aff = g.binary("add", g.binary("mul", nrm, g.const(p(m.gn.weight).reshape(C, 1, 1))),
                   g.const(p(m.gn.bias).reshape(C, 1, 1)))
    out = g.unary("relu", aff)
    check_shadow(name, out.value, want)
    save_case(name, g, [x], [(out, want)],
              "conv3x3(4->8, pad 1)+bias, GroupNorm(2 groups, 8 channels) via reshape to [N, G, C/G, H, W],\n"
              "reduce_mean, sub, mul, rsqrt, reshape back, affine, relu. Reference: nn.Conv2d, nn.GroupNorm, F.relu.")


def elementwise_mix():
    """Elementwise ops with broadcasting, written out in graph ops and in PyTorch."""
    name = "elementwise_mix"
    seed(name)
    x = randn(2, 3, 5, 7)
    w = randn(3, 1, 7)
    b = randn(5, 1)
    with torch.no_grad():
        want = (torch.sigmoid(x * w + b) * torch.tanh(x)
                - torch.exp(-x.abs()) / (1 + x * x)
                + torch.clamp(x, -1.0, 1.0)
                + torch.maximum(F.gelu(x), torch.minimum(x, b)) * torch.relu(x - 0.5))

    g = Graph()
    xa = g.arg(x.double())
    wc, bc = g.const(w.numpy()), g.const(b.numpy())
    one, half = g.const(np.array(1.0)), g.const(np.array(0.5))
    s = g.unary("sigmoid", g.binary("add", g.binary("mul", xa, wc), bc))
    t = g.binary("mul", s, g.unary("tanh", xa))
    e = g.unary("exp", g.unary("neg", g.unary("abs", xa)))
    d = g.binary("add", one, g.binary("mul", xa, xa))
    u = g.binary("sub", t, g.binary("div", e, d))
    c = g.op("graph.clamp", [xa], {"min": -1.0, "max": 1.0}, xa.value.clamp(-1.0, 1.0))
    m = g.binary("max", g.unary("gelu", xa), g.binary("min", xa, bc))
    r = g.unary("relu", g.binary("sub", xa, half))
    out = g.binary("add", g.binary("add", u, c), g.binary("mul", m, r))
    check_shadow(name, out.value, want)
    save_case(name, g, [x], [(out, want)],
              "sigmoid(x*w + b)*tanh(x) - exp(-|x|)/(1 + x^2) + clamp(x, -1, 1) + max(gelu(x), min(x, b))*relu(x - 0.5)\n"
              "with w [3, 1, 7] and b [5, 1] broadcast against x [2, 3, 5, 7]. Reference: the same in torch ops.")


# ---------------------------------------------------------------------------------------


def main():
    os.makedirs(DATA, exist_ok=True)
    os.makedirs(MODELS, exist_ok=True)
    for d, ext in ((DATA, ".npy"), (MODELS, ".mlir")):
        for f in os.listdir(d):
            if f.endswith(ext):
                os.remove(os.path.join(d, f))
    conv_cases()
    pool_cases()
    matmul_cases()
    softmax_cases()
    activation_cases()
    binary_cases()
    reduce_cases()
    movement_cases()
    special_value_cases()
    small_cnn()
    attention_block()
    group_norm_block()
    elementwise_mix()
    total = sum(os.path.getsize(os.path.join(d, f)) for d in (DATA, MODELS) for f in os.listdir(d))
    print(f"wrote {len(WRITTEN)} cases, {total / 1024:.1f} KiB, into {os.path.relpath(HERE)}")
    assert total < 1.5 * 1024 * 1024, "reference data grew beyond 1.5 MB"


if __name__ == "__main__":
    sys.exit(main())
