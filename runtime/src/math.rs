//! f64 math functions compiled code calls (f32 math is expanded inline by the
//! compiler's `expand-math` pass). Each is the correctly rounded or near-correctly
//! rounded implementation of Rust's standard library or the `libm` crate.

#[unsafe(no_mangle)]
pub extern "C" fn tcc_exp_f64(x: f64) -> f64 {
    x.exp()
}

#[unsafe(no_mangle)]
pub extern "C" fn tcc_log_f64(x: f64) -> f64 {
    x.ln()
}

#[unsafe(no_mangle)]
pub extern "C" fn tcc_tanh_f64(x: f64) -> f64 {
    x.tanh()
}

#[unsafe(no_mangle)]
pub extern "C" fn tcc_erf_f64(x: f64) -> f64 {
    libm::erf(x)
}

#[unsafe(no_mangle)]
pub extern "C" fn tcc_pow_f64(x: f64, y: f64) -> f64 {
    x.powf(y)
}

#[unsafe(no_mangle)]
pub extern "C" fn tcc_sin_f64(x: f64) -> f64 {
    x.sin()
}

#[unsafe(no_mangle)]
pub extern "C" fn tcc_cos_f64(x: f64) -> f64 {
    x.cos()
}

/// The runtime symbols generated code may call, by name: the runtime's functions and
/// the microkernels of every ISA level (`tcc-ukernels`).
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    let mut all = vec![
        ("tcc_parallel_for_blocks", crate::pool::tcc_parallel_for_blocks as *const u8),
        ("tcc_aot_run", crate::aot::tcc_aot_run as *const u8),
        ("tcc_profile_mark", crate::profile::tcc_profile_mark as *const u8),
        ("tcc_exp_f64", tcc_exp_f64 as *const u8),
        ("tcc_log_f64", tcc_log_f64 as *const u8),
        ("tcc_tanh_f64", tcc_tanh_f64 as *const u8),
        ("tcc_erf_f64", tcc_erf_f64 as *const u8),
        ("tcc_pow_f64", tcc_pow_f64 as *const u8),
        ("tcc_sin_f64", tcc_sin_f64 as *const u8),
        ("tcc_cos_f64", tcc_cos_f64 as *const u8),
    ];
    all.extend(tcc_ukernels::symbols());
    all
}
