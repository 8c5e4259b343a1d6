//! TOSA import: `tosa.*` ops as exported by torch-mlir, converted to the graph dialect (filled by the real-models issue).
