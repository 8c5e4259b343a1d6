//! The `loop` dialect: buffers, loop nests, scalar arithmetic (filled by the JIT issue).
