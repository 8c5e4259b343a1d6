//! The C header written next to an object file by `tcc --emit=obj`: sizes, ranks,
//! dimensions and element types of every input and output, the run functions, the
//! runtime's error codes and thread limit, and the messages of the model's run-time
//! checks.

use std::fmt::Write;

use tcc_runtime_abi::threads::MAX_THREADS;
use tcc_runtime_abi::{AotError, Signature, TensorSpec};

/// Whether `s` is a valid C identifier (and so a usable model name).
pub fn is_c_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A C identifier made from `s` (a file stem): other characters become `_`, and a
/// leading digit gets a `_` before it.
pub fn c_identifier(s: &str) -> String {
    let mut out: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                for b in c.to_string().bytes() {
                    let _ = write!(out, "\\{b:03o}");
                }
            }
        }
    }
    out.push('"');
    out
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    if v.is_empty() { "0".into() } else { v.join(", ") }
}

fn tensor_tables(out: &mut String, name: &str, upper: &str, kind: &str, specs: &[TensorSpec]) {
    let n = format!("{upper}_NUM_{}S", kind.to_uppercase());
    let size = if specs.is_empty() { "1".to_string() } else { n.clone() };
    let _ = writeln!(out, "/* Element count, rank and element type of each {kind}. */");
    let _ = writeln!(
        out,
        "static const int64_t {name}_{kind}_numel[{size}] = {{{}}};",
        list(specs.iter().map(|s| s.shape.iter().product::<usize>()))
    );
    let _ = writeln!(
        out,
        "static const int32_t {name}_{kind}_rank[{size}] = {{{}}};",
        list(specs.iter().map(|s| s.shape.len()))
    );
    let _ = writeln!(
        out,
        "static const char *const {name}_{kind}_dtype[{size}] = {{{}}};",
        if specs.is_empty() { "0".into() } else { list(specs.iter().map(|s| c_string(s.dtype.name()))) }
    );
    let _ = writeln!(out, "/* Dimensions of each {kind}, outermost first (row-major storage). */");
    for (i, s) in specs.iter().enumerate() {
        let _ = writeln!(
            out,
            "static const int64_t {name}_{kind}_dims_{i}[{}] = {{{}}};",
            s.shape.len().max(1),
            list(&s.shape)
        );
    }
    let dims: Vec<String> = (0..specs.len()).map(|i| format!("{name}_{kind}_dims_{i}")).collect();
    let _ = writeln!(out, "static const int64_t *const {name}_{kind}_dims[{size}] = {{{}}};\n", list(dims));
}

/// The runtime's thread limit and error codes, the same for every model: guarded, so
/// that several models' headers can be included together.
fn runtime_codes(out: &mut String) {
    let _ = writeln!(out, "#ifndef TCC_AOT_ERROR_CODES\n#define TCC_AOT_ERROR_CODES");
    let _ = writeln!(out, "/* The most threads a run may use. */\n#define TCC_MAX_THREADS {MAX_THREADS}");
    let _ = writeln!(
        out,
        "/* Negative results of the run functions of every tcc model: the call was refused and nothing\n \
         * ran. Positive results are the number of the run-time check that failed; 0 is success. */"
    );
    for e in AotError::ALL {
        let _ = writeln!(out, "#define {} ({}) /* {} */", e.macro_name(), e.code(), e.message());
    }
    let _ = writeln!(out, "#endif\n");
}

/// `{name}_run_typed`: the run function with one pointer of its element type per input
/// and output, in order.
fn typed_run(out: &mut String, name: &str, sig: &Signature) {
    let params: Vec<String> = sig
        .inputs
        .iter()
        .enumerate()
        .map(|(i, s)| format!("const {} *input{i}", s.dtype.c_type()))
        .chain(sig.outputs.iter().enumerate().map(|(i, s)| format!("{} *output{i}", s.dtype.c_type())))
        .collect();
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let inputs: Vec<String> = (0..sig.inputs.len()).map(|i| format!("(const float *)input{i}")).collect();
    let outputs: Vec<String> = (0..sig.outputs.len()).map(|i| format!("(float *)output{i}")).collect();
    let _ = writeln!(out, "/* {name}_run with a pointer of each tensor's element type: inputs, then outputs. */");
    let _ = writeln!(out, "static inline int {name}_run_typed({params}) {{");
    let _ = writeln!(out, "    const float *const inputs[{}] = {{{}}};", inputs.len().max(1), list(inputs));
    let _ = writeln!(out, "    float *const outputs[{}] = {{{}}};", outputs.len().max(1), list(outputs));
    let _ = writeln!(out, "    return {name}_run(inputs, outputs);\n}}\n");
}

/// The header of a model compiled to an object as `name`.
pub fn c_header(name: &str, source: &str, sig: &Signature, workspace_size: usize, checks: &[String]) -> String {
    let upper = name.to_uppercase();
    let guard = format!("TCC_MODEL_{upper}_H");
    let mut out = String::new();
    let _ = writeln!(out, "/* {name}: compiled by tcc from {source}. Generated; do not edit.");
    let _ = writeln!(out, " *");
    for (kind, specs) in [("input", &sig.inputs), ("output", &sig.outputs)] {
        for (i, s) in specs.iter().enumerate() {
            let _ = writeln!(out, " * {kind} {i}: {} {:?}", s.dtype, s.shape);
        }
    }
    let _ = writeln!(out, " *");
    let _ = writeln!(out, " * Link with the runtime: cc main.c {name}.o $(tcc --print-runtime-lib) -lpthread -lm -ldl");
    let _ = writeln!(out, " * (a library from `tcc --emit=staticlib` holds it: cc main.c lib{name}.a -lpthread -lm)");
    let _ = writeln!(out, " */");
    let _ = writeln!(out, "#ifndef {guard}\n#define {guard}\n\n#include <stdbool.h>\n#include <stdint.h>\n");
    let _ = writeln!(out, "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n");
    let _ = writeln!(out, "#define {upper}_NUM_INPUTS  {}", sig.inputs.len());
    let _ = writeln!(out, "#define {upper}_NUM_OUTPUTS {}", sig.outputs.len());
    let _ = writeln!(out, "/* Scratch memory a run uses (allocated by the runtime, once per calling thread). */");
    let _ = writeln!(out, "#define {upper}_WORKSPACE_BYTES {workspace_size}\n");
    runtime_codes(&mut out);
    tensor_tables(&mut out, name, &upper, "input", &sig.inputs);
    tensor_tables(&mut out, name, &upper, "output", &sig.outputs);
    let _ = writeln!(
        out,
        "/* Runs the model. inputs[i] points to {name}_input_numel[i] elements of type\n \
         * {name}_input_dtype[i] (row-major), outputs[i] to room for {name}_output_numel[i] elements of type\n \
         * {name}_output_dtype[i]; the arrays are declared float, so pass other types' pointers cast (or\n \
         * call {name}_run_typed). Uses TCC_NUM_THREADS threads (1 to TCC_MAX_THREADS),\n \
         * or one per physical core. Returns 0 on success; a negative TCC_ERROR_* code when the call is\n \
         * refused and nothing ran (a NULL array or element, an invalid thread count or TCC_NUM_THREADS,\n \
         * no memory for the workspace); or the number of the run-time check that failed. See\n \
         * {name}_error_message. Safe to call from several threads at once. */"
    );
    let _ = writeln!(out, "int {name}_run(const float *const *inputs, float *const *outputs);\n");
    let _ = writeln!(
        out,
        "/* The same with an explicit thread count: 0 for the default, else 1 to TCC_MAX_THREADS (others\n \
         * return TCC_ERROR_INVALID_THREADS). All models of a process share one pool of worker threads,\n \
         * grown to the largest count asked for: at most TCC_MAX_THREADS - 1 workers. */"
    );
    let _ = writeln!(out, "int {name}_run_threads(const float *const *inputs, float *const *outputs, int threads);\n");
    typed_run(&mut out, name, sig);
    let _ = writeln!(out, "/* The message of any result of {name}_run or {name}_run_threads. */");
    let _ = writeln!(out, "static inline const char *{name}_error_message(int code) {{");
    let _ = writeln!(
        out,
        "    static const char *const messages[] = {{{}}};",
        if checks.is_empty() { "0".into() } else { list(checks.iter().map(|c| c_string(c))) }
    );
    let _ = writeln!(out, "    if (code == 0) return \"success\";");
    let _ = writeln!(out, "    if (code > 0 && code <= {}) return messages[code - 1];", checks.len());
    let _ = writeln!(out, "    switch (code) {{");
    for e in AotError::ALL {
        let _ = writeln!(out, "    case {}: return {};", e.code(), c_string(&e.message()));
    }
    let _ = writeln!(out, "    default: return \"unknown error code\";\n    }}\n}}\n");
    let _ = writeln!(out, "#ifdef __cplusplus\n}}\n#endif\n\n#endif /* {guard} */");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(c_identifier("resnet-18.v2"), "resnet_18_v2");
        assert_eq!(c_identifier("3d"), "_3d");
        assert!(is_c_identifier("_3d") && !is_c_identifier("a-b") && !is_c_identifier(""));
    }

    #[test]
    fn the_header_documents_every_error_code() {
        let sig = Signature { inputs: vec![], outputs: vec![] };
        let h = c_header("m", "m.mlir", &sig, 0, &["x must be positive".into()]);
        assert!(h.contains("#define TCC_MAX_THREADS 256"), "{h}");
        for e in AotError::ALL {
            assert!(h.contains(&format!("#define {} ({})", e.macro_name(), e.code())), "{h}");
            assert!(h.contains(&format!("case {}: return {};", e.code(), c_string(&e.message()))), "{h}");
        }
        assert!(h.contains("messages[] = {\"x must be positive\"}"), "{h}");
    }
}
