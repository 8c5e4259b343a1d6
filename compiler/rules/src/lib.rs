//! The rule language: parser and build-time code generator for graph rewrite matchers (filled by the rewrite-rules issue).
