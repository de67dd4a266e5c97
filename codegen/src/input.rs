//! The input format of `poly codegen` (placeholder).
