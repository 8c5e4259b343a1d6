//! Graphviz pictures of a graph-dialect function (`tcc --emit=dot`): one node per op,
//! labelled with its name, attributes of note and result shapes; edges follow values.
//! Inputs and outputs are drawn as their own nodes.

use std::fmt::Write;

use tcc_ir::builtin::{RETURN, func_entry};
use tcc_ir::{Module, Op, Value, ValueDef};

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn shape(m: &Module, v: Value) -> String {
    m.value_type(v).as_tensor().map(|t| format!("{t}")).unwrap_or_else(|| m.value_type(v).to_string())
}

/// DOT text of the module's entry function (`@main` or the only function).
pub fn graph_to_dot(m: &Module) -> String {
    let mut out =
        String::from("digraph model {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    let Ok(func) = tcc_lower::entry_function(m) else {
        out.push_str("}\n");
        return out;
    };
    let Some(entry) = func_entry(m, func) else {
        out.push_str("}\n");
        return out;
    };
    let node = |v: Value| match m.value_def(v) {
        ValueDef::BlockArg { index, .. } => format!("in{index}"),
        ValueDef::Result { op, .. } => format!("op{}", op_index(m, entry, op)),
    };
    for (i, &a) in m.block_args(entry).iter().enumerate() {
        let _ = writeln!(out, "  in{i} [shape=ellipse, label=\"input {i}\\n{}\"];", escape(&shape(m, a)));
    }
    for (i, op) in m.block_ops(entry).enumerate() {
        if m.is(op, &RETURN) {
            for (k, &v) in m.operands(op).iter().enumerate() {
                let _ = writeln!(out, "  out{k} [shape=ellipse, label=\"output {k}\\n{}\"];", escape(&shape(m, v)));
                let _ = writeln!(out, "  {} -> out{k};", node(v));
            }
            continue;
        }
        let results: Vec<String> = m.results(op).iter().map(|&r| shape(m, r)).collect();
        let attrs: Vec<String> =
            m.attrs(op).iter().filter(|(k, _)| *k != "value").map(|(k, v)| format!("{k}={v}")).collect();
        let mut label = m.name(op).trim_start_matches("graph.").to_string();
        if !attrs.is_empty() {
            label += &format!("\n{}", attrs.join(" "));
        }
        label += &format!("\n{}", results.join(", "));
        let style = if m.name(op) == "graph.constant" { ", style=dashed" } else { "" };
        let _ = writeln!(out, "  op{i} [label=\"{}\"{style}];", escape(&label).replace('\n', "\\n"));
        for &v in m.operands(op) {
            let _ = writeln!(out, "  {} -> op{i};", node(v));
        }
    }
    out.push_str("}\n");
    out
}

fn op_index(m: &Module, block: tcc_ir::Block, op: Op) -> usize {
    m.block_ops(block).position(|o| o == op).unwrap_or(usize::MAX)
}
