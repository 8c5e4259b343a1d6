//! `docs/ops.md` is generated from the op definitions; it must match them.

#[test]
fn op_reference_is_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tcc-opt")).arg("--print-op-docs").output().unwrap();
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).unwrap();
    let checked_in = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ops.md")).unwrap();
    assert!(checked_in == generated, "docs/ops.md is out of date: run `tcc-opt --print-op-docs > docs/ops.md`");
}

/// `docs/tosa.md` lists the TOSA ops tcc imports; it must match them.
#[test]
fn tosa_reference_is_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tcc-opt")).arg("--print-tosa-docs").output().unwrap();
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).unwrap();
    let checked_in = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tosa.md")).unwrap();
    assert!(checked_in == generated, "docs/tosa.md is out of date: run `tcc-opt --print-tosa-docs > docs/tosa.md`");
    assert!(generated.contains("| `tosa.conv2d` |") && generated.contains("| `tosa.reduce_product` |"), "{generated}");
}
