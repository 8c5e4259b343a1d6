//! The checked-in torch-mlir exports (`benchmarks/models/small`): every model runs
//! through `tcc run --expect` with every backend of the build and matches PyTorch's
//! output within 1e-4 of its scale, and
//! the clean-up leaves CNNs as convs with folded batch norm, activations, adds and pools,
//! with no transposes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/models/small")
}

fn models() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".mlir").map(String::from))
        .collect();
    names.sort();
    names
}

#[test]
fn every_export_matches_pytorch() {
    let names = models();
    assert!(names.len() >= 7, "the corpus is missing models: {names:?}");
    for (name, backend) in names.iter().flat_map(|n| common::backends().into_iter().map(move |b| (n, b))) {
        let dir = corpus();
        let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
            .args(["run", dir.join(format!("{name}.mlir")).to_str().unwrap(), "--backend", backend])
            .args(["--input", dir.join(format!("{name}.in0.npy")).to_str().unwrap()])
            .args(["--expect", dir.join(format!("{name}.out0.npy")).to_str().unwrap()])
            .args(["--tolerance", "1e-4"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        println!("{name} ({backend}): {}", stdout.trim());
        assert!(out.status.success(), "{name} ({backend}): {stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(": ok"), "{name} ({backend}): no comparison reported: {stdout}");
    }
}

/// The optimized graph of a model, as `tcc --emit=graph` prints it without the rewrite
/// search (what the clean-up and kernel passes make of it; the search's merges are
/// tested on their own).
fn optimized_graph(name: &str) -> String {
    optimized_graph_with(name, &["--rewrite-search", "off"])
}

/// The same with `args` (the search, when on, by the estimate alone: measured costs, on
/// a machine busy with other tests, would change its choices between runs, and so
/// would those a cost database kept from earlier runs).
fn optimized_graph_with(name: &str, args: &[&str]) -> String {
    let no_costs = std::env::temp_dir().join(format!("tcc-tosa-models-no-costs-{}.json", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .arg(corpus().join(format!("{name}.mlir")))
        .args(["--emit=graph", "--estimate-costs", "--cost-db"])
        .arg(&no_costs)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn count(graph: &str, op: &str) -> usize {
    graph.lines().filter(|l| l.contains(&format!("= {op} "))).count()
}

/// Ops at the function's top level (not inside epilogue regions).
fn top_level(graph: &str, op: &str) -> usize {
    graph.lines().filter(|l| l.starts_with("    %") && l.contains(&format!("= {op} "))).count()
}

#[test]
fn cnn_exports_clean_up_to_blocked_kernels_with_fused_epilogues() {
    for name in ["resnet18", "resnet50", "mobilenet_v2", "vgg11", "squeezenet1_0"] {
        // This SqueezeNet's fire modules concatenate branches of 8 channels: blocks of
        // 4 (Cranelift without microkernels) hold them; blocks of 16 (AVX-512, either
        // backend) cannot, and the concatenation goes through NCHW.
        let g = if name == "squeezenet1_0" {
            optimized_graph_with(name, &["--isa", "none", "--rewrite-search", "off"])
        } else {
            optimized_graph(name)
        };
        assert!(count(&g, "graph.conv2d_nchwc") > 0, "{name}: no blocked convs");
        assert_eq!(count(&g, "graph.conv2d"), 0, "{name}: plain convs left:\n{g}");
        assert_eq!(count(&g, "graph.transpose"), 0, "{name}: transposes left:\n{g}");
        assert!(!g.contains("tosa."), "{name}: TOSA ops left");
        // Batch norm (sub/mul by per-channel constants) is folded into the convs.
        assert_eq!(count(&g, "graph.sub"), 0, "{name}: unfolded sub:\n{g}");
        assert!(count(&g, "graph.mul") <= 1, "{name}: unfolded mul:\n{g}");
        // Layouts change only at the graph's boundaries: into the first conv, out of the
        // last (a transform that moves no element, as NCHW -> NCHW1c of the 3-channel
        // input or NCHWc -> NCHW of the pooled 1x1 features, is a reshape).
        let transforms = top_level(&g, "graph.layout_transform");
        assert!(transforms <= 2, "{name}: inner layout transforms:\n{g}");
        // Elementwise ops after kernels are fused into them.
        for op in ["graph.add", "graph.clamp", "graph.relu"] {
            assert_eq!(top_level(&g, op), 0, "{name}: unfused {op}:\n{g}");
        }
    }
    // ResNet-18: 20 convs, 8 of them with a residual add (two adds: bias, residual).
    let g = optimized_graph("resnet18");
    assert_eq!(count(&g, "graph.conv2d_nchwc"), 20);
    let residual = g
        .split("graph.conv2d_nchwc")
        .skip(1)
        .filter(|k| k.split("graph.yield").next().unwrap().matches("= graph.add ").count() == 2);
    assert_eq!(residual.count(), 8, "resnet18: 8 residual adds fused:\n{g}");
    assert_eq!(count(&g, "graph.matmul_packed"), 1, "resnet18: the classifier is a packed matmul");
    // MobileNetV2: ReLU6 (maximum then minimum) became one clamp per activation.
    let g = optimized_graph("mobilenet_v2");
    assert_eq!(count(&g, "graph.max") + count(&g, "graph.min"), 0, "mobilenet_v2: ReLU6 not a clamp:\n{g}");
}

/// A LoRA layer kept beside its weight (`x @ W + x @ (A @ B)`, rank-3 matmuls as
/// torch-mlir exports them): `A @ B` folds, and the default search's generated rule
/// (distributivity, stated for any rank) merges the two matmuls into one by the folded
/// `W + A @ B`; with the search off, two remain. (`every_export_matches_pytorch` checks
/// the result.)
#[test]
fn a_lora_export_becomes_one_matmul() {
    let g = optimized_graph_with("lora_linear", &[]);
    let matmuls = |g: &str| count(g, "graph.matmul") + count(g, "graph.matmul_packed");
    assert_eq!(matmuls(&g), 1, "lora_linear: not merged:\n{g}");
    let off = optimized_graph_with("lora_linear", &["--rewrite-search", "off"]);
    assert_eq!(matmuls(&off), 2, "lora_linear with the search off:\n{off}");
}

/// The same layer as an adapter computes it, `x @ W + (x @ A) @ B`: equality saturation
/// merges it into one matmul (associativity, then distributivity, then the constants
/// fold). (At this small size the backtracking search gets there too: the associative
/// step costs little more here; `lit-tests/passes/search/eqsat.mlir` has a size where
/// it cannot.)
#[test]
fn a_lora_adapter_becomes_one_matmul_by_equality_saturation() {
    let matmuls = |g: &str| count(g, "graph.matmul") + count(g, "graph.matmul_packed");
    let g = optimized_graph_with("lora_adapter", &["--rewrite-search", "eqsat"]);
    assert_eq!(matmuls(&g), 1, "lora_adapter with eqsat:\n{g}");
    let off = optimized_graph_with("lora_adapter", &["--rewrite-search", "off"]);
    assert_eq!(matmuls(&off), 3, "lora_adapter with the search off:\n{off}");
}

/// A RepVGG block as it trains, `relu(bn(conv3x3(x)) + bn(conv1x1(x)))`: the batch
/// norms fold into the convolutions' biases, and a generated rule of the image world
/// (kernel enlargement and distributivity over addition, with biases) makes it one 3x3
/// convolution with the 32 output channels of one branch (not a 64-channel merge split
/// in two), RepVGG's re-parameterization; with the search off, two convolutions remain.
/// (`every_export_matches_pytorch` checks the result.)
#[test]
fn a_repvgg_block_becomes_one_convolution() {
    let g = optimized_graph_with("repvgg_block", &[]);
    assert_eq!(count(&g, "graph.conv2d_nchwc"), 1, "repvgg_block: not merged:\n{g}");
    assert!(g.contains("logical_channels = [16, 32]"), "repvgg_block: not one branch's width:\n{g}");
    let off = optimized_graph_with("repvgg_block", &["--rewrite-search", "off"]);
    assert_eq!(count(&off, "graph.conv2d_nchwc"), 2, "repvgg_block with the search off:\n{off}");
}
