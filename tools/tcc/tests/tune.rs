//! `tcc tune`: tunes a model into the database it is given, reports progress and a
//! table, and compiles then read the database; bad budgets and models are errors.

use std::path::Path;
use std::process::Command;

fn tcc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tcc"))
}

fn small_cnn() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join("dialects/graph/tests/reference/models/small_cnn.mlir").display().to_string()
}

#[test]
fn tune_writes_the_database_compiles_read() {
    let dir = std::env::temp_dir().join(format!("tcc-cli-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("tuning.json").display().to_string();
    let model = small_cnn();
    let out = tcc()
        .args(["tune", &model, "--budget", "4s", "--threads", "1", "--rewrite-search", "off", "--tuning-db", &db])
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    // Progress (not a terminal: a line per round) and the table.
    assert!(stderr.contains("round 1/") && stderr.contains("with the defaults"), "{stderr}");
    assert!(stdout.contains("default ms") && stdout.contains("kernels in"), "{stdout}");
    assert!(stdout.contains("pruned by the I/O bound"), "{stdout}");
    assert!(std::fs::metadata(&db).is_ok());
    let graph = |extra: &[&str]| {
        let mut c = tcc();
        c.args([model.as_str(), "--emit=graph", "--threads", "1", "--rewrite-search", "off"]).args(extra);
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(graph(&["--tuning-db", &db]).contains("config_source = \"database\""));
    assert!(!graph(&["--untuned"]).contains("config_source"));
    // `tcc bench` counts the tuned kernels.
    let bench = |extra: &[&str]| {
        let mut c = tcc();
        c.args(["bench", model.as_str(), "--runs", "2", "--threads", "1", "--rewrite-search", "off"]).args(extra);
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let table = bench(&["--tuning-db", &db]);
    let line = table.lines().find(|l| l.trim_start().starts_with("tuned")).unwrap_or_else(|| panic!("{table}"));
    assert!(!line.contains(" 0 of"), "{line}");
    assert!(bench(&["--tuning-db", &db, "--json"]).contains("\"tuned\": true"));
    assert!(bench(&["--untuned"]).contains("tuned   0 of"));
    // Again: every kernel from the database.
    let out = tcc()
        .args(["tune", &model, "--budget", "4s", "--threads", "1", "--rewrite-search", "off", "--tuning-db", &db])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().filter(|l| l.contains("graph.")).all(|l| l.contains("database")), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_budgets_and_models_are_errors() {
    let model = small_cnn();
    for budget in ["0", "-5s", "5x", "forever", "1e9h"] {
        let out = tcc().args(["tune", &model, "--budget", budget]).output().unwrap();
        assert!(!out.status.success(), "--budget {budget} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--budget"), "{stderr}");
    }
    let out = tcc().args(["tune", "/nonexistent/model.mlir", "--budget", "1s"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("model.mlir"));
    // A named database that is not one.
    let dir = std::env::temp_dir().join(format!("tcc-cli-tune-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("tuning.json");
    std::fs::write(&db, "not json").unwrap();
    let out = tcc().args(["tune", &model, "--budget", "1s", "--tuning-db", db.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a tuning database"));
    std::fs::remove_dir_all(&dir).unwrap();
}
