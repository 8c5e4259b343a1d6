//! The 16-bit floats' conversions, compiled (`expand-half`: integer arithmetic on every
//! backend) against their definition (`tcc::ir::dense`), bit for bit: every f16 and
//! every bf16 widened, and f32 values around every half, their midpoints (ties), the
//! subnormal and overflow boundaries, f32 subnormals, infinities, NaNs of both signs and
//! random bits narrowed (and the same around bf16 values), and rounded in f32 lanes (a
//! rounding widened again); in vectors with a scalar tail, on every backend and 1 and 2
//! threads.

use super::*;
use tcc::ir::dense::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use tcc::{BF16, F16};

/// `cast` of `x` to `to`, compiled with every backend on 1 and 2 threads.
fn compiled_casts(x: &ITensor, to: ScalarType) -> Vec<(String, tcc::Tensor)> {
    let mut c = Case::new(&g::CAST, vec![x.clone()]);
    c.results = Some(vec![Type::tensor(vec![x.shape()[0] as i64], to).unwrap()]);
    let text = print_module(&build(&c).unwrap(), PrintOptions::default());
    let mut out = Vec::new();
    for backend in tcc::backend::compiled_backends() {
        for threads in [1, 2] {
            let model = tcc::Runtime::builder().backend(backend).threads(threads).load_str(&text).unwrap();
            let got = model.run(&[tcc::runtime_tensor(x).unwrap()]).unwrap().remove(0);
            out.push((format!("{backend:?}, {threads} thread(s)"), got));
        }
    }
    out
}

/// A 16-bit float format: its type, the interpreter's data of its bits, its definition's
/// conversions (`tcc::ir::dense`) and the runtime's widening and bits.
struct Format {
    ty: ScalarType,
    data: fn(Vec<u16>) -> Data,
    widen: fn(u16) -> f32,
    narrow: fn(f32) -> u16,
    runtime_widen: fn(u16) -> f32,
    /// The bits of each element of a compiled result of this type.
    bits: fn(&tcc::Tensor) -> Vec<u16>,
}

const HALF: Format = Format {
    ty: ScalarType::F16,
    data: Data::F16,
    widen: f16_to_f32,
    narrow: f32_to_f16,
    runtime_widen: |h| F16(h).to_f32(),
    bits: |t| t.as_slice::<F16>().unwrap().iter().map(|h| h.0).collect(),
};

const BFLOAT: Format = Format {
    ty: ScalarType::BF16,
    data: Data::BF16,
    widen: bf16_to_f32,
    narrow: f32_to_bf16,
    runtime_widen: |h| BF16(h).to_f32(),
    bits: |t| t.as_slice::<BF16>().unwrap().iter().map(|h| h.0).collect(),
};

/// Every value of `f` widened, compiled and by the runtime, bit for bit.
fn check_every_value_widens_exactly(f: &Format) {
    let values: Vec<u16> = (0..=u16::MAX).collect();
    let x = ITensor::new(vec![values.len()], (f.data)(values.clone())).unwrap();
    for (what, got) in compiled_casts(&x, ScalarType::F32) {
        for (&h, g) in values.iter().zip(got.as_slice::<f32>().unwrap()) {
            let want = (f.widen)(h);
            assert_eq!((f.runtime_widen)(h).to_bits(), want.to_bits(), "the runtime's widening of {h:#06x}");
            assert_eq!(g.to_bits(), want.to_bits(), "{what}: {} {h:#06x} widened to {g:e}, not {want:e}", f.ty);
        }
    }
}

/// `xs` narrowed to `f`, compiled, bit for bit.
fn check_narrowing(f: &Format, xs: &[f32]) {
    let x = ITensor::new(vec![xs.len()], Data::F32(xs.to_vec())).unwrap();
    for (what, got) in compiled_casts(&x, f.ty) {
        for (&v, g) in xs.iter().zip((f.bits)(&got)) {
            let want = (f.narrow)(v);
            assert_eq!(g, want, "{what}: {v:e} ({:#010x}) narrowed to {g:#06x}, not {want:#06x}", v.to_bits());
        }
    }
}

/// A value rounded to `f` and widened again inside one kernel (`half::round_in_f32`, in
/// f32 lanes) is the definition's narrowing then widening, bit for bit.
fn check_rounding_in_f32_lanes(f: &Format, xs: &[f32]) {
    let (n, half) = (xs.len(), f.ty);
    let text = format!(
        "func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n  \
         %0 = graph.cast %x : (tensor<{n}xf32>) -> tensor<{n}x{half}>\n  \
         %1 = graph.cast %0 : (tensor<{n}x{half}>) -> tensor<{n}xf32>\n  \
         return %1 : tensor<{n}xf32>\n}}\n"
    );
    let x = ITensor::new(vec![n], Data::F32(xs.to_vec())).unwrap();
    for backend in tcc::backend::compiled_backends() {
        for threads in [1, 2] {
            let model = tcc::Runtime::builder().backend(backend).threads(threads).load_str(&text).unwrap();
            let got = model.run(&[tcc::runtime_tensor(&x).unwrap()]).unwrap().remove(0);
            for (&v, g) in xs.iter().zip(got.as_slice::<f32>().unwrap()) {
                let want = (f.widen)((f.narrow)(v));
                assert_eq!(
                    g.to_bits(),
                    want.to_bits(),
                    "{backend:?}, {threads} thread(s): {v:e} rounded to {half} as {g:e}, not {want:e}"
                );
            }
        }
    }
}

/// f32 values around every half and its midpoints, the boundaries, specials and random
/// bits: whole vectors and a scalar tail.
fn narrowing_cases() -> Vec<f32> {
    let mut xs: Vec<f32> = Vec::new();
    // Every finite half, one f32 ulp either side, and the midpoint to the next half.
    for h in (0..0x7c00u16).chain(0x8000..0xfc00) {
        let v = f16_to_f32(h);
        let next = f16_to_f32(h + 1);
        xs.extend([v, f32::from_bits(v.to_bits() + 1), f32::from_bits(v.to_bits().saturating_sub(1))]);
        if next.is_finite() {
            xs.push((v + next) / 2.0);
        }
    }
    xs.extend([65504.0, 65519.99, 65520.0, 1e6, f32::MAX, f32::MIN_POSITIVE, 1e-40, -1e-45, 2f32.powi(-25)]);
    xs.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN, f32::from_bits(0x7f80_0001)]);
    let mut r = Rng::new(16);
    xs.extend((0..20_000).map(|_| f32::from_bits(r.next() as u32)));
    xs.truncate(xs.len() / 16 * 16 + 7);
    xs
}

/// f32 values around every 7th bf16 and its midpoints (ties to both parities), the
/// overflow boundary, subnormals, infinities, NaNs of both signs with payloads, and
/// random bits: whole vectors and a scalar tail.
fn bf16_narrowing_cases() -> Vec<f32> {
    let mut bits: Vec<u32> = Vec::new();
    for h in (0..0x7f80u16).chain(0x8000..0xff80).step_by(7) {
        let b = (h as u32) << 16;
        // The value, one f32 ulp either side, and around the midpoint to the next bf16
        // (a tie).
        bits.extend([b, b + 1, b.saturating_sub(1), b + 0x8000, b + 0x7fff, b + 0x8001]);
    }
    let mut xs: Vec<f32> = bits.into_iter().map(f32::from_bits).collect();
    xs.extend([f32::MAX, -f32::MAX, f32::MIN_POSITIVE, 1e-40, -1e-45, f32::from_bits(0x7f7f_8000)]);
    xs.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN, f32::from_bits(0x7f80_0001)]);
    xs.extend([f32::from_bits(0xffc1_2345), f32::from_bits(0x7fbf_ffff)]);
    let mut r = Rng::new(17);
    xs.extend((0..20_000).map(|_| f32::from_bits(r.next() as u32)));
    xs.truncate(xs.len() / 16 * 16 + 7);
    xs
}

#[test]
fn every_half_widens_exactly() {
    check_every_value_widens_exactly(&HALF);
}

#[test]
fn narrowing_rounds_to_nearest_even_like_the_definition() {
    check_narrowing(&HALF, &narrowing_cases());
}

#[test]
fn rounding_in_f32_lanes_is_narrowing_then_widening() {
    check_rounding_in_f32_lanes(&HALF, &narrowing_cases());
}

#[test]
fn every_bf16_widens_exactly() {
    check_every_value_widens_exactly(&BFLOAT);
}

#[test]
fn bf16_narrowing_rounds_to_nearest_even_like_the_definition() {
    check_narrowing(&BFLOAT, &bf16_narrowing_cases());
}

#[test]
fn bf16_rounding_in_f32_lanes_is_narrowing_then_widening() {
    check_rounding_in_f32_lanes(&BFLOAT, &bf16_narrowing_cases());
}
