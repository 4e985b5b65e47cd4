//! Bottom-up summaries (placeholder).
