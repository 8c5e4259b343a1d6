//! How many threads a model run uses: the one rule shared by the C API of compiled
//! objects, the CLI's `--threads` and the Rust builder's thread option.
//!
//! A thread count is valid from 1 to [`MAX_THREADS`] ([`validate_threads`]). No count
//! given means the default ([`resolve_threads`]): `TCC_NUM_THREADS` when it is set
//! ([`threads_from_env`], refused with an error when it is not a valid count), else one
//! thread per usable physical core (at most [`MAX_THREADS`]). Errors are messages for
//! the user; nothing here aborts.

use std::sync::OnceLock;

pub use tcc_runtime_abi::threads::*;

/// One thread per usable physical core, at most [`MAX_THREADS`]. Counted once per
/// process (reading the topology costs a file per CPU).
pub fn physical_core_threads() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| crate::cpu::usable_physical_cores().len().clamp(1, MAX_THREADS))
}

/// The thread count of a run: `requested` if given (validated), else
/// `TCC_NUM_THREADS` if set (validated), else [`physical_core_threads`].
pub fn resolve_threads(requested: Option<usize>) -> Result<usize, String> {
    match requested {
        Some(n) => validate_threads(n),
        None => Ok(threads_from_env()?.unwrap_or_else(physical_core_threads)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_one_to_the_maximum_are_valid() {
        assert_eq!(validate_threads(1), Ok(1));
        assert_eq!(validate_threads(MAX_THREADS), Ok(MAX_THREADS));
        assert!(validate_threads(0).unwrap_err().contains("from 1 to 256"));
        assert!(validate_threads(MAX_THREADS + 1).unwrap_err().contains("at most 256"));
        assert!(validate_threads(usize::MAX).is_err());
    }

    #[test]
    fn parsed_counts() {
        assert_eq!(parse_threads(" 8 ", "--threads"), Ok(8));
        for (text, why) in [
            ("abc", "not a whole number"),
            ("2.5", "not a whole number"),
            ("", "not a whole number"),
            ("-1", "cannot be negative"),
            ("0", "from 1 to 256"),
            ("1000", "at most 256"),
            ("99999999999999999999999", "too large"),
        ] {
            let e = parse_threads(text, "TCC_NUM_THREADS").unwrap_err();
            assert!(e.contains("TCC_NUM_THREADS") && e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn explicit_counts_win_over_the_default() {
        assert_eq!(resolve_threads(Some(3)), Ok(3));
        assert!(resolve_threads(Some(0)).is_err());
        assert!((1..=MAX_THREADS).contains(&physical_core_threads()));
    }
}
