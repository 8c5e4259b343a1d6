//! Internal errors: a panic in a pass or a backend (a bug in tcc, never the user's
//! input) becomes an error the caller can handle — a diagnostic from the CLI, an
//! exception in Python — instead of an abort with a Rust backtrace. Tests force one
//! with `TCC_INJECT_PANIC=<site>` (a pass name, or a site a caller checks with
//! [`inject_panic`]), so that every entry point's handling is tested.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::diagnostics::{Diagnostic, Diagnostics, Location};

/// The environment variable naming the site where [`inject_panic`] panics.
pub const INJECT_PANIC_VAR: &str = "TCC_INJECT_PANIC";

/// Runs `f`; a panic becomes `Err` with its message.
pub fn catch_internal_error<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into())
    })
}

/// The diagnostic of an internal error at `site` (a pass, a backend) compiling the
/// module at `loc`.
pub fn internal_error(loc: Location, site: &str, message: &str) -> Diagnostics {
    let d = Diagnostic::error(loc.clone(), format!("internal compiler error in {site}: {message}"))
        .with_note(loc, "this is a bug in tcc, not in the model; please report it with the model");
    let mut all = Diagnostics::new();
    all.push(d);
    all
}

/// For programs that turn every panic into an error message (the command-line
/// tools): panics print nothing themselves, unless `RUST_BACKTRACE` asks for the
/// panic's location and backtrace (for a bug report; `RUST_BACKTRACE=0` does not).
pub fn quiet_panics() {
    if std::env::var_os("RUST_BACKTRACE").is_none_or(|v| v == "0") {
        std::panic::set_hook(Box::new(|_| {}));
    }
}

/// Panics if `TCC_INJECT_PANIC` names `site`: the fault injection the tests of every
/// entry point's panic handling use.
pub fn inject_panic(site: &str) {
    if std::env::var_os(INJECT_PANIC_VAR).is_some_and(|s| s == site) {
        panic!("{INJECT_PANIC_VAR}: injected panic at '{site}'");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_messages() {
        assert_eq!(catch_internal_error(|| 7), Ok(7));
        assert_eq!(catch_internal_error(|| panic!("static")), Err::<(), _>("static".into()));
        let n = 3;
        assert_eq!(catch_internal_error(|| panic!("formatted {n}")), Err::<(), _>("formatted 3".into()));
        let text = internal_error(Location::unknown(), "pass 'cse'", "boom").to_string();
        assert!(
            text.contains("internal compiler error in pass 'cse': boom") && text.contains("a bug in tcc"),
            "{text}"
        );
    }
}
