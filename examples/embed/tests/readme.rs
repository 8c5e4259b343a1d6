//! The README's embedding section shows this example's code and dependency line
//! verbatim, and the example runs from the repository's root.

use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[test]
fn the_readme_shows_this_example() {
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).unwrap();
    let main = include_str!("../src/main.rs");
    let code = main.split_once("\n\n").map_or(main, |(_, code)| code); // without the //! paragraph
    assert!(readme.contains(code), "README.md's embedding example differs from examples/embed/src/main.rs");
    assert!(readme.contains("tcc = { path = \"PATH/TO/tcc/compiler/tcc\" }"), "README.md lacks the dependency line");
}

#[test]
fn the_example_runs() {
    let out = Command::new(env!("CARGO_BIN_EXE_tcc-embed-example")).current_dir(ROOT).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("resnet18.mlir: f32[1, 3, 32, 32] -> f32[1, 10], first values ["), "{text}");
}
