//! Ahead-of-time compilation: models compiled with `tcc --emit=obj`, linked with a C
//! driver and `libtcc_runtime.a` by the machine's `cc`, run as separate programs; their
//! outputs must match the reference interpreter, with every backend of the build. One
//! program links two models at once (with LLVM built in, one from each backend). C
//! callers' mistakes (NULL pointers, bad thread counts) and a workspace that cannot be
//! allocated get error codes, not crashes, and no thread count makes a process start
//! more threads than the runtime's limit. A child forked after a multi-threaded run
//! runs the model on threads of its own (the parent's workers are not in it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use tcc::graph::{Data, Tensor, run_function};

const MODELS: [&str; 4] = ["small_cnn", "attention_block", "group_norm_block", "elementwise_mix"];

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dialects/graph/tests/reference")
}

fn tcc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tcc"))
}

/// A test's own scratch directory, removed when the test ends (objects and programs
/// are ~100 MB per run).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("tcc-aot-test-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// The model's input (from the reference data) and the interpreter's outputs.
fn interpret(model: &str) -> (Vec<f32>, Vec<Vec<f32>>) {
    let path = reference().join(format!("models/{model}.mlir"));
    let m = tcc::ir::parse_bytes(model, &std::fs::read(&path).unwrap(), &tcc::registry()).unwrap();
    let bytes = std::fs::read(reference().join(format!("data/{model}.in0.npy"))).unwrap();
    let npy = npyz::NpyFile::new(&bytes[..]).unwrap();
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    let input: Vec<f32> = npy.into_vec().unwrap();
    let t = Tensor::new(shape, Data::F32(input.clone())).unwrap();
    let outs = run_function(&m, m.func("main").unwrap(), &[t]).unwrap();
    (input, outs.iter().map(|o| o.as_f32s().unwrap().to_vec()).collect())
}

fn compile(model: &str, backend: &str, dir: &Path) -> PathBuf {
    compile_as(model, backend, dir, Artifact::Object)
}

/// What `compile_as` makes: an object to link with the runtime, or a static library
/// that holds it.
#[derive(Clone, Copy, PartialEq)]
enum Artifact {
    Object,
    StaticLibrary,
}

fn compile_as(model: &str, backend: &str, dir: &Path, artifact: Artifact) -> PathBuf {
    let (emit, out) = match artifact {
        Artifact::Object => ("--emit=obj", dir.join(format!("{model}.o"))),
        Artifact::StaticLibrary => ("--emit=staticlib", dir.join(format!("lib{model}.a"))),
    };
    let status = tcc()
        .arg(reference().join(format!("models/{model}.mlir")))
        .args([emit, "--backend", backend, "-o", out.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success(), "tcc {emit} --backend {backend} {model}");
    assert!(dir.join(format!("{model}.h")).exists(), "no header for {model}");
    out
}

/// C that reads each model's input from `argv` and writes its outputs next to it.
fn driver(models: &[&str]) -> String {
    let mut c = String::from("#include <stdio.h>\n#include <stdlib.h>\n");
    for m in models {
        c += &format!("#include \"{m}.h\"\n");
    }
    c += r#"
static float *read_floats(const char *path, long n) {
    float *p = malloc(sizeof(float) * n);
    FILE *f = fopen(path, "rb");
    if (!f || fread(p, sizeof(float), n, f) != (size_t)n) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
    fclose(f);
    return p;
}
static void write_floats(const char *path, const float *p, long n) {
    FILE *f = fopen(path, "wb");
    fwrite(p, sizeof(float), n, f);
    fclose(f);
}
int main(int argc, char **argv) {
    char path[4096];
    (void)argc;
"#;
    for (k, m) in models.iter().enumerate() {
        c += &format!(
            r#"    {{
        const float *inputs[1];
        float *outputs[{m_up}_NUM_OUTPUTS];
        inputs[0] = read_floats(argv[{a}], {m}_input_numel[0]);
        for (int i = 0; i < {m_up}_NUM_OUTPUTS; i++) outputs[i] = malloc(sizeof(float) * {m}_output_numel[i]);
        int rc = {m}_run_threads(inputs, outputs, {threads});
        if (rc != 0) {{ fprintf(stderr, "{m}: %s\n", {m}_error_message(rc)); return 1; }}
        for (int i = 0; i < {m_up}_NUM_OUTPUTS; i++) {{
            snprintf(path, sizeof path, "%s.out%d", argv[{a}], i);
            write_floats(path, outputs[i], {m}_output_numel[i]);
        }}
    }}
"#,
            m_up = m.to_uppercase(),
            a = k + 1,
            threads = 1 + k % 2,
        );
    }
    c += "    return 0;\n}\n";
    c
}

/// Writes `source` as `dir/exe_name.c` and links it with `objects` and the runtime into
/// `dir/exe_name`.
fn link(source: &str, objects: &[PathBuf], dir: &Path, exe_name: &str) -> PathBuf {
    link_as(source, objects, dir, exe_name, Artifact::Object)
}

/// The same; static libraries are linked alone, with the link line the README gives.
fn link_as(source: &str, objects: &[PathBuf], dir: &Path, exe_name: &str, artifact: Artifact) -> PathBuf {
    let c = dir.join(format!("{exe_name}.c"));
    std::fs::write(&c, source).unwrap();
    let exe = dir.join(exe_name);
    let mut cc = Command::new("cc");
    cc.args(["-Wall", "-Werror", "-o", exe.to_str().unwrap(), c.to_str().unwrap()]).args(objects);
    if artifact == Artifact::Object {
        let runtime = String::from_utf8(tcc().arg("--print-runtime-lib").output().unwrap().stdout).unwrap();
        cc.arg(runtime.trim()).args(["-lpthread", "-lm", "-ldl"]);
    } else {
        cc.args(["-lpthread", "-lm"]);
    }
    let out = cc.current_dir(dir).output().expect("a C compiler (`cc`) is needed by this test");
    assert!(out.status.success(), "link failed:\n{}", String::from_utf8_lossy(&out.stderr));
    exe
}

/// Compiles each `(model, backend)`, links them into one program and checks its outputs.
fn build_and_run(models: &[(&str, &str)], dir: &Path, exe_name: &str) {
    build_and_run_as(models, dir, exe_name, Artifact::Object)
}

fn build_and_run_as(models: &[(&str, &str)], dir: &Path, exe_name: &str, artifact: Artifact) {
    let objects: Vec<PathBuf> = models.iter().map(|(m, b)| compile_as(m, b, dir, artifact)).collect();
    let models: Vec<&str> = models.iter().map(|(m, _)| *m).collect();
    let models = &models[..];
    let exe = link_as(&driver(models), &objects, dir, exe_name, artifact);
    let mut run = Command::new(&exe);
    let mut expected = Vec::new();
    for m in models {
        let (input, outs) = interpret(m);
        let path = dir.join(format!("{exe_name}.{m}.input"));
        std::fs::write(&path, input.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
        run.arg(&path);
        expected.push((m, path, outs));
    }
    let out = run.output().unwrap();
    assert!(out.status.success(), "{exe_name} failed: {}", String::from_utf8_lossy(&out.stderr));
    for (m, path, outs) in expected {
        for (i, want) in outs.iter().enumerate() {
            let bytes = std::fs::read(format!("{}.out{i}", path.display())).unwrap();
            let got: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            assert_eq!(got.len(), want.len(), "{m} output {i}");
            let scale = want.iter().fold(1.0f32, |a, x| a.max(x.abs()));
            let err = got.iter().zip(want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
            println!("{exe_name}: {m} output {i}: max error vs interpreter {err:.3e}");
            assert!(err <= 1e-4 * scale, "{m} output {i}: error {err}");
        }
    }
}

#[test]
fn each_model_links_and_matches_the_interpreter() {
    for backend in common::backends() {
        let dir = scratch(backend);
        for m in MODELS {
            build_and_run(&[(m, backend)], &dir, &format!("run_{m}"));
        }
    }
}

/// An object records the microkernel level its code calls: run under `TCC_ISA` naming
/// a lower level (or none), it refuses with its error code and message instead of
/// executing instructions the CPU may lack; at its level it runs.
#[test]
fn an_object_refuses_to_run_below_its_microkernel_level() {
    let Some(best) = tcc::Isa::host_best() else { return };
    let below = tcc::Isa::ALL.into_iter().rev().find(|&l| l < best).map_or("none", |l| l.name());
    let dir = scratch("isa");
    let model = "small_cnn";
    let object = dir.join(format!("{model}.o"));
    let status = tcc()
        .arg(reference().join(format!("models/{model}.mlir")))
        .args(["--emit=obj", "--isa", best.name(), "-o", object.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let exe = link(&driver(&[model]), &[object], &dir, "isa");
    let (input, _) = interpret(model);
    let path = dir.join("isa.input");
    std::fs::write(&path, input.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let out = Command::new(&exe).arg(&path).env("TCC_ISA", below).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "ran under TCC_ISA={below}");
    assert!(stderr.contains("microkernels of an ISA level this CPU does not run"), "{stderr}");
    let out = Command::new(&exe).arg(&path).env("TCC_ISA", best.name()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `--precision bf16` objects call the bf16 dot microkernel (where the CPU has AVX-512)
/// from the runtime library: they link, run on both backends, and stay within bf16's
/// precision of the f32 interpreter (and away from it: the operands were rounded).
#[test]
fn bf16_objects_link_and_run() {
    // (Its matmuls take the dot microkernel.)
    let model = "attention_block";
    let (input, want) = interpret(model);
    for backend in common::backends() {
        let dir = scratch(&format!("bf16-{backend}"));
        let object = dir.join(format!("{model}.o"));
        let status = tcc()
            .arg(reference().join(format!("models/{model}.mlir")))
            .args(["--emit=obj", "--backend", backend, "--precision", "bf16", "-o", object.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(status.success(), "{backend}");
        let exe = link(&driver(&[model]), &[object], &dir, "bf16");
        let path = dir.join("bf16.input");
        std::fs::write(&path, input.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
        let out = Command::new(&exe).arg(&path).output().unwrap();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        let bytes = std::fs::read(format!("{}.out0", path.display())).unwrap();
        let got: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let scale = want[0].iter().fold(1e-30f32, |a, x| a.max(x.abs()));
        let err = got.iter().zip(&want[0]).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max) / scale;
        println!("{backend}: bf16 object's error against the f32 interpreter {err:.3e}");
        assert!(err > 1e-6 && err < 2e-2, "{backend}: error {err}");
    }
}

#[test]
fn static_libraries_link_alone_and_match_the_interpreter() {
    for backend in common::backends() {
        let dir = scratch(&format!("staticlib-{backend}"));
        build_and_run_as(&[("small_cnn", backend)], &dir, "from_library", Artifact::StaticLibrary);
    }
}

#[test]
fn two_models_link_into_one_program() {
    let dir = scratch("two");
    let second = *common::backends().last().unwrap();
    build_and_run(&[("small_cnn", "cranelift"), ("elementwise_mix", second)], &dir, "both");
}

/// Inputs and outputs of other element types (i8 wrapping, bool, a cast to i32, f16
/// squared up to infinity) through the header's typed entry point `<model>_run_typed`,
/// with each backend.
#[test]
fn typed_objects_run_with_their_element_types() {
    let model_text = "func.func @main(%a: tensor<4xi8>, %m: tensor<4xi1>, %h: tensor<4xf16>) -> (tensor<4xi8>, tensor<4xi32>, tensor<4xi1>, tensor<4xf16>) {\n  \
        %0 = graph.add %a, %a : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>\n  \
        %1 = graph.cast %a : (tensor<4xi8>) -> tensor<4xi32>\n  \
        %2 = graph.not %m : (tensor<4xi1>) -> tensor<4xi1>\n  \
        %3 = graph.mul %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>\n  \
        return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi32>, tensor<4xi1>, tensor<4xf16>\n}\n";
    let driver = r#"#include <stdio.h>
#include "typed.h"

int main(void) {
    const int8_t a[4] = {100, -3, 7, 127};
    const bool m[4] = {true, false, true, false};
    const _Float16 h[4] = {0.5, -1.5, 3.0, 300.0};
    int8_t twice[4];
    int32_t wide[4];
    bool not_m[4];
    _Float16 square[4];
    int code = typed_run_typed(a, m, h, twice, wide, not_m, square);
    if (code != 0) {
        printf("error %d: %s\n", code, typed_error_message(code));
        return 1;
    }
    for (int i = 0; i < 4; i++) printf("%d %d %d %g\n", twice[i], wide[i], not_m[i], (double)square[i]);
    return 0;
}
"#;
    for backend in common::backends() {
        let dir = scratch(&format!("typed-{backend}"));
        let model = dir.join("typed.mlir");
        std::fs::write(&model, model_text).unwrap();
        let object = dir.join("typed.o");
        let out = tcc().arg(&model).args(["--emit=obj", "--backend", backend, "-o"]).arg(&object).output().unwrap();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        let header = std::fs::read_to_string(dir.join("typed.h")).unwrap();
        assert!(
            header.contains("static inline int typed_run_typed(const int8_t *input0, const bool *input1, const _Float16 *input2, int8_t *output0, int32_t *output1, bool *output2, _Float16 *output3)"),
            "{header}"
        );
        let exe = link(driver, &[object], &dir, "typed_driver");
        let run = Command::new(&exe).output().unwrap();
        assert!(run.status.success(), "{backend}: {}", String::from_utf8_lossy(&run.stdout));
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "-56 100 0 0.25\n-6 -3 1 2.25\n14 7 0 9\n-2 127 1 inf\n",
            "{backend}"
        );
    }
}

/// Buffers for every input and output of `model` (the C tests' common part).
const C_BUFFERS: &str = r#"#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

static const float *inputs[MODEL_NUM_INPUTS];
static float *outputs[MODEL_NUM_OUTPUTS];

static void alloc_buffers(void) {
    for (int i = 0; i < MODEL_NUM_INPUTS; i++) inputs[i] = calloc(model_input_numel[i], sizeof(float));
    for (int i = 0; i < MODEL_NUM_OUTPUTS; i++) outputs[i] = calloc(model_output_numel[i], sizeof(float));
}
"#;

/// Calls the run functions with bad arguments (or, with `env` as argument, with
/// `TCC_NUM_THREADS` set to a bad value by the test): each call must return its
/// documented code, with a message, and nothing may crash.
const C_MISUSE: &str = r#"
_Static_assert(TCC_ERROR_NULL_INPUTS == -1 && TCC_ERROR_NULL_INPUT == -2, "documented codes");
_Static_assert(TCC_ERROR_NULL_OUTPUTS == -3 && TCC_ERROR_NULL_OUTPUT == -4, "documented codes");
_Static_assert(TCC_ERROR_INVALID_THREADS == -5 && TCC_ERROR_INVALID_THREADS_ENV == -6, "documented codes");
_Static_assert(TCC_ERROR_OUT_OF_MEMORY == -7 && TCC_MAX_THREADS == 256, "documented codes");
_Static_assert(TCC_ERROR_INTERNAL == -8, "documented codes");

static int failures = 0;

static void expect(const char *what, int got, int want) {
    const char *msg = model_error_message(got);
    int has_message = msg && msg[0] && strcmp(msg, "unknown error code") != 0;
    if (got != want || !has_message) {
        fprintf(stderr, "%s: got %d (%s), expected %d\n", what, got, msg ? msg : "NULL", want);
        failures++;
    } else {
        printf("%s: %d: %s\n", what, got, msg);
    }
}

int main(int argc, char **argv) {
    alloc_buffers();
    if (argc > 1 && strcmp(argv[1], "env") == 0) {
        expect("bad TCC_NUM_THREADS, run", model_run(inputs, outputs), TCC_ERROR_INVALID_THREADS_ENV);
        expect("bad TCC_NUM_THREADS, threads = 0", model_run_threads(inputs, outputs, 0), -6);
        expect("bad TCC_NUM_THREADS, threads = 2", model_run_threads(inputs, outputs, 2), 0);
        return failures != 0;
    }
    if (argc > 1 && strcmp(argv[1], "internal") == 0) {
        /* The test sets TCC_INJECT_PANIC=aot-run: the runtime panics, the call returns. */
        expect("panic in the runtime", model_run(inputs, outputs), TCC_ERROR_INTERNAL);
        expect("panic in the runtime, again", model_run_threads(inputs, outputs, 2), -8);
        return failures != 0;
    }
    expect("valid", model_run(inputs, outputs), 0);
    expect("NULL inputs", model_run(NULL, outputs), -1);
    expect("NULL inputs, threads", model_run_threads(NULL, outputs, 2), -1);
    const float *in = inputs[MODEL_NUM_INPUTS - 1];
    inputs[MODEL_NUM_INPUTS - 1] = NULL;
    expect("NULL input element", model_run(inputs, outputs), -2);
    inputs[MODEL_NUM_INPUTS - 1] = in;
    expect("NULL outputs", model_run(inputs, NULL), -3);
    float *out = outputs[MODEL_NUM_OUTPUTS - 1];
    outputs[MODEL_NUM_OUTPUTS - 1] = NULL;
    expect("NULL output element", model_run_threads(inputs, outputs, 1), -4);
    outputs[MODEL_NUM_OUTPUTS - 1] = out;
    expect("threads = INT_MAX", model_run_threads(inputs, outputs, INT_MAX), -5);
    expect("threads = -1", model_run_threads(inputs, outputs, -1), -5);
    expect("threads = INT_MIN", model_run_threads(inputs, outputs, INT_MIN), -5);
    expect("threads = TCC_MAX_THREADS + 1", model_run_threads(inputs, outputs, TCC_MAX_THREADS + 1), -5);
    expect("valid after the errors", model_run_threads(inputs, outputs, 2), 0);
    return failures != 0;
}
"#;

/// Runs with every thread count from 1 to TCC_MAX_THREADS, then checks that the process
/// has not started more threads than the limit allows (one shared, growing pool).
const C_THREAD_COUNTS: &str = r#"
static int process_threads(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int n = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0) n = atoi(line + 8);
    if (f) fclose(f);
    return n;
}

int main(void) {
    alloc_buffers();
    for (int t = 1; t <= TCC_MAX_THREADS; t++) {
        int rc = model_run_threads(inputs, outputs, t);
        if (rc != 0) { fprintf(stderr, "threads = %d: %s\n", t, model_error_message(rc)); return 1; }
    }
    int after_all = process_threads();
    for (int t = TCC_MAX_THREADS; t >= 1; t /= 2) {
        if (model_run_threads(inputs, outputs, t) != 0) return 1;
    }
    int after_again = process_threads();
    printf("threads: %d after counts 1..%d, %d after more runs\n", after_all, TCC_MAX_THREADS, after_again);
    if (after_all < 1 || after_all > TCC_MAX_THREADS + 4 || after_again != after_all) {
        fprintf(stderr, "the process has %d threads, then %d (limit %d)\n", after_all, after_again, TCC_MAX_THREADS);
        return 1;
    }
    return 0;
}
"#;

/// `template` (C_BUFFERS and a C test, written for a model called `model`) for `model`.
fn for_model(template: &str, model: &str) -> String {
    format!("{C_BUFFERS}{template}").replace("MODEL", &model.to_uppercase()).replace("model", model)
}

#[test]
fn bad_arguments_return_error_codes() {
    for backend in common::backends() {
        let dir = scratch(&format!("misuse-{backend}"));
        let model = "elementwise_mix";
        let exe = link(&for_model(C_MISUSE, model), &[compile(model, backend, &dir)], &dir, "misuse");
        let out = Command::new(&exe).env_remove("TCC_NUM_THREADS").output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{backend}: {text}");
        assert!(text.contains("NULL inputs: -1: the inputs array is NULL"), "{text}");
        for bad in ["abc", "0", "-2", "1000", "99999999999999999999"] {
            let out = Command::new(&exe).arg("env").env("TCC_NUM_THREADS", bad).output().unwrap();
            let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert_eq!(out.status.code(), Some(0), "{backend}, TCC_NUM_THREADS={bad}: {text}");
        }
        // An internal error (a panic in the runtime, forced) is a code, not an abort.
        let out = Command::new(&exe).arg("internal").env("TCC_INJECT_PANIC", "aot-run").output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{backend}, injected panic: {text}");
        assert!(text.contains("panic in the runtime: -8: internal error in the tcc runtime"), "{text}");
    }
}

#[test]
fn thread_counts_are_bounded() {
    for backend in common::backends() {
        let dir = scratch(&format!("threads-{backend}"));
        let model = "small_cnn";
        let exe = link(&for_model(C_THREAD_COUNTS, model), &[compile(model, backend, &dir)], &dir, "thread_counts");
        let out = Command::new(&exe).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        println!("{backend}: {text}");
        assert_eq!(out.status.code(), Some(0), "{backend}: {text}");
    }
}

/// Runs the model on 2 and 3 threads, forks, and runs it again in the child (2 threads
/// twice, then 3, so the child's pool grows), and once more in a grandchild forked by
/// the child: each must give the parent's outputs, bit for bit, for the same thread
/// count (the loops are split the same way). `fork` copies only the calling thread:
/// a child that handed a loop to the parent's workers would wait for them forever, so
/// every process has an alarm and a hang fails the test instead of stalling it.
const C_FORK: &str = r#"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* expected[t - 1]: the parent's outputs on t threads (t = 2, 3). */
static float *expected[3][MODEL_NUM_OUTPUTS];

static int run(const char *who, int threads) {
    for (int i = 0; i < MODEL_NUM_OUTPUTS; i++) memset(outputs[i], 0, sizeof(float) * model_output_numel[i]);
    int rc = model_run_threads(inputs, outputs, threads);
    if (rc != 0) fprintf(stderr, "%s, threads = %d: %s\n", who, threads, model_error_message(rc));
    return rc == 0;
}

static int same_as_parent(const char *who, int threads) {
    if (!run(who, threads)) return 0;
    for (int i = 0; i < MODEL_NUM_OUTPUTS; i++)
        if (memcmp(outputs[i], expected[threads - 1][i], sizeof(float) * model_output_numel[i]) != 0) {
            fprintf(stderr, "%s, threads = %d: output %d differs from the parent's\n", who, threads, i);
            return 0;
        }
    printf("%s, threads = %d: same outputs\n", who, threads);
    fflush(stdout);
    return 1;
}

/* Forks; the child exits with `body`'s verdict, the parent waits and says whether it
   succeeded. Alarms are not inherited: the child sets its own, and a hung child dies of it. */
static int in_child(const char *who, int (*body)(void)) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 0; }
    if (pid == 0) {
        alarm(30);
        _exit(body() ? 0 : 1);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) { perror("waitpid"); return 0; }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        fprintf(stderr, "%s: killed by signal %d%s\n", who, sig, sig == SIGALRM ? " (it hung)" : "");
        return 0;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int grandchild(void) { return same_as_parent("grandchild", 2); }

static int child(void) {
    return same_as_parent("child", 2) && same_as_parent("child, again", 2) && same_as_parent("child", 3) &&
           in_child("grandchild", grandchild);
}

int main(void) {
    alloc_buffers();
    alarm(120);
    for (int i = 0; i < MODEL_NUM_INPUTS; i++)
        for (int64_t k = 0; k < model_input_numel[i]; k++) ((float *)inputs[i])[k] = (float)(k % 13) / 13.0f - 0.5f;
    for (int t = 2; t <= 3; t++) {
        if (!run("parent", t)) return 1;
        for (int i = 0; i < MODEL_NUM_OUTPUTS; i++) {
            expected[t - 1][i] = malloc(sizeof(float) * model_output_numel[i]);
            memcpy(expected[t - 1][i], outputs[i], sizeof(float) * model_output_numel[i]);
        }
    }
    /* The parent's last run was on 3 threads: the pool has 2 workers, which the child lacks. */
    if (!in_child("child", child)) return 1;
    return !same_as_parent("parent, after the fork", 2);
}
"#;

#[test]
fn a_forked_child_runs_on_threads_of_its_own() {
    for backend in common::backends() {
        let dir = scratch(&format!("fork-{backend}"));
        let model = "small_cnn";
        let exe = link(&for_model(C_FORK, model), &[compile(model, backend, &dir)], &dir, "fork");
        let out = Command::new(&exe).env_remove("TCC_NUM_THREADS").output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        println!("{backend}: {text}");
        assert_eq!(out.status.code(), Some(0), "{backend} (no code: killed, e.g. by its alarm): {text}");
        for line in ["child, threads = 3: same outputs", "grandchild, threads = 2: same outputs", "parent, after"] {
            assert!(text.contains(line), "{backend}: no '{line}' in\n{text}");
        }
    }
}

/// Runs a model whose workspace (2^46 bytes) cannot be allocated: the call returns
/// TCC_ERROR_OUT_OF_MEMORY with its message, and the program carries on.
const C_OUT_OF_MEMORY: &str = r#"
int main(void) {
    alloc_buffers();
    printf("workspace %llu bytes\n", (unsigned long long)MODEL_WORKSPACE_BYTES);
    for (int i = 0; i < 2; i++) {
        int rc = model_run_threads(inputs, outputs, 1);
        printf("rc %d: %s\n", rc, model_error_message(rc));
        if (rc != TCC_ERROR_OUT_OF_MEMORY) return 1;
    }
    return 0;
}
"#;

#[test]
fn an_unallocatable_workspace_is_an_error_code() {
    // Linux refuses a 64 TiB allocation unless it overcommits always.
    if std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|m| m.trim() == "1") {
        eprintln!("skipped: vm.overcommit_memory = 1 grants any allocation");
        return;
    }
    // A row broadcast to 16777216 x 1048576 (2^46 bytes) feeding a matmul: the
    // broadcast is materialized in the workspace.
    let (rows, cols) = (16777216u64, 1048576u64);
    let text = format!(
        "func.func @main(%x: tensor<1x{cols}xf32>, %w: tensor<{cols}x1xf32>) -> tensor<{rows}x1xf32> {{\n  %b = \
         graph.broadcast_to %x {{shape = [{rows}, {cols}]}} : (tensor<1x{cols}xf32>) -> tensor<{rows}x{cols}xf32>\n  \
         %0 = graph.matmul %b, %w : (tensor<{rows}x{cols}xf32>, tensor<{cols}x1xf32>) -> tensor<{rows}x1xf32>\n  \
         return %0 : tensor<{rows}x1xf32>\n}}\n"
    );
    for backend in common::backends() {
        let dir = scratch(&format!("oom-{backend}"));
        let model = dir.join("huge.mlir");
        std::fs::write(&model, &text).unwrap();
        let obj = dir.join("huge.o");
        let emit = |extra: &[&str]| {
            tcc().arg(&model).args(["--emit=obj", "--backend", backend, "-o"]).arg(&obj).args(extra).output().unwrap()
        };
        // Over the default budget: refused when compiled.
        let out = emit(&[]);
        assert_eq!(out.status.code(), Some(1), "{backend}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("more than the budget"), "{backend}");
        // Compiled anyway: the run returns the code instead of aborting the program.
        assert!(emit(&["--max-memory", "8E"]).status.success(), "{backend}");
        let exe = link(&for_model(C_OUT_OF_MEMORY, "huge"), std::slice::from_ref(&obj), &dir, "oom");
        let out = Command::new(&exe).env_remove("TCC_NUM_THREADS").output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{backend}: {text}");
        assert!(text.contains("workspace 70368744177664 bytes"), "{text}");
        assert!(text.contains("rc -7: cannot allocate the model's workspace"), "{text}");
    }
}
