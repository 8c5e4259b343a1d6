//! Tuning: every configuration the tuner can emit computes what the interpreter
//! computes, and `tcc::tune` writes a database that later compiles read.
//!
//! The first test takes each kernel of small models (direct, pointwise, depthwise,
//! channel-multiplier and grouped convolutions with padding, strides and epilogues, a
//! pool, a matmul), as the pipeline makes it for every code generator, and compiles it
//! alone with candidates spread over all of its tuner's candidates
//! (`graph_opt::candidates::candidates`), on 1 and 2 threads, against the interpreter on the
//! same kernel op.

use tcc::graph::config::KernelConfig;
use tcc::graph::{Data, Tensor as ITensor, run_function};
use tcc::ir::{Module, Op};
use tcc::{Backend, Options};

mod common;

use common::Rng;

fn conv(x: [i64; 4], o: i64, k: i64, stride: i64, pad: i64, groups: i64, tail: &str) -> String {
    let (oh, ow) = ((x[2] + 2 * pad - k) / stride + 1, (x[3] + 2 * pad - k) / stride + 1);
    let xt = format!("tensor<{}x{}x{}x{}xf32>", x[0], x[1], x[2], x[3]);
    let wt = format!("tensor<{o}x{}x{k}x{k}xf32>", x[1] / groups);
    let yt = format!("tensor<{}x{o}x{oh}x{ow}xf32>", x[0]);
    format!(
        "func.func @main(%x: {xt}) -> {yt} {{\n\
         %w = graph.constant {{value = dense<0.125> : {wt}}} : () -> {wt}\n\
         %b = graph.constant {{value = dense<-0.5> : tensor<{o}xf32>}} : () -> tensor<{o}xf32>\n\
         %y = graph.conv2d %x, %w, %b {{strides = [{stride}, {stride}], pads = [{pad}, {pad}, {pad}, {pad}], groups = {groups}}} : ({xt}, {wt}, tensor<{o}xf32>) -> {yt}\n\
         %r = {tail} %y : ({yt}) -> {yt}\n\
         return %r : {yt}\n}}\n"
    )
}

fn models() -> Vec<String> {
    let pool = "func.func @main(%x: tensor<1x32x9x11xf32>) -> tensor<1x32x4x5xf32> {\n\
                %y = graph.max_pool2d %x {kernel = [3, 3], strides = [2, 2]} : (tensor<1x32x9x11xf32>) -> tensor<1x32x4x5xf32>\n\
                return %y : tensor<1x32x4x5xf32>\n}\n";
    let matmul = "func.func @main(%x: tensor<1x5x32xf32>) -> tensor<1x5x48xf32> {\n\
                  %w = graph.constant {value = dense<0.25> : tensor<32x48xf32>} : () -> tensor<32x48xf32>\n\
                  %y = graph.matmul %x, %w : (tensor<1x5x32xf32>, tensor<32x48xf32>) -> tensor<1x5x48xf32>\n\
                  return %y : tensor<1x5x48xf32>\n}\n";
    vec![
        conv([1, 32, 9, 13], 32, 3, 1, 1, 1, "graph.relu"),
        conv([1, 32, 7, 7], 48, 1, 1, 0, 1, "graph.sigmoid"),
        conv([1, 32, 10, 11], 32, 3, 2, 1, 32, "graph.relu"),
        conv([1, 16, 8, 9], 32, 3, 1, 1, 16, "graph.relu"),
        conv([1, 32, 6, 10], 32, 3, 1, 1, 2, "graph.relu"),
        pool.to_string(),
        matmul.to_string(),
    ]
}

/// The options of each code generator (Cranelift at a microkernel level chosen by
/// `seed`), on 1 or 2 threads.
fn generators(seed: u64) -> Vec<Options> {
    let mut levels: Vec<&str> = tcc::Isa::ALL.iter().filter(|i| i.is_supported()).map(|i| i.name()).collect();
    levels.push("none");
    tcc::backend::compiled_backends()
        .into_iter()
        .map(|backend| Options {
            backend,
            threads: Some(1 + (seed % 2) as usize),
            isa: (backend == Backend::Cranelift).then(|| levels[seed as usize % levels.len()].to_string()),
            rewrite_search: tcc::SearchMode::Off,
            untuned: true,
            ..Options::default()
        })
        .collect()
}

/// The kernel ops of `text` as the pipeline of `options` makes them, unconfigured.
fn kernels(text: &str, options: &Options) -> (Module, Vec<Op>) {
    let mut m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let session = tcc::Session::new(options).unwrap();
    tcc::pipeline::to_kernel_ops(&mut m, &session).unwrap();
    let func = m.func("main").unwrap();
    let entry = tcc::ir::builtin::func_entry(&m, func).unwrap();
    let ops = m.block_ops(entry).filter(|&op| tcc::graph::config::takes_config(&m, op)).collect();
    (m, ops)
}

#[test]
fn tuner_candidates_match_the_interpreter() {
    let mut seed = 0;
    for text in models() {
        seed += 1;
        for options in generators(seed) {
            let session = tcc::Session::new(&options).unwrap();
            let (m, ops) = kernels(&text, &options);
            assert!(!ops.is_empty(), "no kernel op\n{text}");
            for op in ops {
                // Every candidate, the bound's pruned ones too.
                let configs =
                    tcc::graph_opt::candidates::candidates(&m, op, &session.target, session.threads, true).configs;
                assert!(!configs.is_empty(), "no candidate for {}", m.name(op));
                let step = configs.len().div_ceil(6);
                // A spread of them, and every pass and padding variant.
                let variant = |c: &KernelConfig| match (c, &configs[0]) {
                    (KernelConfig::Conv(c), KernelConfig::Conv(d)) => {
                        (c.chunk_ic, c.pad_input) != (d.chunk_ic, d.pad_input)
                    }
                    _ => false,
                };
                let spread = configs.iter().step_by(step);
                for config in spread.chain(configs.iter().filter(|&c| variant(c))) {
                    let (mut one, copy) = tcc::search::standalone(&m, op);
                    config.set_on(&mut one, copy);
                    let what =
                        format!("{:?} {:?}: {} with {}", options.backend, options.isa, m.name(op), config.to_dict());
                    check(&one, &options, seed, &what);
                }
            }
        }
    }
}

/// The I/O bound prunes candidates but never the untuned one; what it keeps is a subset of
/// every candidate, in the same order; it prunes most of a 3x3 convolution's tiles.
#[test]
fn the_io_bound_prunes_tiles_far_from_it() {
    let options = generators(0).pop().unwrap();
    let session = tcc::Session::new(&options).unwrap();
    let (m, ops) = kernels(&models()[0], &options);
    for op in ops {
        let all = tcc::graph_opt::candidates::candidates(&m, op, &session.target, session.threads, true);
        let kept = tcc::graph_opt::candidates::candidates(&m, op, &session.target, session.threads, false);
        assert_eq!(all.pruned, 0);
        assert_eq!(kept.configs.len() + kept.pruned, all.configs.len());
        assert_eq!(kept.configs[0], all.configs[0], "the untuned configuration is kept");
        let mut rest = all.configs.iter();
        assert!(kept.configs.iter().all(|c| rest.any(|a| a == c)), "a subset, in order");
        assert!(kept.pruned * 2 > all.configs.len(), "{} of {} pruned", kept.pruned, all.configs.len());
    }
}

/// A padded 3x3 convolution whose filters leave L1 in one pass (256 input channels)
/// has its analytic default tile in input-channel passes of one block among its
/// candidates, whose filters stay in L1 (a lower bound than one pass's), kept where
/// that bound is within the factor of the best; its untuned tile on a padded input
/// (which the bound cannot see) is always kept. A dilated one's are not padded.
#[test]
fn passes_and_padding_are_candidates() {
    use tcc::graph_opt::{candidates, io_bound, kernel_config};
    let options = generators(0).pop().unwrap();
    let session = tcc::Session::new(&options).unwrap();
    let wide = conv([1, 256, 9, 13], 32, 3, 1, 1, 1, "graph.relu");
    let dilated = wide.replace("pads = [1, 1, 1, 1]", "pads = [2, 2, 2, 2], dilations = [2, 2]");
    for (text, padded) in [(wide.clone(), true), (dilated, false)] {
        let (m, ops) = kernels(&text, &options);
        let bound = |c: &KernelConfig| io_bound::loads_per_fma(&m, ops[0], c, &session.target).unwrap();
        let conv = |c: &KernelConfig| match c {
            KernelConfig::Conv(c) => c.clone(),
            other => panic!("{other:?}"),
        };
        let all = candidates::candidates(&m, ops[0], &session.target, session.threads, true).configs;
        let kept = candidates::candidates(&m, ops[0], &session.target, session.threads, false).configs;
        let default = kernel_config::default_config(&m, ops[0], &session.target).unwrap();
        let d = conv(&default);
        let passes = all
            .iter()
            .find(|c| {
                let c = conv(c);
                (c.tile_w, c.tile_oc, c.chunk_ic, c.pad_input) == (d.tile_w, d.tile_oc, Some(1), d.pad_input)
            })
            .unwrap_or_else(|| panic!("no candidate in passes of one block: {all:?}"));
        assert!(bound(passes) < bound(&default), "{} {}", bound(passes), bound(&default));
        let best = all.iter().map(bound).fold(f64::INFINITY, f64::min);
        assert_eq!(kept.contains(passes), bound(passes) <= candidates::BOUND_FACTOR * best);
        assert_eq!(kept.iter().any(|c| conv(c).pad_input == Some(true)), padded, "{kept:?}");
    }
}

/// Compiles `one` with `options` and compares its output on random inputs with the
/// interpreter's on the same module.
fn check(one: &Module, options: &Options, seed: u64, what: &str) {
    let func = one.func("main").unwrap();
    let entry = tcc::ir::builtin::func_entry(one, func).unwrap();
    let mut rng = Rng::new(seed);
    let mut interpreted = Vec::new();
    let mut compiled = Vec::new();
    for &arg in one.block_args(entry) {
        let shape: Vec<usize> = one.value_type(arg).as_tensor().unwrap().shape().iter().map(|&d| d as usize).collect();
        let values = rng.values(shape.iter().product::<usize>() as i64, 4.0);
        compiled.push(tcc::Tensor::from_slice(&values, &shape).unwrap());
        interpreted.push(ITensor::new(shape, Data::F32(values)).unwrap());
    }
    let want = run_function(one, func, &interpreted).unwrap_or_else(|e| panic!("{what}: {e}"))[0].to_f64s();
    let model = tcc::Model::compile(one.clone(), options).unwrap_or_else(|e| panic!("{what}: {e}"));
    let got = model.run(&compiled).unwrap_or_else(|e| panic!("{what}: {e}"));
    let got = got[0].as_slice::<f32>().unwrap();
    let scale = want.iter().fold(1e-3f64, |a, &v| a.max(v.abs()));
    for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
        assert!((g as f64 - w).abs() <= 1e-4 * scale, "{what}: element {i}: compiled {g}, interpreter {w}");
    }
}

fn settings(seconds: u64) -> tcc::tune::TuneSettings {
    tcc::tune::TuneSettings { budget: std::time::Duration::from_secs(seconds), ..Default::default() }
}

/// `tcc::tune` measures a model's kernels into the database; a compile with it takes
/// the tuned configurations (marked in the graph); a second run finds them all there.
#[test]
fn tuning_writes_a_database_that_compiles_read() {
    let dir = std::env::temp_dir().join(format!("tcc-tune-test-{}", std::process::id()));
    let db = dir.join("tuning.json");
    let text = conv([1, 16, 8, 9], 32, 3, 1, 1, 16, "graph.relu");
    let options = Options {
        threads: Some(1),
        rewrite_search: tcc::SearchMode::Off,
        tuning_db: Some(db.clone()),
        ..Options::default()
    };
    let module = || tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let mut seen = 0;
    let first = tcc::tune::tune(module(), &options, &settings(3), &mut |_| seen += 1).unwrap();
    assert!(seen > 0);
    assert_eq!(first.kernels.len(), 1);
    let kernel = &first.kernels[0];
    assert!(kernel.measured >= 1 && kernel.best_seconds.is_some(), "{kernel:?}");
    assert!(kernel.best_seconds <= kernel.default_seconds);
    // Compiles read it: the configuration is marked as the database's.
    let mut m = module();
    let session = tcc::Session::new(&options).unwrap();
    tcc::pipeline::optimize_graph(&mut m, &session).unwrap();
    let printed = tcc::ir::print_module(&m, tcc::ir::PrintOptions::default());
    assert!(printed.contains("config_source = \"database\""), "{printed}");
    // Not with `untuned`, nor for another thread count.
    for other in
        [Options { untuned: true, tuning_db: None, ..options.clone() }, Options { threads: Some(2), ..options.clone() }]
    {
        let mut m = module();
        tcc::pipeline::optimize_graph(&mut m, &tcc::Session::new(&other).unwrap()).unwrap();
        assert!(!tcc::ir::print_module(&m, tcc::ir::PrintOptions::default()).contains("config_source"));
    }
    // A second run measures nothing.
    let second = tcc::tune::tune(module(), &options, &settings(3), &mut |_| {}).unwrap();
    assert_eq!(second.kernels[0].measured, 0);
    assert_eq!(second.kernels[0].config, kernel.config);
    // A named database that is not one is an error, for compiles and for tuning.
    std::fs::write(&db, "not json").unwrap();
    let err = tcc::Session::new(&options).err().expect("an unreadable named database is an error");
    assert!(err.contains("not a tuning database"), "{err}");
    assert!(tcc::tune::tune(module(), &options, &settings(1), &mut |_| {}).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under a Winograd policy, `tcc::tune` times each eligible convolution direct and as a
/// Winograd convolution and records the choice; a compile follows the database's choice
/// over the analytic rule (here one that rejects so small a convolution), and a second
/// run measures nothing.
#[test]
fn tuning_chooses_winograd_convolutions_that_compiles_follow() {
    let dir = std::env::temp_dir().join(format!("tcc-tune-winograd-{}", std::process::id()));
    let db = dir.join("tuning.json");
    let text = conv([1, 8, 10, 10], 8, 3, 1, 1, 1, "graph.relu");
    let options = Options {
        threads: Some(1),
        rewrite_search: tcc::SearchMode::Off,
        tuning_db: Some(db.clone()),
        winograd: tcc::Winograd::F4,
        ..Options::default()
    };
    let module = || tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
    let first = tcc::tune::tune(module(), &options, &settings(2), &mut |_| {}).unwrap();
    assert_eq!(first.winograd.len(), 1, "{:?}", first.winograd);
    let choice = &first.winograd[0];
    assert_eq!(choice.measured, 2, "{choice:?}");
    assert!(choice.key.0.starts_with("winograd 4x4 graph.conv2d"), "{choice:?}");
    assert!(choice.default_seconds.is_some_and(|s| s > 0.0), "{choice:?}");
    // A second run finds the choice.
    let second = tcc::tune::tune(module(), &options, &settings(2), &mut |_| {}).unwrap();
    assert_eq!((second.winograd[0].measured, &second.winograd[0].config), (0, &choice.config));
    // Compiles follow the database, whichever way it says.
    let machine = tcc::tune::machine_key(&options, &tcc::Session::new(&options).unwrap().target);
    for winograd in [true, false] {
        let mut table = tcc::graph_opt::tuning::TuningDb::load(&db, &machine).unwrap();
        table.kernels.insert(choice.key.0.clone(), tcc::graph_opt::tuning::Tuned::winograd(winograd, 1.0, 1.0));
        table.save(&db).unwrap();
        let mut m = module();
        tcc::pipeline::to_kernel_ops(&mut m, &tcc::Session::new(&options).unwrap()).unwrap();
        let printed = tcc::ir::print_module(&m, tcc::ir::PrintOptions::default());
        assert_eq!(printed.contains("graph.conv2d_nchwc"), !winograd, "{printed}");
        let compiled = tcc::Runtime::builder().options(options.clone()).load_str(&text).unwrap();
        let x = tcc::Tensor::from_slice(&Rng::new(3).values(800, 100.0), &[1, 8, 10, 10]).unwrap();
        let (got, want) = (compiled.run(std::slice::from_ref(&x)).unwrap(), {
            let direct = Options { winograd: tcc::Winograd::Off, ..options.clone() };
            tcc::Runtime::builder().options(direct).load_str(&text).unwrap().run(&[x]).unwrap()
        });
        let (got, want) = (got[0].as_slice::<f32>().unwrap(), want[0].as_slice::<f32>().unwrap());
        let scale = want.iter().fold(1e-3f32, |a, v| a.max(v.abs()));
        assert!(got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-5 * scale), "winograd {winograd}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
