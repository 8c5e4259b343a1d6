//! Benchmarks: criterion benches of kernels and compile time, and scripts comparing tcc
//! with peers (ONNX Runtime, PyTorch, IREE). Filled by later issues; results go in RESULTS.md.
