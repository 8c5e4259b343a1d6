//! tcc's runtime: thread pool, workspace arena, tensors and the C ABI that compiled code calls.
//! Filled by the JIT issue; it depends on nothing of the compiler.
