//! Ahead-of-time compilation: models compiled with `tcc --emit=obj`, linked with a C
//! driver and `libtcc_runtime.a` by the machine's `cc`, run as separate programs; their
//! outputs must match the reference interpreter, with every backend of the build. One
//! program links two models at once (with LLVM built in, one from each backend).

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

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcc-aot-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let obj = dir.join(format!("{model}.o"));
    let status = tcc()
        .arg(reference().join(format!("models/{model}.mlir")))
        .args(["--emit=obj", "--backend", backend, "-o", obj.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success(), "tcc --emit=obj --backend {backend} {model}");
    assert!(obj.with_extension("h").exists(), "no header for {model}");
    obj
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

/// Compiles each `(model, backend)`, links them into one program and checks its outputs.
fn build_and_run(models: &[(&str, &str)], dir: &Path, exe_name: &str) {
    let objects: Vec<PathBuf> = models.iter().map(|(m, b)| compile(m, b, dir)).collect();
    let models: Vec<&str> = models.iter().map(|(m, _)| *m).collect();
    let models = &models[..];
    let source = dir.join(format!("{exe_name}.c"));
    std::fs::write(&source, driver(models)).unwrap();
    let runtime = String::from_utf8(tcc().arg("--print-runtime-lib").output().unwrap().stdout).unwrap();
    let exe = dir.join(exe_name);
    let out = Command::new("cc")
        .args(["-Wall", "-Werror", "-o", exe.to_str().unwrap(), source.to_str().unwrap()])
        .args(&objects)
        .arg(runtime.trim())
        .args(["-lpthread", "-lm", "-ldl"])
        .current_dir(dir)
        .output()
        .expect("a C compiler (`cc`) is needed by this test");
    assert!(out.status.success(), "link failed:\n{}", String::from_utf8_lossy(&out.stderr));
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
        let dir = scratch().join(backend);
        std::fs::create_dir_all(&dir).unwrap();
        for m in MODELS {
            build_and_run(&[(m, backend)], &dir, &format!("run_{m}"));
        }
    }
}

#[test]
fn two_models_link_into_one_program() {
    let dir = scratch().join("two");
    std::fs::create_dir_all(&dir).unwrap();
    let second = *common::backends().last().unwrap();
    build_and_run(&[("small_cnn", "cranelift"), ("elementwise_mix", second)], &dir, "both");
}

#[test]
fn objects_need_float_interfaces() {
    let dir = scratch();
    let model = dir.join("ints.mlir");
    std::fs::write(&model, "func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {\n  return %a : tensor<4xi32>\n}\n")
        .unwrap();
    let out = tcc().arg(&model).args(["--emit=obj", "-o"]).arg(dir.join("ints.o")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("input #0 of element type i32"), "{err}");
}
