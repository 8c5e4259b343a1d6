//! Data movement and constants against the interpreter: reshape, transpose, broadcast,
//! concat, split, slice, pad, gather, scatter and layout transforms on every element
//! type, and gather and scatter indices out of range failing the run.

use super::*;

#[test]
fn data_movement() {
    let any = [
        ScalarType::F32,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::I1,
        ScalarType::F64,
        ScalarType::I8,
        ScalarType::I16,
    ];
    property("graph.reshape", |r| {
        let s = r.shape_in(0, 4, 6);
        let n = numel(&s) as i64;
        let mut target = Vec::new();
        let mut rest = n;
        while rest > 1 {
            let d = (1..=rest).filter(|d| rest % d == 0).nth(r.int(0, 2) as usize).unwrap_or(rest);
            target.push(d);
            rest /= d;
        }
        if target.len() > 1 && r.chance(0.5) {
            target[0] = -1;
        }
        Case::new(&g::RESHAPE, vec![tensor_of(r, &any, &s, false)]).ints("shape", &target)
    });
    property("graph.transpose", |r| {
        let rank = r.int(1, 5) as usize;
        let mut perm: Vec<i64> = (0..rank as i64).collect();
        for i in (1..rank).rev() {
            perm.swap(i, r.int(0, i as i64) as usize);
        }
        let s = r.shape(rank, 6);
        Case::new(&g::TRANSPOSE, vec![tensor_of(r, &any, &s, false)]).ints("perm", &perm)
    });
    property("graph.broadcast_to", |r| {
        let s = r.shape_in(0, 4, 7);
        let small = broadcastable(r, &s);
        Case::new(&g::BROADCAST_TO, vec![tensor_of(r, &any, &small, false)]).ints("shape", &s)
    });
    property("graph.concat", |r| {
        let elem = r.pick(&any);
        let rank = r.int(1, 4) as usize;
        let s = r.shape(rank, 6);
        let axis = r.int(0, rank as i64 - 1);
        let inputs = (0..r.int(1, 3))
            .map(|_| {
                let mut t = s.clone();
                t[axis as usize] = r.int(1, 5);
                tensor(r, elem, &t, false)
            })
            .collect();
        let shown = if r.chance(0.3) { axis - rank as i64 } else { axis };
        Case::new(&g::CONCAT, inputs).attr("axis", Attribute::i64(shown))
    });
    property("graph.split", |r| {
        let rank = r.int(1, 4) as usize;
        let s = r.shape(rank, 8);
        let axis = r.int(0, rank as i64 - 1) as usize;
        let mut sizes = Vec::new();
        let mut left = s[axis];
        while left > 0 {
            let k = r.int(1, left);
            sizes.push(k);
            left -= k;
        }
        Case::new(&g::SPLIT, vec![tensor_of(r, &any, &s, false)])
            .attr("axis", Attribute::i64(axis as i64))
            .ints("sizes", &sizes)
    });
    property("graph.slice", |r| {
        let rank = r.int(1, 4) as usize;
        let s = r.shape(rank, 9);
        let (mut starts, mut sizes, mut steps) = (vec![], vec![], vec![]);
        for &d in &s {
            let step = r.int(1, 3);
            let start = r.int(0, d - 1);
            let max_size = (d - 1 - start) / step + 1;
            starts.push(start);
            sizes.push(r.int(1, max_size));
            steps.push(step);
        }
        let mut c =
            Case::new(&g::SLICE, vec![tensor_of(r, &any, &s, false)]).ints("starts", &starts).ints("sizes", &sizes);
        if r.chance(0.7) {
            c = c.ints("steps", &steps);
        } else {
            c = Case::new(&g::SLICE, vec![c.inputs[0].clone()]).ints("starts", &starts).ints(
                "sizes",
                &sizes.iter().zip(&starts).zip(&s).map(|((&z, &st), &d)| z.min(d - st)).collect::<Vec<_>>(),
            );
        }
        c
    });
    property("graph.pad", |r| {
        let rank = r.int(1, 4) as usize;
        let s = r.shape(rank, 6);
        let mut low: Vec<i64> = (0..rank).map(|_| r.int(0, 3)).collect();
        let mut high: Vec<i64> = (0..rank).map(|_| r.int(0, 3)).collect();
        // Trailing dimensions without padding (a blocked layout padded in W), which the
        // lowering folds into the last padded one.
        if r.chance(0.5) {
            let from = r.int(0, rank as i64 - 1) as usize;
            low[from..].fill(0);
            high[from..].fill(0);
            if from > 0 {
                low[from - 1] = r.int(1, 3);
            }
        }
        let elem = r.pick(&any);
        Case::new(&g::PAD, vec![tensor(r, elem, &s, false)])
            .ints("low", &low)
            .ints("high", &high)
            .attr("value", Attribute::f64(r.int(-3, 3) as f64 * 0.5))
    });
    property("graph.gather", |r| {
        // Sometimes rows long and many enough for the lowering's parallel chunks.
        let large = r.chance(0.2);
        let rank = if large { 2 } else { r.int(1, 3) as usize };
        let s = if large { vec![r.int(2, 40), r.int(200, 700)] } else { r.shape(rank, 7) };
        let axis = if large { 0 } else { r.int(0, rank as i64 - 1) as usize };
        let ind_shape = if large { vec![r.int(60, 120)] } else { r.shape_in(0, 2, 4) };
        let extent = s[axis];
        let n = numel(&ind_shape);
        let idx: Vec<i64> = (0..n).map(|_| r.int(-extent, extent - 1)).collect();
        let ind_dims: Vec<usize> = ind_shape.iter().map(|&d| d as usize).collect();
        let indices = if r.chance(0.5) {
            ITensor::new(ind_dims, Data::I64(idx)).unwrap()
        } else {
            ITensor::new(ind_dims, Data::I32(idx.iter().map(|&x| x as i32).collect())).unwrap()
        };
        Case::new(&g::GATHER, vec![tensor_of(r, &any, &s, false), indices]).attr("axis", Attribute::i64(axis as i64))
    });
    // Duplicate rows (the later write stays) and negative indices are drawn too.
    property("graph.scatter", |r| {
        let (n, k, c, w) = (r.int(1, 3), r.int(1, 9), r.int(1, 6), r.int(1, 6));
        let idx: Vec<i64> = (0..n * w).map(|_| r.int(-k, k - 1)).collect();
        let indices = if r.chance(0.5) {
            ITensor::new(vec![n as usize, w as usize], Data::I64(idx)).unwrap()
        } else {
            ITensor::new(vec![n as usize, w as usize], Data::I32(idx.iter().map(|&x| x as i32).collect())).unwrap()
        };
        let elem = r.pick(&any);
        let (values, input) = (tensor(r, elem, &[n, k, c], false), tensor(r, elem, &[n, w, c], false));
        Case::new(&g::SCATTER, vec![values, indices, input])
    });
    property("graph.layout_transform", |r| {
        let block = r.pick(&[2i64, 4, 8]);
        let (src, dst, shape) = match r.int(0, 3) {
            0 => (
                "NCHW".to_string(),
                format!("NCHW{block}c"),
                vec![r.int(1, 2), block * r.int(1, 3), r.int(1, 5), r.int(1, 5)],
            ),
            1 => (
                format!("NCHW{block}c"),
                "NCHW".to_string(),
                vec![r.int(1, 2), r.int(1, 3), r.int(1, 5), r.int(1, 5), block],
            ),
            2 => ("NCHW".to_string(), "NHWC".to_string(), r.shape(4, 5)),
            _ => (
                "OIHW".to_string(),
                format!("OIHW2i{block}o"),
                vec![block * r.int(1, 2), 2 * r.int(1, 3), r.int(1, 3), r.int(1, 3)],
            ),
        };
        // The result type is written, not inferred: every logical size kept.
        let (s, d) = (Layout::parse(&src).unwrap(), Layout::parse(&dst).unwrap());
        let out = transform_shape(&s, &d, &shape).unwrap();
        let mut case = Case::new(&g::LAYOUT_TRANSFORM, vec![tensor(r, ScalarType::F32, &shape, false)])
            .attr("src", Attribute::string(&src))
            .attr("dst", Attribute::string(&dst));
        case.results = Some(vec![Type::from_tensor(tcc::ir::TensorType::new(out, ScalarType::F32).unwrap())]);
        case
    });
}

#[test]
fn constants() {
    property("graph.constant", |r| {
        let s = r.shape_in(0, 3, 7);
        let t = tensor_of(r, NUM, &s, false);
        let mut c = Case::new(&g::CONSTANT, vec![]);
        c.attrs.set("value", Attribute::Dense(t.to_dense()));
        c
    });
}

#[test]
fn gather_out_of_range_fails_the_run() {
    let c = Case::new(
        &g::GATHER,
        vec![
            tensor(&mut Rng::new(3), ScalarType::F32, &[4, 2], false),
            ITensor::new(vec![2], Data::I64(vec![1, 9])).unwrap(),
        ],
    )
    .attr("axis", Attribute::i64(0));
    let err = run_error(&c, tcc::Backend::Cranelift);
    assert!(err.contains("index out of range") && err.contains("graph.gather"), "{err}");
}

#[test]
fn scatter_out_of_range_fails_the_run() {
    let mut r = Rng::new(4);
    let c = Case::new(
        &g::SCATTER,
        vec![
            tensor(&mut r, ScalarType::F32, &[1, 4, 2], false),
            ITensor::new(vec![1, 2], Data::I32(vec![1, 4])).unwrap(),
            tensor(&mut r, ScalarType::F32, &[1, 2, 2], false),
        ],
    );
    let err = run_error(&c, tcc::Backend::Cranelift);
    assert!(err.contains("index out of range") && err.contains("graph.scatter"), "{err}");
}
