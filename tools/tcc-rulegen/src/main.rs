//! `tcc-rulegen`, the superoptimizer that generates and verifies graph rewrite rules
//! (TASO). Not built yet: it arrives with the rewrite-rules issue; this binary only
//! says so.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("tcc-rulegen: not built yet (it arrives with the rewrite-rules issue)");
    ExitCode::from(2)
}
