//! Conversions graph -> loop -> vector and memory planning (filled by the JIT issue).
