//! Graph-level optimization: cost model, rewrite search, layout planning, fusion, kernel configuration (filled by later issues).
