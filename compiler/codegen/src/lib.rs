//! Backends: Cranelift (default) and LLVM (feature `llvm`) (filled by the JIT and LLVM issues).
