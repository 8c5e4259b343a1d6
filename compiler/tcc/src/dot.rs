//! Graphviz pictures of a graph-dialect function (`tcc --emit=dot`): one node per op,
//! labelled with its name, attributes of note and result shapes; edges follow values.
//! Inputs and outputs are drawn as their own nodes, and a fusion group (`graph.fused`)
//! as a cluster around the nodes of its ops.

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
    // A fusion group's result is its last op's.
    let node = |v: Value| match m.value_def(v) {
        ValueDef::BlockArg { index, .. } => format!("in{index}"),
        ValueDef::Result { op, .. } => {
            let i = op_index(m, entry, op);
            match group_ops(m, op) {
                Some(inner) => format!("op{i}_{}", inner.len() - 1),
                None => format!("op{i}"),
            }
        }
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
        if let Some(inner) = group_ops(m, op) {
            let _ = writeln!(out, "  subgraph cluster_op{i} {{\n    label=\"fused group\"; style=rounded; color=blue;");
            let args = m.block_args(m.region_blocks(m.regions(op)[0])[0]).to_vec();
            let inner_node = |v: Value| -> String {
                match args.iter().position(|&a| a == v) {
                    Some(k) => node(m.operand(op, k)),
                    None => format!("op{i}_{}", inner.iter().position(|&o| m.result(o, 0) == v).unwrap_or(usize::MAX)),
                }
            };
            for (j, &o) in inner.iter().enumerate() {
                let _ = writeln!(out, "    op{i}_{j} [label=\"{}\"];", label(m, o));
            }
            let _ = writeln!(out, "  }}");
            for (j, &o) in inner.iter().enumerate() {
                for &v in m.operands(o) {
                    let _ = writeln!(out, "  {} -> op{i}_{j};", inner_node(v));
                }
            }
            continue;
        }
        let style = if m.name(op) == "graph.constant" { ", style=dashed" } else { "" };
        let _ = writeln!(out, "  op{i} [label=\"{}\"{style}];", label(m, op));
        for &v in m.operands(op) {
            let _ = writeln!(out, "  {} -> op{i};", node(v));
        }
    }
    out.push_str("}\n");
    out
}

/// An op's label: its name, attributes of note and result shapes, escaped for DOT.
fn label(m: &Module, op: Op) -> String {
    let results: Vec<String> = m.results(op).iter().map(|&r| shape(m, r)).collect();
    let attrs: Vec<String> =
        m.attrs(op).iter().filter(|(k, _)| *k != "value").map(|(k, v)| format!("{k}={v}")).collect();
    let mut label = m.name(op).trim_start_matches("graph.").to_string();
    if !attrs.is_empty() {
        label += &format!("\n{}", attrs.join(" "));
    }
    label += &format!("\n{}", results.join(", "));
    escape(&label).replace('\n', "\\n")
}

/// The ops of fusion group `op` (without its `graph.yield`), if it is one.
fn group_ops(m: &Module, op: Op) -> Option<Vec<Op>> {
    if !m.is(op, &tcc_dialect_graph::ops::FUSED) {
        return None;
    }
    let block = m.region_blocks(*m.regions(op).first()?)[0];
    Some(m.block_ops(block).filter(|&o| !m.is(o, &tcc_dialect_graph::ops::YIELD)).collect())
}

fn op_index(m: &Module, block: tcc_ir::Block, op: Op) -> usize {
    m.block_ops(block).position(|o| o == op).unwrap_or(usize::MAX)
}
