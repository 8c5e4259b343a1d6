"""The tcc Python package against checked-in models and their reference outputs.

Run with `pytest python/tests` after `pip install ./python` (test.sh does both).
"""

import pathlib
import sys

import numpy as np
import pytest

import tcc

REPO = pathlib.Path(__file__).resolve().parents[2]
SMALL = REPO / "benchmarks" / "models" / "small"
REFERENCE = REPO / "dialects" / "graph" / "tests" / "reference"

ADD_ONE = """func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = graph.constant {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = graph.add %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""


def relative_error(got, want):
    return float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))


@pytest.mark.parametrize("backend", tcc.backends())
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2", "bert_layer"])
def test_corpus_models_match_pytorch(name, backend, threads):
    model = tcc.compile(SMALL / f"{name}.mlir", backend=backend, threads=threads)
    x = np.load(SMALL / f"{name}.in0.npy")
    (y,) = model(x)
    want = np.load(SMALL / f"{name}.out0.npy")
    assert y.dtype == want.dtype and y.shape == want.shape
    assert relative_error(y, want) <= 1e-4


def test_text_and_path_compile_the_same_model():
    text = (REFERENCE / "models" / "small_cnn.mlir").read_text()
    x = np.load(REFERENCE / "data" / "small_cnn.in0.npy")
    from_text = tcc.compile(text)(x)
    from_path = tcc.compile(str(REFERENCE / "models" / "small_cnn.mlir"))(x)
    assert len(from_text) == len(from_path)
    for a, b in zip(from_text, from_path):
        np.testing.assert_array_equal(a, b)


def test_specs_threads_and_call():
    model = tcc.compile(ADD_ONE, threads=1)
    assert model.threads == 1
    assert [(s.dtype, s.shape) for s in model.inputs] == [(np.float32, (2, 3))]
    assert [(s.dtype, s.shape) for s in model.outputs] == [(np.float32, (2, 3))]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (y,) = model.run(x)
    np.testing.assert_array_equal(y, x + 1)
    # Non-contiguous inputs are fine; outputs are writable arrays of their own.
    (z,) = model(np.asfortranarray(x))
    np.testing.assert_array_equal(z, x + 1)
    z[0, 0] = 42.0


def test_bad_inputs_are_exceptions_with_the_reason():
    model = tcc.compile(ADD_ONE)
    with pytest.raises(TypeError, match="expected float32, got float64"):
        model(np.zeros((2, 3)))
    with pytest.raises(tcc.RunError, match=r"expected shape \[2, 3\], got \[3, 2\]"):
        model(np.zeros((3, 2), dtype=np.float32))
    with pytest.raises(tcc.RunError, match="takes 1 input"):
        model()


def test_bad_models_and_options_are_exceptions_with_locations():
    bad = ADD_ONE.replace("graph.add", "graph.nope")
    with pytest.raises(tcc.CompileError, match=r"<string>:3:8: error: the graph dialect has no op 'graph.nope'"):
        tcc.compile(bad)
    with pytest.raises(FileNotFoundError, match="no such model file"):
        tcc.compile("/no/such/model.mlir")
    with pytest.raises(tcc.CompileError, match="cannot read"):
        tcc.compile("/")
    with pytest.raises(ValueError, match="unknown backend"):
        tcc.compile(ADD_ONE, backend="gcc")
    with pytest.raises(ValueError, match="thread count"):
        tcc.compile(ADD_ONE, threads=0)
    assert issubclass(tcc.CompileError, tcc.TccError) and issubclass(tcc.RunError, tcc.TccError)


def test_memory_budget_and_absent_backends_are_options():
    # ADD_ONE needs 52 bytes: 24 of input, 24 of output, 4 of its constant.
    (y,) = tcc.compile(ADD_ONE, max_memory=52)(np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(y, np.ones((2, 3), np.float32))
    with pytest.raises(tcc.CompileError, match="the model needs 52 bytes .* more than the budget of 51 bytes"):
        tcc.compile(ADD_ONE, max_memory=51)
    with pytest.raises(ValueError, match="max_memory"):
        tcc.compile(ADD_ONE, max_memory=0)
    # A backend this build lacks is a bad option, not an error in the model.
    for absent in {"cranelift", "llvm"} - set(tcc.backends()):
        with pytest.raises(ValueError, match=f"backend '{absent}' is not in this build"):
            tcc.compile(ADD_ONE, backend=absent)


def _run_in_forked_child(model, x, queue):
    queue.put(model(x)[0])


def test_microkernel_levels_are_an_option():
    # A small convolution (blocked and called into microkernels on Cranelift) gives
    # the same result at every level this CPU runs and without microkernels; an
    # unknown level is a bad option.
    x = np.load(SMALL / "resnet18.in0.npy")
    want = np.load(SMALL / "resnet18.out0.npy")
    (y,) = tcc.compile(SMALL / "resnet18.mlir", isa="none")(x)
    assert relative_error(y, want) <= 1e-4
    for level in ["sse", "avx2", "avx512"]:
        try:
            model = tcc.compile(SMALL / "resnet18.mlir", isa=level)
        except ValueError as e:
            assert "does not run" in str(e)
            continue
        (y,) = model(x)
        assert relative_error(y, want) <= 1e-4
        assert f"{level} microkernels" in model.bench(runs=1, warmup=0)["target"]
    with pytest.raises(ValueError, match="unknown ISA level 'avx9'"):
        tcc.compile(ADD_ONE, isa="avx9")


def test_bf16_precision_rounds_convolutions_within_bf16_of_fp32():
    # precision="bf16" rounds the convolutions' inputs and weights to bf16: the result
    # moves from PyTorch's by about bf16's precision (8 significant bits), no further;
    # the interface stays f32. An unknown precision is a bad option.
    x = np.load(SMALL / "resnet18.in0.npy")
    want = np.load(SMALL / "resnet18.out0.npy")
    model = tcc.compile(SMALL / "resnet18.mlir", precision="bf16")
    (y,) = model(x)
    assert y.dtype == np.float32
    assert 1e-5 < relative_error(y, want) <= 2e-2
    assert model.bench(runs=1, warmup=0)["precision"] == "bf16"
    with pytest.raises(ValueError, match="unknown precision 'fp16'"):
        tcc.compile(ADD_ONE, precision="fp16")


def conv3x3_model(rng, c, o, hw):
    """A stride-1 3x3 convolution of `c` -> `o` channels on a `hw` x `hw` map, as MLIR."""
    w = (rng.standard_normal((o, c, 3, 3)) / np.sqrt(9 * c)).astype("<f4")
    x, y, wt = f"tensor<1x{c}x{hw}x{hw}xf32>", f"tensor<1x{o}x{hw}x{hw}xf32>", f"tensor<{o}x{c}x3x3xf32>"
    return (f"func.func @main(%x: {x}) -> {y} {{\n"
            f'  %w = graph.constant {{value = dense<"0x{w.tobytes().hex().upper()}"> : {wt}}} : () -> {wt}\n'
            f"  %y = graph.conv2d %x, %w {{dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]}}"
            f" : ({x}, {wt}) -> {y}\n  return %y : {y}\n}}\n")


def test_winograd_convolutions_are_an_option():
    # winograd="2x2" computes a convolution large enough to pay as F(2x2, 3x3): within
    # 1e-5 of the direct result's scale, and bench() says so and reports the error. An
    # unknown tile, or Winograd with bf16, is a bad option.
    rng = np.random.default_rng(0)
    text = conv3x3_model(rng, 128, 256, 16)
    x = rng.standard_normal((1, 128, 16, 16)).astype(np.float32)
    (want,) = tcc.compile(text, winograd="off")(x)
    model = tcc.compile(text, winograd="2x2")
    (y,) = model(x)
    assert 0 < relative_error(y, want) <= 1e-5
    report = model.bench(runs=1, warmup=0)
    assert report["winograd"] == "2x2" and report["error_vs_fp32"] <= 1e-5
    with pytest.raises(ValueError, match="unknown Winograd tile '3x3'"):
        tcc.compile(ADD_ONE, winograd="3x3")
    with pytest.raises(ValueError, match="needs precision"):
        tcc.compile(ADD_ONE, winograd="4x4", precision="bf16")


def test_the_rewrite_search_is_an_option():
    # A LoRA adapter beside its weight, x @ W + (x @ A) @ B: equality saturation merges
    # it into one matmul (fewer FLOPs per run than the graph as written), and both
    # match PyTorch. An unknown search mode is a bad option.
    x = np.load(SMALL / "lora_adapter.in0.npy")
    want = np.load(SMALL / "lora_adapter.out0.npy")
    flops = {}
    for mode in ["off", "eqsat"]:
        model = tcc.compile(SMALL / "lora_adapter.mlir", rewrite_search=mode)
        (y,) = model(x)
        assert relative_error(y, want) <= 1e-4
        flops[mode] = model.bench(runs=1, warmup=0)["flops"]
    assert flops["eqsat"] < flops["off"], flops
    with pytest.raises(ValueError, match="unknown search mode `best`"):
        tcc.compile(ADD_ONE, rewrite_search="best")


def test_a_forked_child_runs_a_model_on_two_threads():
    # After a run on two threads, a child forked by multiprocessing runs the same model
    # (its pool's workers are the parent's, gone in the child) and gets the same result.
    import multiprocessing

    model = tcc.compile(SMALL / "resnet18.mlir", threads=2)
    x = np.load(SMALL / "resnet18.in0.npy")
    (want,) = model(x)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_run_in_forked_child, args=(model, x, queue))
    child.start()
    got = queue.get(timeout=120)
    child.join(timeout=30)
    assert child.exitcode == 0
    np.testing.assert_array_equal(got, want)


def test_narrow_integer_inputs_outputs_and_casts():
    text = """func.func @main(%x: tensor<5xf32>, %n: tensor<3xi8>) -> (tensor<5xi8>, tensor<3xi16>) {
  %0 = tosa.cast %x : (tensor<5xf32>) -> tensor<5xi8>
  %1 = tosa.cast %n : (tensor<3xi8>) -> tensor<3xi16>
  return %0, %1 : tensor<5xi8>, tensor<3xi16>
}
"""
    model = tcc.compile(text)
    assert [(s.dtype, s.shape) for s in model.inputs] == [(np.float32, (5,)), (np.int8, (3,))]
    assert [(s.dtype, s.shape) for s in model.outputs] == [(np.int8, (5,)), (np.int16, (3,))]
    x = np.array([2.5, -3.5, 200.0, -200.0, 7.0], dtype=np.float32)
    a, b = model(x, np.array([-128, 0, 127], dtype=np.int8))
    assert a.dtype == np.int8 and b.dtype == np.int16
    np.testing.assert_array_equal(a, [2, -4, 127, -128, 7])
    np.testing.assert_array_equal(b, [-128, 0, 127])


EXPORTS = REPO / "compiler" / "tcc" / "tests" / "exports"


@pytest.mark.parametrize("backend", tcc.backends())
@pytest.mark.parametrize(
    "name",
    [
        "i8_add",
        "i16_mul",
        "i8_matmul",
        "bool_and",
        "argmax_nan_ties",
        "index_put_rows",
        "prod_i32_keepdim",
        "f16_linear_relu",
        "f16_casts",
        "bf16_linear_gelu",
        "bf16_casts",
    ],
)
def test_export_corpus_element_types_match_pytorch(name, backend):
    # i8, i16, f16, bf16, bool and i64 inputs and outputs of torch-mlir exports, against
    # PyTorch.
    def load(path):
        a = np.load(path)
        # ml_dtypes saves bfloat16 arrays as two-byte voids.
        return a.view(pytest.importorskip("ml_dtypes").bfloat16) if a.dtype.kind == "V" else a

    model = tcc.compile(EXPORTS / f"{name}.mlir", backend=backend)
    inputs = [load(p) for p in sorted(EXPORTS.glob(f"{name}.in*.npy"))]
    outputs = model(*inputs)
    wants = [load(p) for p in sorted(EXPORTS.glob(f"{name}.out*.npy"))]
    assert len(outputs) == len(wants)
    for got, want in zip(outputs, wants):
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype == np.float16 or want.dtype.name == "bfloat16":
            # f32 results rounded to 16 bits: a summation order apart, neighbouring
            # values (2^-11 relative in f16, 2^-8 in bf16).
            tolerance = 1e-3 if want.dtype == np.float16 else 1e-2
            assert relative_error(got.astype(np.float32), want.astype(np.float32)) <= tolerance
        elif np.issubdtype(want.dtype, np.floating):
            assert relative_error(got, want) <= 1e-5
        else:
            assert np.array_equal(got, want)


BF16_MODEL = """
func.func @main(%x: tensor<2x3xbf16>, %y: tensor<3x2xbf16>) -> tensor<2x2xbf16> {
  %0 = graph.matmul %x, %y : (tensor<2x3xbf16>, tensor<3x2xbf16>) -> tensor<2x2xbf16>
  %1 = graph.relu %0 : (tensor<2x2xbf16>) -> tensor<2x2xbf16>
  return %1 : tensor<2x2xbf16>
}
"""


@pytest.mark.parametrize("backend", tcc.backends())
def test_bf16_tensors_are_ml_dtypes_arrays(backend):
    # bf16 is a storage type: the op computes in f32, its result rounded to bf16.
    ml_dtypes = pytest.importorskip("ml_dtypes")
    model = tcc.compile(BF16_MODEL, backend=backend)
    assert model.inputs[0].dtype == np.dtype(ml_dtypes.bfloat16)
    x = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], dtype=ml_dtypes.bfloat16)
    y = np.array([[1.0, 2.0], [0.5, -0.75], [4.0, 1.0]], dtype=ml_dtypes.bfloat16)
    (z,) = model(x, y)
    want = np.maximum(x.astype(np.float32) @ y.astype(np.float32), 0).astype(ml_dtypes.bfloat16)
    assert z.dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(z.astype(np.float32), want.astype(np.float32))
    with pytest.raises(TypeError, match="expected bfloat16"):
        model(x.astype(np.float32), y)


def test_internal_errors_are_exceptions_not_panics(monkeypatch):
    # TCC_INJECT_PANIC forces a panic inside tcc: in a pass, in code generation, in a run.
    monkeypatch.setenv("TCC_INJECT_PANIC", "cse")
    with pytest.raises(tcc.CompileError, match="internal compiler error in pass 'cse'"):
        tcc.compile(ADD_ONE)
    monkeypatch.setenv("TCC_INJECT_PANIC", "codegen")
    with pytest.raises(tcc.CompileError, match="internal compiler error in code generation"):
        tcc.compile(ADD_ONE)
    monkeypatch.setenv("TCC_INJECT_PANIC", "run")
    model = tcc.compile(ADD_ONE)
    with pytest.raises(tcc.RunError, match="internal error in the runtime"):
        model(np.zeros((2, 3), dtype=np.float32))
    monkeypatch.delenv("TCC_INJECT_PANIC")
    (y,) = model(np.zeros((2, 3), dtype=np.float32))
    np.testing.assert_array_equal(y, np.ones((2, 3)))


def test_failed_runtime_checks_are_run_errors():
    text = """func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.div %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"""
    model = tcc.compile(text)
    x = np.array([8, 9, 10, 11], dtype=np.int32)
    (q,) = model(x, np.array([2, 3, 5, -11], dtype=np.int32))
    np.testing.assert_array_equal(q, [4, 3, 2, -1])
    with pytest.raises(tcc.RunError, match="division by zero"):
        model(x, np.array([1, 0, 1, 1], dtype=np.int32))


def test_from_torch_without_torch_mlir_says_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_mlir", None)
    with pytest.raises(tcc.TccError, match="needs torch-mlir"):
        tcc.from_torch(object(), np.zeros(1))


def test_from_torch_exports_and_matches_pytorch():
    torch = pytest.importorskip("torch")
    pytest.importorskip("torch_mlir")
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(8 * 8 * 8, 4))
    x = torch.randn(1, 3, 8, 8)
    model = tcc.from_torch(module, x)
    (y,) = model(x.numpy())
    want = module(x).detach().numpy()
    assert relative_error(y, want) <= 1e-4


def test_bench_reports_what_tcc_bench_json_reports():
    model = tcc.compile(SMALL / "resnet18.mlir", threads=1)
    report = model.bench(runs=3, warmup=1)
    assert report["backend"] == "cranelift" and report["threads"] == 1 and report["runs"] == 3
    assert report["latency_ms"]["median"] > 0 and report["compile_ms"] > 0
    assert report["flops"] > 0
    kernels = report["kernels"]
    assert kernels and all(k["ms"] >= 0 for k in kernels)
    # (The fastest run of a kernel takes no longer than its mean.)
    assert all(0 <= k["min_ms"] <= k["ms"] + 1e-4 for k in kernels)
    assert any(k["name"].startswith("graph.conv2d") for k in kernels)
    text_report = tcc.compile(ADD_ONE).bench(runs=2, warmup=0)
    assert text_report["model"] == "<string>" and text_report["runs"] == 2
    with pytest.raises(ValueError, match="runs"):
        model.bench(runs=0)


def test_tune_writes_a_database_later_compiles_read(tmp_path):
    db = tmp_path / "tuning.json"
    report = tcc.tune(SMALL / "resnet18.mlir", budget=3, threads=1, rewrite_search="off", tuning_db=db)
    assert db.exists() and report["database"] == str(db)
    kernels = report["kernels"]
    assert kernels and all(k["kernel"].startswith("graph.") for k in kernels)
    assert any(k["measured"] > 0 and k["tuned_seconds"] <= k["default_seconds"] for k in kernels)
    # Again: what was measured comes from the database.
    again = tcc.tune(SMALL / "resnet18.mlir", budget=3, threads=1, rewrite_search="off", tuning_db=db)
    measured = {k["kernel"] for k in kernels if k["measured"] > 0}
    assert all(k["measured"] == 0 for k in again["kernels"] if k["kernel"] in measured)
    with pytest.raises(ValueError, match="budget"):
        tcc.tune(SMALL / "resnet18.mlir", budget=0)
    with pytest.raises(FileNotFoundError):
        tcc.tune(tmp_path / "missing.mlir", budget=1)


def test_the_readme_example_runs(monkeypatch, capsys):
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Python\n") :]
    code = section[section.index("```python\n") + len("```python\n") :]
    code = code[: code.index("```")]
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert float(printed[0]) <= 1e-4 * float(np.abs(np.load(SMALL / "resnet18.out0.npy")).max())
    assert "median" in printed[1]
