"""tcc: a tensor compiler for CPU inference, from Python.

    import numpy as np, tcc
    model = tcc.compile("resnet18.mlir")            # a file, or MLIR text
    (y,) = model(np.load("resnet18.in0.npy"))        # numpy in, a list of numpy out

Models are MLIR: tcc's graph dialect, or TOSA as torch-mlir exports it
(`tcc.from_torch` exports a PyTorch module through torch-mlir when it is installed).
Errors are exceptions carrying tcc's messages: `CompileError` (with the location in
the model), `RunError`, `ValueError` for bad options, `TypeError` for inputs of the
wrong element type.
"""

import errno
import json
import os

import numpy as np

from . import _tcc
from ._tcc import CompileError, RunError, TccError, backends

__all__ = ["Model", "TensorSpec", "compile", "tune", "from_torch", "backends", "TccError", "CompileError",
           "RunError"]

# tcc's element type names and numpy's dtypes, both ways.
_DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "f16": np.float16,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "i1": np.bool_,
}
# numpy has no bfloat16; the ml_dtypes package (JAX's, TensorFlow's) adds one.
try:
    import ml_dtypes

    _DTYPES["bf16"] = ml_dtypes.bfloat16
except ImportError:
    pass
_NAMES = {np.dtype(v): k for k, v in _DTYPES.items()}


class TensorSpec:
    """The element type (a numpy dtype) and shape of a model input or output."""

    def __init__(self, dtype_name, shape):
        if dtype_name not in _DTYPES:
            raise TypeError(
                f"{dtype_name} tensors need a numpy dtype for them: numpy has no bfloat16, "
                "install the ml_dtypes package (pip install ml_dtypes)"
            )
        self.dtype = np.dtype(_DTYPES[dtype_name])
        self.shape = tuple(shape)

    def __repr__(self):
        return f"TensorSpec(dtype={self.dtype}, shape={self.shape})"


class Model:
    """A compiled model: `model(*arrays)` or `model.run(*arrays)` runs it."""

    def __init__(self, native, source, backend, max_memory, isa=None, precision="fp32", rewrite_search="taso",
                 winograd="auto"):
        self._native = native
        self._source = source
        self._backend = backend
        self._max_memory = max_memory
        self._isa = isa
        self._precision = precision
        self._rewrite_search = rewrite_search
        self._winograd = winograd
        self.inputs = [TensorSpec(d, s) for d, s in native.inputs()]
        self.outputs = [TensorSpec(d, s) for d, s in native.outputs()]
        self.threads = native.threads()

    def run(self, *arrays):
        """Runs the model on one array per input (array-likes are converted; the
        element type must be the input's). Returns a list of arrays, one per output."""
        if len(arrays) != len(self.inputs):
            raise RunError(f"the model takes {len(self.inputs)} input(s), got {len(arrays)}")
        packed = []
        for i, (a, spec) in enumerate(zip(arrays, self.inputs)):
            a = np.asarray(a)
            if a.dtype != spec.dtype:
                raise TypeError(f"input #{i}: expected {spec.dtype}, got {a.dtype} (convert it with .astype)")
            if a.shape != spec.shape:
                raise RunError(f"input #{i}: expected shape {list(spec.shape)}, got {list(a.shape)}")
            packed.append((_NAMES[a.dtype], list(a.shape), np.ascontiguousarray(a).tobytes()))
        return [
            np.frombuffer(data, dtype=_DTYPES[d]).reshape(shape)
            for d, shape, data in self._native.run(packed)
        ]

    __call__ = run

    def bench(self, runs=20, warmup=3):
        """What `tcc bench --json` reports, as a dict: the model compiled again with
        profiling and run `runs` times after `warmup` on random inputs (latency,
        GFLOP/s, compile time, and each kernel's time, GFLOP/s and GB/s)."""
        kind, value = self._source
        return json.loads(
            _tcc.bench(kind, value, self._backend, self.threads, runs, warmup, self._max_memory, self._isa,
                       self._precision, self._rewrite_search, self._winograd)
        )

    def __repr__(self):
        return f"Model(inputs={self.inputs}, outputs={self.outputs}, threads={self.threads})"


def _source(model):
    """("file", path) for a path (str or os.PathLike), ("text", text) for MLIR text."""
    if isinstance(model, os.PathLike) or (isinstance(model, str) and "\n" not in model and "{" not in model):
        path = os.fspath(model)
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, "no such model file", path)
        return ("file", path)
    if isinstance(model, str):
        return ("text", model)
    raise TypeError(f"expected a path or MLIR text, got {type(model).__name__}")


def compile(model, backend="cranelift", threads=None, max_memory=None, isa=None, precision="fp32",
            rewrite_search="taso", winograd="auto"):
    """Compiles `model`: a path to an MLIR file (str or os.PathLike), or MLIR text.

    `backend` is "cranelift" (always built) or "llvm" (if this build has it, see
    `tcc.backends()`; `ValueError` otherwise); `threads` is 1 to 256 (default:
    TCC_NUM_THREADS, else one per physical core); `max_memory` is the most bytes the
    model may need, its weights included (default: three quarters of physical memory):
    a model needing more raises `CompileError`; `isa` is the ISA level of the
    microkernels Cranelift's code calls: "avx512", "avx2", "sse" or "none" (default:
    TCC_ISA, else the best this CPU runs; a level it does not run is a `ValueError`);
    `precision` is what convolutions and matmuls compute in: "fp32" (exact) or "bf16"
    (their inputs and weights rounded to bf16, sums in f32; inputs and outputs keep
    their types); `rewrite_search` is the graph rewrite search: "taso" (the default:
    TASO's cost-based backtracking search with the generated and hand-written rules),
    "eqsat" (equality saturation), "greedy" or "off" (the graph as written);
    `winograd` computes stride-1 3x3 convolutions of 64 channels or more as Winograd
    convolutions where they pay: "auto" (the default: "4x4" under fp32, direct under
    bf16), "off" (direct), "2x2" (F(2x2,3x3), relative error ~3e-6) or "4x4"
    (F(4x4,3x3), fewer products, relative error ~6e-6); the last two fp32 only."""
    source = _source(model)
    native = _tcc.compile(*source, backend, threads, max_memory, isa, precision, rewrite_search, winograd)
    return Model(native, source, backend, max_memory, isa, precision, rewrite_search, winograd)


def tune(model, budget=300, backend="cranelift", threads=None, isa=None, precision="fp32", rewrite_search="taso",
         tuning_db=None, winograd="auto"):
    """Tunes `model` (a path or MLIR text, as for `compile`) on this machine within
    `budget` seconds, as `tcc tune` does: the model is compiled and timed in rounds, each
    distinct convolution, matmul and pool at its next candidate configuration, and each
    kernel's best (confirmed against its default) goes to the tuning database
    (`tuning_db`, default tcc's cache), which later compiles with the same backend, ISA
    level and threads read. Returns the report: a dict with the database, the machine,
    the seconds spent, the rounds and, per kernel, its instances, its default and tuned
    seconds in the model, the configurations measured (0: found in the database) and
    pruned, and the configuration chosen. Unless `winograd="off"` (or under bf16), each
    eligible convolution is first timed direct and as a Winograd convolution, and the
    report's "winograd" list gives, per convolution, both times and the choice."""
    source = _source(model)
    if tuning_db is not None:
        tuning_db = os.fspath(tuning_db)
    return json.loads(_tcc.tune(*source, float(budget), backend, threads, isa, precision, rewrite_search, tuning_db,
                                winograd))


def from_torch(module, *example_inputs, backend="cranelift", threads=None, max_memory=None, isa=None,
               precision="fp32", rewrite_search="taso", winograd="auto"):
    """Exports a PyTorch module with torch-mlir (as TOSA, at the example inputs'
    shapes) and compiles it."""
    try:
        from torch_mlir import fx
    except ImportError as e:
        raise TccError(
            "tcc.from_torch needs torch-mlir (pip install torch-mlir, with a matching torch); "
            f"importing it failed: {e}"
        ) from e
    exported = fx.export_and_import(module.eval(), *example_inputs, output_type="tosa", func_name="main")
    return compile(str(exported), backend=backend, threads=threads, max_memory=max_memory, isa=isa,
                   precision=precision, rewrite_search=rewrite_search, winograd=winograd)
