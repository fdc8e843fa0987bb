//! Shared helpers for the physics tests live in each test file.
