//! The `vector` dialect: SIMD values of the target's width (filled by the JIT issue).
