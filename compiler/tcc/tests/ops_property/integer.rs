//! Integer ops against the interpreter: division (a zero divisor fails the run), the
//! bit operations on values from the whole range, and shifts (an amount outside the bit
//! width fails the run).

use super::*;

#[test]
fn integer_division_by_zero_fails_the_run() {
    let c = Case::new(
        &g::DIV,
        vec![
            tensor(&mut Rng::new(1), ScalarType::I32, &[5], false),
            ITensor::new(vec![5], Data::I32(vec![1, 2, 0, 4, 5])).unwrap(),
        ],
    );
    let err = run_error(&c, tcc::Backend::Cranelift);
    assert!(err.contains("integer division by zero") && err.contains("graph.div"), "{err}");
}

/// An integer tensor with values from the whole range of `elem` (i1: either), small
/// ones and the extremes, so every bit matters.
fn bits_tensor(r: &mut Rng, elem: ScalarType, shape: &[i64]) -> ITensor {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let draw = |r: &mut Rng| match r.int(0, 3) {
        0 => r.int(-9, 9),
        1 => [i64::MIN, i64::MAX, -1, 0][r.int(0, 3) as usize],
        _ => r.next() as i64,
    };
    let n = numel(shape);
    let data = match elem {
        ScalarType::I1 => Data::I1((0..n).map(|_| r.chance(0.5)).collect()),
        ScalarType::I8 => Data::I8((0..n).map(|_| draw(r) as i8).collect()),
        ScalarType::I16 => Data::I16((0..n).map(|_| draw(r) as i16).collect()),
        ScalarType::I32 => Data::I32((0..n).map(|_| draw(r) as i32).collect()),
        _ => Data::I64((0..n).map(|_| draw(r)).collect()),
    };
    ITensor::new(dims, data).unwrap()
}

#[test]
fn integer_bit_operations() {
    const INTS: &[ScalarType] = &[ScalarType::I1, ScalarType::I8, ScalarType::I16, ScalarType::I32, ScalarType::I64];
    for def in [&g::AND, &g::OR, &g::XOR] {
        property(def.name, |r| {
            let mut c = binary(r, def, INTS, false);
            let elem = c.inputs[0].elem();
            for t in &mut c.inputs {
                *t = bits_tensor(r, elem, &t.shape().iter().map(|&d| d as i64).collect::<Vec<_>>());
            }
            c
        });
    }
    property("graph.not", |r| {
        let elem = r.pick(INTS);
        let s = r.shape_in(0, 4, 11);
        Case::new(&g::NOT, vec![bits_tensor(r, elem, &s)])
    });
    for def in [&g::SHIFT_LEFT, &g::SHIFT_RIGHT, &g::SHIFT_RIGHT_LOGICAL] {
        property(def.name, |r| {
            let mut c = binary(r, def, &[ScalarType::I8, ScalarType::I16, ScalarType::I32, ScalarType::I64], false);
            let elem = c.inputs[0].elem();
            let bits = elem.int_bits().expect("an integer type") as i64;
            let a_shape: Vec<i64> = c.inputs[0].shape().iter().map(|&d| d as i64).collect();
            c.inputs[0] = bits_tensor(r, elem, &a_shape);
            // Amounts in [0, bits): the same for every element (a splat) or per element.
            let uniform = r.int(0, bits - 1);
            let amounts: Vec<i64> =
                (0..c.inputs[1].numel()).map(|_| if r.chance(0.3) { uniform } else { r.int(0, bits - 1) }).collect();
            c.inputs[1] = ITensor::from_i64s(elem, c.inputs[1].shape().to_vec(), amounts).unwrap();
            c
        });
    }
}

#[test]
fn shifts_out_of_range_fail_the_run() {
    for amount in [32, -1] {
        let c = Case::new(
            &g::SHIFT_LEFT,
            vec![
                tensor(&mut Rng::new(1), ScalarType::I32, &[3], false),
                ITensor::new(vec![3], Data::I32(vec![1, amount, 2])).unwrap(),
            ],
        );
        for backend in tcc::backend::compiled_backends() {
            let err = run_error(&c, backend);
            assert!(err.contains("shift amount outside [0, 32)") && err.contains("graph.shift_left"), "{err}");
        }
    }
}
